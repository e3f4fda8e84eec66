#include "ui/views/vtk/VtkVolumeRenderView.h"

#include <cstring>
#include <utility>

#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QWheelEvent>

#include <vtkCamera.h>
#include <vtkColorTransferFunction.h>
#include <vtkGenericRenderWindowInteractor.h>
#include <vtkImageData.h>
#include <vtkInteractorStyleTrackballCamera.h>
#include <vtkPiecewiseFunction.h>
#include <vtkRenderWindow.h>
#include <vtkRenderer.h>
#include <vtkSmartVolumeMapper.h>
#include <vtkVolume.h>
#include <vtkVolumeProperty.h>

#include "ui/views/vtk/VtkOffscreenRenderer.h"

namespace tomo::ui {

namespace {
const QColor kBackground(24, 24, 32);
}

VtkVolumeRenderView::VtkVolumeRenderView(QWidget* parent)
    : VolumeView(parent),
      m_vtk(std::make_unique<VtkOffscreenRenderer>(kBackground)),
      m_interactor(vtkSmartPointer<vtkGenericRenderWindowInteractor>::New()),
      m_data(vtkSmartPointer<vtkImageData>::New()),
      m_actor(vtkSmartPointer<vtkVolume>::New()),
      m_opacity(vtkSmartPointer<vtkPiecewiseFunction>::New()),
      m_colors(vtkSmartPointer<vtkColorTransferFunction>::New()) {
    setAttribute(Qt::WA_OpaquePaintEvent);
    setFocusPolicy(Qt::StrongFocus);
    setToolTip(tr("Left drag: rotate   middle drag: pan   right drag or wheel: zoom   R: reset"));
    vtkNew<vtkSmartVolumeMapper> mapper;
    mapper->SetInputData(m_data);
    m_actor->SetMapper(mapper);
    vtkVolumeProperty* property = m_actor->GetProperty();
    property->SetScalarOpacity(m_opacity);
    property->SetColor(m_colors);
    property->SetInterpolationTypeToLinear();
    property->ShadeOff();
    vtkNew<vtkInteractorStyleTrackballCamera> style;
    m_interactor->SetInteractorStyle(style);
    m_interactor->SetRenderWindow(m_vtk->window());
    m_interactor->EnableRenderOff();  // paintEvent renders once per frame
    m_interactor->Initialize();
}

VtkVolumeRenderView::~VtkVolumeRenderView() {
    m_interactor->SetRenderWindow(nullptr);
}

void VtkVolumeRenderView::setVolume(std::shared_ptr<const Volume> volume,
                                    bool keepTransferFunction) {
    storeVolume(std::move(volume));
    // VTK's copy of the previous volume goes now; the new one is copied when first drawn, so a
    // result that nobody looks at in 3-D is not held twice (1 GB at 1024^2 x 256).
    m_vtk->renderer()->RemoveViewProp(m_actor);
    m_data->Initialize();
    m_uploadPending = m_volume && !m_volume->empty();
    if (!m_uploadPending) {
        update();
        return;
    }
    if (!keepTransferFunction)
        setPreset(TransferPreset::GreyRamp);
    else
        setTransferFunction(m_transfer);
    update();
}

void VtkVolumeRenderView::uploadPendingVolume() {
    if (!std::exchange(m_uploadPending, false)) return;
    const auto& dims = m_volume->dims();  // [z][y][x]
    const int nx = static_cast<int>(dims[2]), ny = static_cast<int>(dims[1]);
    const int nz = static_cast<int>(dims[0]);
    m_data->SetDimensions(nx, ny, nz);
    m_data->SetSpacing(1, 1, 1);
    m_data->SetOrigin(0, 0, 0);
    m_data->AllocateScalars(VTK_FLOAT, 1);
    auto* dst = static_cast<float*>(m_data->GetScalarPointer());
    for (int z = 0; z < nz; ++z)
        for (int y = 0; y < ny; ++y)  // VTK's y points up: row 0 (largest y) goes last
            std::memcpy(
                dst +
                    (static_cast<std::size_t>(z) * ny + static_cast<std::size_t>(ny - 1 - y)) * nx,
                m_volume->row(static_cast<std::size_t>(z), static_cast<std::size_t>(y)).data(),
                static_cast<std::size_t>(nx) * sizeof(float));
    m_data->Modified();
    m_vtk->renderer()->AddViewProp(m_actor);
    resetCamera();
}

void VtkVolumeRenderView::setTransferFunction(const TransferFunction& tf) {
    m_transfer = tf;
    m_transfer.sort();
    m_opacity->RemoveAllPoints();
    for (const OpacityPoint& p : m_transfer.opacity)
        m_opacity->AddPoint(p.value, p.opacity);
    m_colors->RemoveAllPoints();
    for (const ColorPoint& p : m_transfer.colors)
        m_colors->AddRGBPoint(p.value, p.color.redF(), p.color.greenF(), p.color.blueF());
    update();
}

void VtkVolumeRenderView::resetCamera() {
    vtkRenderer* renderer = m_vtk->renderer();
    vtkCamera* camera = renderer->GetActiveCamera();
    camera->SetFocalPoint(0, 0, 0);
    camera->SetPosition(0, 0, 1);
    camera->SetViewUp(0, 1, 0);
    renderer->ResetCamera();
    camera->Azimuth(30);
    camera->Elevation(20);
    camera->OrthogonalizeViewUp();
    renderer->ResetCameraClippingRange();
    update();
}

QImage VtkVolumeRenderView::renderToImage(QSize size) {
    uploadPendingVolume();
    resize(size);
    m_interactor->UpdateSize(size.width(), size.height());
    return m_vtk->render(size).convertToFormat(QImage::Format_RGB32);
}

void VtkVolumeRenderView::paintEvent(QPaintEvent*) {
    uploadPendingVolume();
    QPainter painter(this);
    m_vtk->renderer()->ResetCameraClippingRange();
    QImage frame = m_vtk->render(size());
    if (frame.isNull())
        painter.fillRect(rect(), kBackground);
    else
        painter.drawImage(QPoint(0, 0), frame);
    if (!m_volume) {
        painter.setPen(QColor(200, 200, 200));
        painter.drawText(rect(), Qt::AlignCenter, tr("no volume"));
    }
}

void VtkVolumeRenderView::resizeEvent(QResizeEvent* event) {
    VolumeView::resizeEvent(event);
    m_interactor->UpdateSize(width(), height());
}

void VtkVolumeRenderView::setEventPosition(QMouseEvent* event) {
    QPoint p = event->position().toPoint();
    m_interactor->SetEventInformationFlipY(p.x(), p.y(),
                                           (event->modifiers() & Qt::ControlModifier) ? 1 : 0,
                                           (event->modifiers() & Qt::ShiftModifier) ? 1 : 0);
}

void VtkVolumeRenderView::mousePressEvent(QMouseEvent* event) {
    setEventPosition(event);
    switch (event->button()) {
        case Qt::LeftButton:
            m_interactor->LeftButtonPressEvent();
            break;
        case Qt::MiddleButton:
            m_interactor->MiddleButtonPressEvent();
            break;
        case Qt::RightButton:
            m_interactor->RightButtonPressEvent();
            break;
        default:
            return;
    }
    update();
}

void VtkVolumeRenderView::mouseMoveEvent(QMouseEvent* event) {
    setEventPosition(event);
    m_interactor->MouseMoveEvent();
    if (event->buttons() != Qt::NoButton) update();
}

void VtkVolumeRenderView::mouseReleaseEvent(QMouseEvent* event) {
    setEventPosition(event);
    switch (event->button()) {
        case Qt::LeftButton:
            m_interactor->LeftButtonReleaseEvent();
            break;
        case Qt::MiddleButton:
            m_interactor->MiddleButtonReleaseEvent();
            break;
        case Qt::RightButton:
            m_interactor->RightButtonReleaseEvent();
            break;
        default:
            return;
    }
    update();
}

void VtkVolumeRenderView::wheelEvent(QWheelEvent* event) {
    QPoint p = event->position().toPoint();
    m_interactor->SetEventInformationFlipY(p.x(), p.y());
    if (event->angleDelta().y() > 0)
        m_interactor->MouseWheelForwardEvent();
    else if (event->angleDelta().y() < 0)
        m_interactor->MouseWheelBackwardEvent();
    event->accept();
    update();
}

void VtkVolumeRenderView::keyPressEvent(QKeyEvent* event) {
    if (event->key() == Qt::Key_R) {
        resetCamera();
        event->accept();
        return;
    }
    VolumeView::keyPressEvent(event);
}

}  // namespace tomo::ui
