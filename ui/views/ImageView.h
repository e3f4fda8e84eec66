#pragma once
/// @file ImageView.h
/// @brief A 2-D float image viewer: window/level, colour map, zoom, pan and a value readout.
///
/// The view keeps its own dense copy of the image (setImage copies; the caller's data may go
/// away) and renders it through ColorMap.h into a cached QImage that is painted with
/// nearest-neighbour scaling, so one image pixel covers a block of identical screen pixels.
///
/// Interaction:
///  - wheel, `+`/`-`: zoom about the cursor (or the centre) by 1.25x; `0`/`F`: fit to the widget
///  - left drag: pan
///  - right drag: window/level; right = wider window, down = higher level (darker image), both
///    scaled so that 256 screen pixels span the image's data range
///  - arrow keys: Left/Right narrow/widen the window by 10 %, Up/Down lower/raise the level by
///    5 % of the data range (Up = brighter); `A`: automatic window (0.5 / 99.5 percentiles);
///    `C`: next colour map
///  - hovering emits pixelHovered("<title>  x 12  y 40  value 0.0213") for the status bar.
///
/// Geometry: image column c, row r covers the screen rectangle [ox + c s, ox + (c+1) s) x
/// [oy + r s, oy + (r+1) s) where s is the zoom (screen pixels per image pixel; fit = the
/// largest s showing the whole image) and (ox, oy) follows from the pan. Row 0 is at the top, as
/// in Volume (largest y).
///
/// Threading: GUI thread only, like every QWidget.

#include <vector>

#include <QImage>
#include <QPointF>
#include <QString>
#include <QWidget>

#include "core/data/Array.h"
#include "ui/views/ColorMap.h"

namespace tomo::ui {

class ImageView : public QWidget {
    Q_OBJECT

  public:
    explicit ImageView(QWidget* parent = nullptr);

    /// Name used in the hover readout ("Reconstruction").
    void setTitle(const QString& title) { m_title = title; }
    const QString& title() const { return m_title; }

    /// Copies @p image (rows x cols). With @p autoWindow the window is set from percentiles;
    /// otherwise the current window/level is kept.
    void setImage(View2<const float> image, bool autoWindow = true);
    /// Removes the image (the view shows its background and @p message, if any).
    void clear(const QString& message = QString());
    bool hasImage() const { return !m_values.empty(); }
    int imageWidth() const { return m_cols; }
    int imageHeight() const { return m_rows; }
    /// The stored value at column @p x, row @p y (NaN outside the image).
    float valueAt(int x, int y) const;

    void setWindowLevel(const WindowLevel& wl);
    const WindowLevel& windowLevel() const { return m_windowLevel; }
    /// Window from the [lowPercent, highPercent] percentiles of the image.
    void autoWindow(double lowPercent = 0.5, double highPercent = 99.5);

    void setColorMap(ColorMap map);
    ColorMap colorMap() const { return m_colorMap; }

    /// Screen pixels per image pixel; 0 = fit to the widget (the default).
    void setZoom(double zoom);
    /// The effective zoom (the fit scale when in fit mode).
    double zoom() const;
    /// Widget position of an image point (image pixel units, (0, 0) = top-left corner).
    QPointF imageToWidget(QPointF imagePoint) const;
    /// Image point (pixel units) under a widget position.
    QPointF widgetToImage(QPointF widgetPoint) const;

    QSize sizeHint() const override { return {320, 320}; }
    QSize minimumSizeHint() const override { return {64, 64}; }

  public slots:
    void zoomIn();
    void zoomOut();
    void fitToWindow();

  signals:
    /// Hover readout text; empty when the cursor leaves the image.
    void pixelHovered(const QString& text);
    void windowLevelChanged(const tomo::ui::WindowLevel& wl);

  protected:
    void paintEvent(QPaintEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void leaveEvent(QEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;

  private:
    double fitScale() const;
    QPointF origin() const;  ///< widget position of the image's top-left corner
    void zoomAbout(double factor, QPointF widgetPoint);
    void updateHover(QPointF widgetPoint);
    double dataRange() const;

    QString m_title;
    QString m_message;
    std::vector<float> m_values;  ///< rows x cols, dense, row 0 first
    int m_rows = 0;
    int m_cols = 0;
    float m_min = 0.0f;
    float m_max = 0.0f;
    WindowLevel m_windowLevel;
    ColorMap m_colorMap = ColorMap::Grey;
    QImage m_rendered;
    bool m_dirty = true;
    double m_zoom = 0.0;  ///< 0 = fit
    QPointF m_pan{0, 0};  ///< offset of the image centre from the widget centre (pixels)
    // Drag state.
    Qt::MouseButton m_dragButton = Qt::NoButton;
    QPointF m_dragStart;
    QPointF m_panAtDragStart;
    WindowLevel m_wlAtDragStart;
};

}  // namespace tomo::ui
