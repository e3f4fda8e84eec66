#pragma once
/// @file SliceView.h
/// @brief The interface of every 2-D slice view (reconstructed slice, sinogram, orthogonal
/// slices, compare panes): image data, window/level, colour map, overlays, the line-profile tool
/// and the signals the main window listens to.
///
/// Two implementations exist: ImageView (QPainter over a QImage, always available) and
/// VtkImageView (VTK offscreen rendering, when built with VTK and an X display is reachable).
/// Create views through ViewFactory.h so the choice is made in one place.
///
/// Data: setImage() copies the rows x cols floats (the caller's buffer may go away). Values are
/// in the image's own unit (e.g. attenuation per mm). Row 0 is the top of the image
/// (largest y, docs/geometry.md).
///
/// Coordinates (all in image pixel units):
///  - an *image point* has (0, 0) at the top-left corner of pixel (0, 0) and (cols, rows) at the
///    bottom-right corner of the last pixel: pixel (c, r) covers [c, c+1) x [r, r+1);
///  - a *pixel index* position has (c, r) at the centre of pixel (c, r) (image point minus 0.5),
///    as used by core/metrics lineProfile(). Profile lines and crosshairs use pixel indices.
///
/// Window/level and colour mapping follow ColorMap.h (L - W/2 black, L + W/2 white).
///
/// Interaction, the same in every slice view (ImageJ / Tomviz conventions; the tooltip lists it):
///  - PageUp/PageDown and Ctrl+wheel emit sliceStepRequested(+1 / -1) (next/previous slice);
///  - a left click without dragging emits pointClicked();
///  - left or middle drag pans (the image moves with the cursor); with the profile tool enabled
///    (off by default: View > Line profile tool) a left drag draws the profile line instead;
///  - right drag changes the window by delta x and the level by delta y (right = wider,
///    down = higher level = darker), 256 screen pixels spanning the data range, relative to the
///    window at the press;
///  - wheel, `+`/`-`: zoom about the cursor (keys: the widget centre) by kZoomStep per notch;
///    `0`/`F`: fit to the widget; `A`: automatic window (0.5 / 99.5 percentiles); `C`: toggle
///    the grey and inferno colour maps; Escape clears the profile line;
///  - arrow keys: Left/Right narrow/widen the window by 10 %, Up/Down raise/lower the level by
///    5 % of the data range (Up = brighter).
/// A subclass supplies its geometry through zoomAbout()/panBy().
///
/// Threading: GUI thread only, like every QWidget.

#include <optional>
#include <vector>

#include <QColor>
#include <QImage>
#include <QLineF>
#include <QList>
#include <QPair>
#include <QPointF>
#include <QString>
#include <QWidget>

#include "core/data/Array.h"
#include "ui/views/ColorMap.h"

class QMouseEvent;
class QKeyEvent;
class QPainter;
class QWheelEvent;

namespace tomo::ui {

class SliceView : public QWidget {
    Q_OBJECT

  public:
    explicit SliceView(QWidget* parent = nullptr);
    ~SliceView() override;

    /// Name used in the hover readout ("Reconstruction").
    void setTitle(const QString& title) { m_title = title; }
    const QString& title() const { return m_title; }

    /// Copies @p image (rows x cols). With @p autoWindow the window is set from the 0.5/99.5
    /// percentiles; otherwise the current window/level is kept.
    void setImage(View2<const float> image, bool autoWindow = true);
    /// Removes the image (the view shows its background and @p message, if any).
    void clear(const QString& message = QString());
    bool hasImage() const { return !m_values.empty(); }
    int imageWidth() const { return m_cols; }
    int imageHeight() const { return m_rows; }
    /// The stored image (valid until the next setImage/clear).
    View2<const float> image() const;
    /// The stored value at column @p x, row @p y (NaN outside the image).
    float valueAt(int x, int y) const;
    /// Incremented by every setImage()/clear(), so renderers re-upload data only when needed.
    quint64 imageRevision() const { return m_imageRevision; }

    void setWindowLevel(const WindowLevel& wl);
    const WindowLevel& windowLevel() const { return m_windowLevel; }
    /// Window from the [lowPercent, highPercent] percentiles of the image.
    void autoWindow(double lowPercent = 0.5, double highPercent = 99.5);

    void setColorMap(ColorMap map);
    ColorMap colorMap() const { return m_colorMap; }

    /// Widget position of an image point / image point under a widget position.
    virtual QPointF imageToWidget(QPointF imagePoint) const = 0;
    virtual QPointF widgetToImage(QPointF widgetPoint) const = 0;
    /// Screen pixels per image pixel.
    virtual double zoom() const = 0;
    /// Screen pixels per image pixel; 0 = fit to the widget (the default).
    virtual void setZoom(double zoom) = 0;

    /// Renders the view (image and overlays) at @p size without showing it, e.g. for
    /// `tomostation --screenshot`. The widget is resized to @p size.
    virtual QImage renderToImage(QSize size);

    /// Line-profile tool: while enabled, a left drag draws a line; profileLineChanged() is
    /// emitted as it moves.
    void setProfileToolEnabled(bool enabled) { m_profileTool = enabled; }
    bool profileToolEnabled() const { return m_profileTool; }
    /// The profile line in pixel-index coordinates (empty when none).
    std::optional<QLineF> profileLine() const { return m_profileLine; }
    void setProfileLine(const QLineF& pixelLine);
    void clearProfileLine();

    /// The disc of an image of @p rows x @p cols that the data determine (a reconstruction's
    /// field of view; pixel-index centre and radius): drawn as a dashed circle with the outside
    /// shaded, the hover readout says "outside the field of view" there, and the automatic
    /// window uses the values inside it. Applies only to images of that size.
    void setFieldOfView(double centerX, double centerY, double radius, int rows, int cols);
    void clearFieldOfView();
    bool showsFieldOfView() const;

