#include "ui/views/vtk/VtkImageView.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QWheelEvent>

#include <vtkCamera.h>
#include <vtkFloatArray.h>
#include <vtkImageData.h>
#include <vtkImageProperty.h>
#include <vtkImageSlice.h>
#include <vtkImageSliceMapper.h>
#include <vtkLookupTable.h>
#include <vtkPointData.h>
#include <vtkRenderer.h>

#include "ui/views/vtk/VtkOffscreenRenderer.h"

namespace tomo::ui {

namespace {
constexpr double kZoomStep = 1.25;
constexpr double kMinZoom = 0.05;
constexpr double kMaxZoom = 64.0;
const QColor kBackground(32, 32, 32);
}  // namespace

VtkImageView::VtkImageView(QWidget* parent)
    : SliceView(parent),
      m_vtk(std::make_unique<VtkOffscreenRenderer>(kBackground)),
      m_data(vtkSmartPointer<vtkImageData>::New()),
      m_lut(vtkSmartPointer<vtkLookupTable>::New()),
      m_slice(vtkSmartPointer<vtkImageSlice>::New()) {
    setAttribute(Qt::WA_OpaquePaintEvent);
    setToolTip(
        tr("Wheel or +/-: zoom   0: fit   middle drag or arrows: pan   right drag: zoom\n"
           "Left drag: window/level   A: auto window   C: colour map   "
           "PageUp/PageDown or Ctrl+wheel: slice"));
    vtkNew<vtkImageSliceMapper> mapper;
    mapper->SetInputData(m_data);
    mapper->BorderOn();  // show whole pixels, not only up to the outer pixel centres
    m_slice->SetMapper(mapper);
    vtkImageProperty* property = m_slice->GetProperty();
    property->SetInterpolationTypeToNearest();
    property->SetLookupTable(m_lut);
    property->UseLookupTableScalarRangeOn();
    m_lut->SetNumberOfTableValues(256);
    m_lut->SetNanColor(0, 0, 0, 1);
    m_vtk->renderer()->GetActiveCamera()->ParallelProjectionOn();
    updateLookupTable();
}

VtkImageView::~VtkImageView() = default;

void VtkImageView::contentChanged() {
    m_dirty = true;
    update();
}

void VtkImageView::uploadImage() {
    if (!hasImage()) {
        m_vtk->renderer()->RemoveViewProp(m_slice);
        return;
    }
    const int cols = imageWidth();
    const int rows = imageHeight();
    int* dims = m_data->GetDimensions();
    if (dims[0] != cols || dims[1] != rows || m_data->GetPointData()->GetScalars() == nullptr) {
        m_data->SetDimensions(cols, rows, 1);
        m_data->SetSpacing(1, 1, 1);
        m_data->SetOrigin(0.5, 0.5, 0);  // pixel centres at half-integers
        m_data->AllocateScalars(VTK_FLOAT, 1);
    }
    auto* dst = static_cast<float*>(m_data->GetScalarPointer());
    View2<const float> img = image();
    for (int r = 0; r < rows; ++r)  // VTK's row 0 is the bottom
        std::memcpy(dst + static_cast<std::size_t>(rows - 1 - r) * static_cast<std::size_t>(cols),
                    &img(static_cast<std::size_t>(r), 0),
                    static_cast<std::size_t>(cols) * sizeof(float));
    m_data->Modified();
    if (!m_vtk->renderer()->HasViewProp(m_slice)) m_vtk->renderer()->AddViewProp(m_slice);
}

void VtkImageView::updateLookupTable() {
    for (int i = 0; i < 256; ++i) {
        QColor c = QColor::fromRgb(colorAt(colorMap(), i / 255.0));
        m_lut->SetTableValue(i, c.redF(), c.greenF(), c.blueF(), 1.0);
    }
    const WindowLevel& wl = windowLevel();
    double width = wl.width > 0 ? wl.width : 1e-12 * std::max(1.0, std::abs(wl.level));
    m_lut->SetTableRange(wl.level - 0.5 * width, wl.level + 0.5 * width);
    m_lut->Modified();
}

double VtkImageView::fitScale() const {
    if (!hasImage()) return 1.0;
    return std::min(static_cast<double>(width()) / imageWidth(),
                    static_cast<double>(height()) / imageHeight());
}

double VtkImageView::zoom() const {
    return m_zoom > 0 ? m_zoom : fitScale();
}

void VtkImageView::setZoom(double z) {
    if (z > 0 && m_zoom == 0.0) m_centre = centre();
    m_zoom = z > 0 ? std::clamp(z, kMinZoom, kMaxZoom) : 0.0;
    update();
}

QPointF VtkImageView::centre() const {
    if (m_zoom > 0) return m_centre;
    return {0.5 * imageWidth(), 0.5 * imageHeight()};
}

QPointF VtkImageView::imageToWidget(QPointF p) const {
    return (p - centre()) * zoom() + QPointF(0.5 * width(), 0.5 * height());
}

QPointF VtkImageView::widgetToImage(QPointF p) const {
    return centre() + (p - QPointF(0.5 * width(), 0.5 * height())) / zoom();
}

void VtkImageView::zoomAbout(double factor, QPointF widgetPoint) {
    if (!hasImage()) return;
    QPointF anchor = widgetToImage(widgetPoint);
    double s = std::clamp(zoom() * factor, kMinZoom, kMaxZoom);
    // Keep the anchor under the cursor: centre = anchor - (widgetPoint - mid) / s.
    m_centre = anchor - (widgetPoint - QPointF(0.5 * width(), 0.5 * height())) / s;
    m_zoom = s;
    update();
}

void VtkImageView::panBy(QPointF widgetDelta) {
    if (!hasImage()) return;
    if (m_zoom == 0.0) setZoom(fitScale());  // panning leaves fit mode
    m_centre -= widgetDelta / zoom();
    update();
}

void VtkImageView::zoomIn() {
    zoomAbout(kZoomStep, QPointF(0.5 * width(), 0.5 * height()));
}
void VtkImageView::zoomOut() {
    zoomAbout(1.0 / kZoomStep, QPointF(0.5 * width(), 0.5 * height()));
}
void VtkImageView::fitToWindow() {
    setZoom(0.0);
}

void VtkImageView::updateCamera(QSize size) {
    vtkCamera* camera = m_vtk->renderer()->GetActiveCamera();
    QPointF c = centre();
    double worldY = imageHeight() - c.y();
    camera->SetFocalPoint(c.x(), worldY, 0.0);
    camera->SetPosition(c.x(), worldY, 1000.0);
    camera->SetViewUp(0, 1, 0);
    camera->SetParallelScale(0.5 * size.height() / zoom());
    camera->SetClippingRange(1.0, 2000.0);
}

const QImage& VtkImageView::frame(QSize size) {
    if (m_dirty) {
        if (m_uploadedRevision != imageRevision()) uploadImage();
        m_uploadedRevision = imageRevision();
        updateLookupTable();
        m_dirty = false;
    }
    updateCamera(size);
    m_frame = m_vtk->render(size);
    return m_frame;
}

QImage VtkImageView::renderToImage(QSize size) {
    resizeForRendering(size);
    QImage out = frame(size).convertToFormat(QImage::Format_RGB32);
    QPainter painter(&out);
    paintOverlays(painter);
    return out;
}

void VtkImageView::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    const QImage& image = frame(size());
    if (image.isNull())
        painter.fillRect(rect(), kBackground);
    else
        painter.drawImage(QPoint(0, 0), image);
    paintOverlays(painter);
}

