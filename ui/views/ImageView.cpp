#include "ui/views/ImageView.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QWheelEvent>

namespace tomo::ui {

namespace {
constexpr double kZoomStep = 1.25;
constexpr double kMinZoom = 0.05;
constexpr double kMaxZoom = 64.0;
const QColor kBackground(32, 32, 32);
}  // namespace

ImageView::ImageView(QWidget* parent) : SliceView(parent) {
    setAttribute(Qt::WA_OpaquePaintEvent);
    setToolTip(
        tr("Wheel or +/-: zoom   0: fit   left drag: pan   PageUp/PageDown: slice\n"
           "Right drag or arrows: window/level   A: auto window   C: colour map"));
}

void ImageView::contentChanged() {
    m_dirty = true;
    if (!hasImage()) m_rendered = QImage();
    update();
}

double ImageView::fitScale() const {
    if (!hasImage()) return 1.0;
    return std::min(static_cast<double>(width()) / imageWidth(),
                    static_cast<double>(height()) / imageHeight());
}

double ImageView::zoom() const {
    return m_zoom > 0 ? m_zoom : fitScale();
}

void ImageView::setZoom(double zoom) {
    m_zoom = zoom > 0 ? std::clamp(zoom, kMinZoom, kMaxZoom) : 0.0;
    if (m_zoom == 0.0) m_pan = {0, 0};
    update();
}

QPointF ImageView::origin() const {
    double s = zoom();
    QPointF centre(0.5 * width(), 0.5 * height());
    return centre + m_pan - QPointF(0.5 * s * imageWidth(), 0.5 * s * imageHeight());
}

QPointF ImageView::imageToWidget(QPointF p) const {
    return origin() + p * zoom();
}
QPointF ImageView::widgetToImage(QPointF p) const {
    return (p - origin()) / zoom();
}

void ImageView::zoomAbout(double factor, QPointF widgetPoint) {
    if (!hasImage()) return;
    QPointF imagePoint = widgetToImage(widgetPoint);
    double s = std::clamp(zoom() * factor, kMinZoom, kMaxZoom);
    m_zoom = s;
    // Keep imagePoint under widgetPoint: origin' = widgetPoint - imagePoint * s.
    QPointF newOrigin = widgetPoint - imagePoint * s;
    QPointF centre(0.5 * width(), 0.5 * height());
    m_pan = newOrigin + QPointF(0.5 * s * imageWidth(), 0.5 * s * imageHeight()) - centre;
    update();
}

void ImageView::zoomIn() {
    zoomAbout(kZoomStep, QPointF(0.5 * width(), 0.5 * height()));
}
void ImageView::zoomOut() {
    zoomAbout(1.0 / kZoomStep, QPointF(0.5 * width(), 0.5 * height()));
}
void ImageView::fitToWindow() {
    setZoom(0.0);
}

void ImageView::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    painter.fillRect(rect(), kBackground);
    if (hasImage()) {
        if (m_dirty) {
            m_rendered = renderImage(image(), windowLevel(), colorMap());
            m_dirty = false;
        }
        painter.setRenderHint(QPainter::SmoothPixmapTransform, false);
        QRectF target(origin(), QSizeF(zoom() * imageWidth(), zoom() * imageHeight()));
        painter.drawImage(target, m_rendered);
    }
    paintOverlays(painter);
}

void ImageView::wheelEvent(QWheelEvent* event) {
    if (handleCommonWheel(event)) return;
    double notches = event->angleDelta().y() / 120.0;
    if (notches != 0.0) zoomAbout(std::pow(kZoomStep, notches), event->position());
    event->accept();
}

void ImageView::mousePressEvent(QMouseEvent* event) {
    if (handleCommonPress(event)) return;
    if (event->button() != Qt::LeftButton && event->button() != Qt::RightButton) {
        QWidget::mousePressEvent(event);
        return;
    }
    m_dragButton = event->button();
    m_dragStart = event->position();
    m_panAtDragStart = m_pan;
    m_wlAtDragStart = windowLevel();
    event->accept();
}

void ImageView::mouseMoveEvent(QMouseEvent* event) {
    if (handleCommonMove(event)) return;
    QPointF delta = event->position() - m_dragStart;
    if (m_dragButton == Qt::LeftButton && hasImage()) {
        if (m_zoom == 0.0) m_zoom = fitScale();  // panning leaves fit mode
        m_pan = m_panAtDragStart + delta;
        update();
    } else if (m_dragButton == Qt::RightButton && hasImage()) {
        double perPixel = dataRange() / 256.0;
        WindowLevel wl = m_wlAtDragStart;
        wl.width = std::max(wl.width + delta.x() * perPixel, 1e-6 * dataRange());
        wl.level += delta.y() * perPixel;
        setWindowLevel(wl);
    }
}

void ImageView::mouseReleaseEvent(QMouseEvent* event) {
    handleCommonRelease(event);
    if (event->button() == m_dragButton) m_dragButton = Qt::NoButton;
    event->accept();
}

void ImageView::keyPressEvent(QKeyEvent* event) {
    if (handleCommonKey(event)) {
        event->accept();
        return;
    }
    WindowLevel wl = windowLevel();
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
            wl.width /= 1.1;
            setWindowLevel(wl);
            break;
        case Qt::Key_Right:
            wl.width *= 1.1;
            setWindowLevel(wl);
            break;
        case Qt::Key_Up:
            wl.level -= 0.05 * dataRange();
            setWindowLevel(wl);
            break;
        case Qt::Key_Down:
            wl.level += 0.05 * dataRange();
            setWindowLevel(wl);
            break;
        default:
            QWidget::keyPressEvent(event);
            return;
    }
    event->accept();
}

}  // namespace tomo::ui