    /// Crosshair at a pixel-index position (a horizontal and a vertical line), or none.
    void setCrosshair(std::optional<QPointF> pixelPosition);
    std::optional<QPointF> crosshair() const { return m_crosshair; }

    /// A label drawn in the top-left corner (e.g. "z 12 / 64").
    void setCaption(const QString& caption);
    const QString& caption() const { return m_caption; }

    /// The mouse and key bindings of every slice view (keys, what they do), as Help lists them.
    static QList<QPair<QString, QString>> bindings();
    /// The same, one binding a line ("Right drag: window ..."), as the tooltip shows them.
    static QString bindingsHelp();

    QSize sizeHint() const override { return {320, 320}; }
    QSize minimumSizeHint() const override { return {64, 64}; }

  public slots:
    /// Zoom by kZoomStep (in) or 1 / kZoomStep (out) about the widget centre.
    void zoomIn();
    void zoomOut();
    /// setZoom(0): fit the whole image into the widget.
    void fitToWindow();

  signals:
    /// Hover readout text ("<title>  x 12  y 40  value 0.0213"); empty when the cursor leaves
    /// the image.
    void pixelHovered(const QString& text);
    /// The pixel under the cursor and its value.
    void pixelValue(int x, int y, double value);
    void windowLevelChanged(const tomo::ui::WindowLevel& wl);
    /// setImage() or clear() replaced the image.
    void imageChanged();
    /// PageUp (+1), PageDown (-1), Ctrl+wheel (one step per notch).
    void sliceStepRequested(int delta);
    /// A left click without drag at this pixel-index position.
    void pointClicked(QPointF pixelPosition);
    /// The profile line (pixel-index coordinates) changed or was cleared (null line).
    void profileLineChanged(QLineF pixelLine);

  protected:
    /// What a drag with a mouse button does (see the file comment).
    enum class DragAction { None, Pan, WindowLevel };
    /// The one set of bindings of every slice view (see the file comment).
    struct Bindings {
        DragAction left = DragAction::Pan;
        DragAction middle = DragAction::Pan;
        DragAction right = DragAction::WindowLevel;
    };
    /// Zoom factor of one wheel notch or `+` key; zoom() stays in [kMinZoom, kMaxZoom].
    static constexpr double kZoomStep = 1.25;
    static constexpr double kMinZoom = 0.05;
    static constexpr double kMaxZoom = 64.0;
    /// @p zoom clamped to [kMinZoom, kMaxZoom].
    static double clampZoom(double zoom);
    /// Widget background behind the image (dark grey).
    static QColor backgroundColour() { return {32, 32, 32}; }

    /// Called after the image, window/level or colour map changed; refresh caches and update().
    virtual void contentChanged() = 0;
    /// Multiplies the zoom by @p factor (clamped) keeping the image point under @p widgetPoint
    /// in place; nothing without an image.
    virtual void zoomAbout(double factor, QPointF widgetPoint) = 0;
    /// Moves the image by @p widgetDelta screen pixels (leaves fit mode); nothing without an
    /// image.
    virtual void panBy(QPointF widgetDelta) = 0;
    /// Screen pixels per image pixel that fit the whole image into the widget (1 without one).
    double fitScale() const;
    /// Data range of the image (1 when constant).
    double dataRange() const;
    /// Draws caption, message, crosshair and profile line over the image.
    void paintOverlays(QPainter& painter) const;
    const QString& message() const { return m_message; }
    /// resize() for renderToImage(), after any pending layout of the parent has run.
    void resizeForRendering(QSize size);

    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    /// Emits pixelHovered/pixelValue for the pixel under @p widgetPoint.
    void updateHover(QPointF widgetPoint);
    void leaveEvent(QEvent* event) override;

  private:
    /// Click, profile-line, slice-step and Escape handling; each returns true when it consumed
    /// the event.
    bool handleCommonPress(QMouseEvent* event);
    bool handleCommonMove(QMouseEvent* event);
    bool handleCommonRelease(QMouseEvent* event);
    bool handleCommonWheel(QWheelEvent* event);
    bool handleCommonKey(QKeyEvent* event);
    /// The bound action of a drag with @p button (None for Qt::NoButton and other buttons).
    DragAction dragAction(Qt::MouseButton button) const;
    /// Window/level for a drag of @p delta screen pixels from the press.
    void dragWindowLevel(QPointF delta);
    /// The arrow keys (window/level); true when @p key is one.
    bool handleArrowKey(int key);

    QString m_title;
    QString m_message;
    QString m_caption;
    std::vector<float> m_values;  ///< rows x cols, dense, row 0 first
    int m_rows = 0;
    int m_cols = 0;
    quint64 m_imageRevision = 0;
    float m_min = 0.0f;
    float m_max = 0.0f;
    WindowLevel m_windowLevel;
    ColorMap m_colorMap = ColorMap::Grey;
    bool m_profileTool = false;
    bool m_drawingProfile = false;
    std::optional<QLineF> m_profileLine;
    std::optional<QPointF> m_crosshair;
    struct Disc {
        double centerX, centerY, radius;
        int rows, cols;
    };
    std::optional<Disc> m_fieldOfView;
    /// True when pixel (x, y) lies outside the field of view shown.
    bool outsideFieldOfView(int x, int y) const;
    QPointF m_pressPosition;
    bool m_leftPressed = false;
    bool m_moved = false;
    Bindings m_bindings;
    // Drag state of the bound drag actions.
    Qt::MouseButton m_dragButton = Qt::NoButton;
    QPointF m_dragStart;
    QPointF m_lastDrag;
    WindowLevel m_wlAtDragStart;
};

}  // namespace tomo::ui
