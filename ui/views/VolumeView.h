#pragma once
/// @file VolumeView.h
/// @brief The interface of 3-D volume views: VtkVolumeRenderView (GPU/CPU ray casting through
/// vtkSmartVolumeMapper) or UnavailableVolumeView (a message, when VTK or a display is
/// missing). Create through ViewFactory.h createVolumeView().
///
/// Data: a Volume [z][y][x] (float32, row 0 of each plane = largest y, docs/geometry.md),
/// shared immutably (a worker may hand it over; the view never modifies it). Voxels are drawn
/// as unit cubes; world x, y, z follow the volume's axes with y pointing up.
///
/// Threading: GUI thread only.

#include <array>
#include <memory>

#include <QImage>
#include <QSize>
#include <QWidget>

#include "core/data/Array.h"
#include "ui/views/TransferFunction.h"

namespace tomo::ui {

class VolumeView : public QWidget {
    Q_OBJECT

  public:
    using QWidget::QWidget;

    /// False for the placeholder: setVolume and the transfer function then only store values.
    virtual bool canRender() const = 0;
    /// Shows @p volume; the transfer function is reset to the GreyRamp preset over the
    /// volume's finite data range unless @p keepTransferFunction.
    virtual void setVolume(std::shared_ptr<const Volume> volume,
                           bool keepTransferFunction = false) = 0;
    std::shared_ptr<const Volume> volume() const { return m_volume; }
    /// Finite min/max of the volume ({0, 1} without one).
    std::array<double, 2> dataRange() const { return m_range; }

    virtual void setTransferFunction(const TransferFunction& tf) = 0;
    const TransferFunction& transferFunction() const { return m_transfer; }
    /// The preset over the current data range.
    void setPreset(TransferPreset preset);

    /// Renders the current view at @p size (the widget is resized to it).
    virtual QImage renderToImage(QSize size) = 0;
    /// Camera back to the default three-quarter view of the whole volume.
    virtual void resetCamera() = 0;

    QSize sizeHint() const override { return {400, 400}; }

  protected:
    void storeVolume(std::shared_ptr<const Volume> volume);

    std::shared_ptr<const Volume> m_volume;
    std::array<double, 2> m_range{0.0, 1.0};
    TransferFunction m_transfer;
};

}  // namespace tomo::ui
