#include "ui/views/vtk/VtkImageView.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include <QPainter>

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

VtkImageView::VtkImageView(QWidget* parent)
    : SliceView(parent),
      m_vtk(std::make_unique<VtkOffscreenRenderer>(backgroundColour())),
      m_data(vtkSmartPointer<vtkImageData>::New()),
      m_lut(vtkSmartPointer<vtkLookupTable>::New()),
      m_slice(vtkSmartPointer<vtkImageSlice>::New()) {
    setAttribute(Qt::WA_OpaquePaintEvent);
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

double VtkImageView::zoom() const {
    return m_zoom > 0 ? m_zoom : fitScale();
}

void VtkImageView::setZoom(double z) {
    if (z > 0 && m_zoom == 0.0) m_centre = centre();
    m_zoom = z > 0 ? clampZoom(z) : 0.0;
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
    double s = clampZoom(zoom() * factor);
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
        painter.fillRect(rect(), backgroundColour());
    else
        painter.drawImage(QPoint(0, 0), image);
    paintOverlays(painter);
}

void VtkImageView::resizeEvent(QResizeEvent* event) {
    SliceView::resizeEvent(event);
    update();
}

}  // namespace tomo::ui
