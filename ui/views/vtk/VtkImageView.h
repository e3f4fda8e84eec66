#pragma once
/// @file VtkImageView.h
/// @brief The VTK slice view: a SliceView drawn by VTK (vtkImageSlice with nearest-neighbour
/// texture, colours from a vtkLookupTable built from ColorMap.h, parallel-projection camera)
/// through VtkOffscreenRenderer. Used for reconstructed slices, sinograms, orthogonal slices.
///
/// Colour mapping: the lookup table has 256 entries colorAt(map, i / 255) over the window
/// [L - W/2, L + W/2]; VTK picks entry floor(256 t) (clamped), which differs from ImageView's
/// round(255 t) by at most one level. NaN shows black.
///
/// Geometry: the camera looks at image point m_centre with s screen pixels per image pixel, so
/// widget point (u, v) shows image point centre + ((u, v) - (W/2, H/2)) / s. In VTK's world
/// the image lies in z = 0 with x = image x and y = rows - image y (VTK's y points up); pixel
/// (c, r) covers [c, c+1] x [rows-r-1, rows-r].
///
/// Interaction (besides SliceView's PageUp/PageDown, Ctrl+wheel, click and profile tool):
///  - left drag: window/level (right = wider, down = higher level = darker; 256 pixels span the
///    data range), as VTK's image interactor style
///  - middle drag or arrow keys: pan (arrows by 10 % of the view); right drag: zoom
///  - wheel, `+`/`-`: zoom about the cursor by 1.25x; `0`/`F`: fit; `A`: automatic window;
///    `C`: next colour map
///
/// Threading: GUI thread only (see VtkOffscreenRenderer.h).

#include <memory>

#include <QImage>

#include <vtkSmartPointer.h>

#include "ui/views/SliceView.h"

class vtkImageData;
class vtkImageSlice;
class vtkLookupTable;

namespace tomo::ui {

class VtkOffscreenRenderer;

class VtkImageView : public SliceView {
    Q_OBJECT

  public:
    /// Needs vtkViewsAvailable() (ViewFactory.h).
    explicit VtkImageView(QWidget* parent = nullptr);
    ~VtkImageView() override;

    void setZoom(double zoom) override;
    double zoom() const override;
    QPointF imageToWidget(QPointF imagePoint) const override;
    QPointF widgetToImage(QPointF widgetPoint) const override;
    /// Renders the VTK frame at @p size and paints the overlays over it.
    QImage renderToImage(QSize size) override;

  protected:
    void contentChanged() override;
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void zoomAbout(double factor, QPointF widgetPoint) override;
    void panBy(QPointF widgetDelta) override;

  private:
    QPointF centre() const;  ///< image point shown at the widget centre
    void uploadImage();
    void updateLookupTable();
    void updateCamera(QSize size);
    const QImage& frame(QSize size);

    std::unique_ptr<VtkOffscreenRenderer> m_vtk;
    vtkSmartPointer<vtkImageData> m_data;
    vtkSmartPointer<vtkLookupTable> m_lut;
    vtkSmartPointer<vtkImageSlice> m_slice;
    QImage m_frame;
    bool m_dirty = true;
    quint64 m_uploadedRevision = ~quint64{0};  ///< imageRevision() of the data in m_data
    double m_zoom = 0.0;                       ///< 0 = fit
    QPointF m_centre{0, 0};                    ///< used when m_zoom > 0
};

}  // namespace tomo::ui
