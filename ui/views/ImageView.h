#pragma once
/// @file ImageView.h
/// @brief The QPainter slice view: a SliceView that renders through ColorMap.h into a cached
/// QImage painted with nearest-neighbour scaling (one image pixel covers a block of identical
/// screen pixels). Always available, with or without VTK; VtkImageView is the VTK variant.
///
/// Interaction (besides SliceView's PageUp/PageDown, Ctrl+wheel, click and profile tool):
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

#include <QImage>
#include <QList>
#include <QPointF>

#include "ui/views/SliceView.h"

namespace tomo::ui {

class ImageView : public SliceView {
    Q_OBJECT

  public:
    explicit ImageView(QWidget* parent = nullptr);

    void setZoom(double zoom) override;
    /// The effective zoom (the fit scale when in fit mode).
    double zoom() const override;
    QPointF imageToWidget(QPointF imagePoint) const override;
    QPointF widgetToImage(QPointF widgetPoint) const override;

    /// The image point shown at the widget's centre.
    QPointF viewCentre() const;
    /// True in fit mode (zoom 0: the whole image fits the widget).
    bool fitsWidget() const { return m_zoom == 0.0; }
    /// Shows @p imageCentre at the widget's centre at @p zoom (0: fit), without emitting
    /// framingChanged (for views that follow another).
    void setFraming(double zoom, QPointF imageCentre);

  signals:
    /// The zoom or the pan changed (wheel, keys, drag, setZoom).
    void framingChanged();

  protected:
    void contentChanged() override;
    void paintEvent(QPaintEvent* event) override;
    void zoomAbout(double factor, QPointF widgetPoint) override;
    void panBy(QPointF widgetDelta) override;

  private:
    QPointF origin() const;  ///< widget position of the image's top-left corner

    QImage m_rendered;
    bool m_dirty = true;
    double m_zoom = 0.0;  ///< 0 = fit
    QPointF m_pan{0, 0};  ///< offset of the image centre from the widget centre (pixels)
};

/// Makes @p views zoom and pan together: a change in one frames the others alike (same zoom,
/// same image point at the centre), as linked before/after panes do. The views must outlive the
/// connections (they are children of one window).
void synchroniseFraming(const QList<ImageView*>& views);

}  // namespace tomo::ui