void VtkImageView::resizeEvent(QResizeEvent* event) {
    SliceView::resizeEvent(event);
    update();
}

void VtkImageView::wheelEvent(QWheelEvent* event) {
    if (handleCommonWheel(event)) return;
    double notches = event->angleDelta().y() / 120.0;
    if (notches != 0.0) zoomAbout(std::pow(kZoomStep, notches), event->position());
    event->accept();
}

void VtkImageView::mousePressEvent(QMouseEvent* event) {
    if (handleCommonPress(event)) return;
    m_dragButton = event->button();
    m_dragStart = m_lastDrag = event->position();
    m_wlAtDragStart = windowLevel();
    event->accept();
}

void VtkImageView::mouseMoveEvent(QMouseEvent* event) {
    if (handleCommonMove(event)) return;
    QPointF delta = event->position() - m_dragStart;
    QPointF step = event->position() - m_lastDrag;
    m_lastDrag = event->position();
    if (!hasImage()) return;
    if (m_dragButton == Qt::LeftButton) {
        double perPixel = dataRange() / 256.0;
        WindowLevel wl = m_wlAtDragStart;
        wl.width = std::max(wl.width + delta.x() * perPixel, 1e-6 * dataRange());
        wl.level += delta.y() * perPixel;
        setWindowLevel(wl);
    } else if (m_dragButton == Qt::MiddleButton) {
        panBy(step);
    } else if (m_dragButton == Qt::RightButton) {
        zoomAbout(std::pow(1.01, -step.y()), m_dragStart);
    }
}

void VtkImageView::mouseReleaseEvent(QMouseEvent* event) {
    handleCommonRelease(event);
    if (event->button() == m_dragButton) m_dragButton = Qt::NoButton;
    event->accept();
}

void VtkImageView::keyPressEvent(QKeyEvent* event) {
    if (handleCommonKey(event)) {
        event->accept();
        return;
    }
    const double panStep = 0.1 * std::min(width(), height());
    switch (event->key()) {
        case Qt::Key_Plus:
        case Qt::Key_Equal:
            zoomIn();
            break;
        case Qt::Key_Minus:
            zoomOut();
            break;
        case Qt::Key_0:
        case Qt::Key_F:
            fitToWindow();
            break;
        case Qt::Key_A:
            autoWindow();
            break;
        case Qt::Key_C:
            setColorMap(colorMap() == ColorMap::Grey ? ColorMap::Inferno : ColorMap::Grey);
            break;
        case Qt::Key_Left:
            panBy({panStep, 0});
            break;
        case Qt::Key_Right:
            panBy({-panStep, 0});
            break;
        case Qt::Key_Up:
            panBy({0, panStep});
            break;
        case Qt::Key_Down:
            panBy({0, -panStep});
            break;
        default:
            QWidget::keyPressEvent(event);
            return;
    }
    event->accept();
}

}  // namespace tomo::ui
