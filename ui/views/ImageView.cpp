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

ImageView::ImageView(QWidget* parent) : QWidget(parent) {
    setMouseTracking(true);
    setFocusPolicy(Qt::StrongFocus);
    setAttribute(Qt::WA_OpaquePaintEvent);
    setToolTip(
        tr("Wheel or +/-: zoom   0: fit   left drag: pan\n"
           "Right drag or arrows: window/level   A: auto window   C: colour map"));
}

void ImageView::setImage(View2<const float> image, bool autoWindowFromData) {
    m_rows = static_cast<int>(image.rows());
    m_cols = static_cast<int>(image.cols());
    m_values.resize(image.rows() * image.cols());
    copyDense(image, m_values.data());
    auto range = finiteRange(m_values);
    m_min = range[0];
    m_max = range[1];
    m_message.clear();
    m_dirty = true;
    if (autoWindowFromData) autoWindow();
    update();
}

void ImageView::clear(const QString& message) {
    m_values.clear();
    m_rows = m_cols = 0;
    m_rendered = QImage();
    m_message = message;
    update();
}

float ImageView::valueAt(int x, int y) const {
    if (x < 0 || y < 0 || x >= m_cols || y >= m_rows)
        return std::numeric_limits<float>::quiet_NaN();
    return m_values[static_cast<std::size_t>(y) * static_cast<std::size_t>(m_cols) +
                    static_cast<std::size_t>(x)];
}

void ImageView::setWindowLevel(const WindowLevel& wl) {
    m_windowLevel = wl;
    m_dirty = true;
    update();
    emit windowLevelChanged(m_windowLevel);
}

void ImageView::autoWindow(double lowPercent, double highPercent) {
    setWindowLevel(percentileWindow(m_values, lowPercent, highPercent));
}

void ImageView::setColorMap(ColorMap map) {
    m_colorMap = map;
    m_dirty = true;
    update();
}

double ImageView::fitScale() const {
    if (m_rows <= 0 || m_cols <= 0) return 1.0;
    return std::min(static_cast<double>(width()) / m_cols, static_cast<double>(height()) / m_rows);
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
    return centre + m_pan - QPointF(0.5 * s * m_cols, 0.5 * s * m_rows);
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
    m_pan = newOrigin + QPointF(0.5 * s * m_cols, 0.5 * s * m_rows) - centre;
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

double ImageView::dataRange() const {
    double range = static_cast<double>(m_max) - static_cast<double>(m_min);
    return range > 0 ? range : 1.0;
}

void ImageView::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    painter.fillRect(rect(), kBackground);
    if (!hasImage()) {
        if (!m_message.isEmpty()) {
            painter.setPen(QColor(200, 200, 200));
            painter.drawText(rect(), Qt::AlignCenter | Qt::TextWordWrap, m_message);
        }
        return;
    }
    if (m_dirty) {
        View2<const float> view(m_values.data(), static_cast<std::size_t>(m_rows),
                                static_cast<std::size_t>(m_cols), static_cast<std::size_t>(m_cols));
        m_rendered = renderImage(view, m_windowLevel, m_colorMap);
        m_dirty = false;
    }
    painter.setRenderHint(QPainter::SmoothPixmapTransform, false);
    QRectF target(origin(), QSizeF(zoom() * m_cols, zoom() * m_rows));
    painter.drawImage(target, m_rendered);
}

void ImageView::wheelEvent(QWheelEvent* event) {
    double notches = event->angleDelta().y() / 120.0;
    if (notches != 0.0) zoomAbout(std::pow(kZoomStep, notches), event->position());
    event->accept();
}

void ImageView::mousePressEvent(QMouseEvent* event) {
    if (event->button() != Qt::LeftButton && event->button() != Qt::RightButton) {
        QWidget::mousePressEvent(event);
        return;
    }
    m_dragButton = event->button();
    m_dragStart = event->position();
    m_panAtDragStart = m_pan;
    m_wlAtDragStart = m_windowLevel;
    event->accept();
}

void ImageView::mouseMoveEvent(QMouseEvent* event) {
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
    updateHover(event->position());
}

void ImageView::mouseReleaseEvent(QMouseEvent* event) {
    if (event->button() == m_dragButton) m_dragButton = Qt::NoButton;
    event->accept();
}

void ImageView::leaveEvent(QEvent* event) {
    emit pixelHovered(QString());
    QWidget::leaveEvent(event);
}

void ImageView::updateHover(QPointF widgetPoint) {
    if (!hasImage()) return;
    QPointF p = widgetToImage(widgetPoint);
    int x = static_cast<int>(std::floor(p.x()));
    int y = static_cast<int>(std::floor(p.y()));
    if (x < 0 || y < 0 || x >= m_cols || y >= m_rows) {
        emit pixelHovered(QString());
        return;
    }
    emit pixelHovered(QStringLiteral("%1  x %2  y %3  value %4")
                          .arg(m_title)
                          .arg(x)
                          .arg(y)
                          .arg(static_cast<double>(valueAt(x, y)), 0, 'g', 5));
}

void ImageView::keyPressEvent(QKeyEvent* event) {
    WindowLevel wl = m_windowLevel;
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
            setColorMap(m_colorMap == ColorMap::Grey ? ColorMap::Inferno : ColorMap::Grey);
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
