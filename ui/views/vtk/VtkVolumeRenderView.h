#pragma once
/// @file VtkVolumeRenderView.h
/// @brief 3-D volume rendering with vtkSmartVolumeMapper (GPU ray casting where OpenGL allows,
/// else VTK's CPU ray caster), drawn through VtkOffscreenRenderer.
///
/// The transfer function (TransferFunction.h) becomes a vtkPiecewiseFunction (scalar opacity)
/// and a vtkColorTransferFunction; trilinear interpolation, no shading. The camera starts at a
/// three-quarter view (azimuth 30 deg, elevation 20 deg) of the whole volume.
///
/// Interaction: Qt mouse/wheel events are forwarded to a vtkInteractorStyleTrackballCamera
/// through a vtkGenericRenderWindowInteractor (its own rendering disabled: the widget renders
/// once per paint): left drag rotates, middle drag (or Shift+left) pans, right drag and the
/// wheel zoom, `R` resets the camera.
///
/// Threading: GUI thread only (see VtkOffscreenRenderer.h).

#include <memory>

#include <QImage>

#include <vtkSmartPointer.h>

#include "ui/views/VolumeView.h"

class vtkColorTransferFunction;
class vtkGenericRenderWindowInteractor;
class vtkImageData;
class vtkPiecewiseFunction;
class vtkVolume;

namespace tomo::ui {

class VtkOffscreenRenderer;

class VtkVolumeRenderView : public VolumeView {
    Q_OBJECT

  public:
    /// Needs vtkViewsAvailable() (ViewFactory.h).
    explicit VtkVolumeRenderView(QWidget* parent = nullptr);
    ~VtkVolumeRenderView() override;

    bool canRender() const override { return true; }
    void setVolume(std::shared_ptr<const Volume> volume,
                   bool keepTransferFunction = false) override;
    void setTransferFunction(const TransferFunction& tf) override;
    QImage renderToImage(QSize size) override;
    void resetCamera() override;

  protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;

  private:
    void setEventPosition(QMouseEvent* event);
    /// Copies a volume given to setVolume into VTK's image, once, when it is first drawn.
    void uploadPendingVolume();

    std::unique_ptr<VtkOffscreenRenderer> m_vtk;
    vtkSmartPointer<vtkGenericRenderWindowInteractor> m_interactor;
    vtkSmartPointer<vtkImageData> m_data;
    bool m_uploadPending = false;  ///< m_volume is not yet copied into m_data
    vtkSmartPointer<vtkVolume> m_actor;
    vtkSmartPointer<vtkPiecewiseFunction> m_opacity;
    vtkSmartPointer<vtkColorTransferFunction> m_colors;
};

}  // namespace tomo::ui
