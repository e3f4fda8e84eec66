#include "ui/views/SliceView.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include <QKeyEvent>
#include <QLayout>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QWheelEvent>

namespace tomo::ui {

namespace {
constexpr double kClickSlop = 3.0;  ///< screen pixels a click may move and still be a click
constexpr double kWindowDragPixels = 256.0;  ///< screen pixels a drag needs to span the data range
const QColor kCrosshairColour(80, 200, 255);
const QColor kProfileColour(255, 200, 0);
}  // namespace

SliceView::SliceView(QWidget* parent) : QWidget(parent) {
    setMouseTracking(true);
    setFocusPolicy(Qt::StrongFocus);
    setToolTip(bindingsHelp());
}

QList<QPair<QString, QString>> SliceView::bindings() {
    return {{tr("Right drag"), tr("window (left-right) and level (up-down)")},
            {tr("A"), tr("automatic window")},
            {tr("Left or middle drag"), tr("pan")},
            {tr("Wheel or +/-"), tr("zoom")},
            {tr("0"), tr("fit the image to the view")},
            {tr("C"), tr("next colour map")},
            {tr("PageUp/PageDown or Ctrl+wheel"), tr("previous/next slice")},
            {tr("Arrow keys"), tr("window (left/right) and level (up/down)")}};
}

QString SliceView::bindingsHelp() {
    QStringList lines;
    for (const auto& [keys, action] : bindings())
        lines << keys + QStringLiteral(": ") + action;
    return lines.join(QLatin1Char('\n'));
}

SliceView::~SliceView() = default;

void SliceView::setImage(View2<const float> image, bool autoWindowFromData) {
    m_rows = static_cast<int>(image.rows());
    m_cols = static_cast<int>(image.cols());
    m_values.resize(image.rows() * image.cols());
    copyDense(image, m_values.data());
    auto range = finiteRange(m_values);
    m_min = range[0];
    m_max = range[1];
    ++m_imageRevision;
    m_message.clear();
    if (autoWindowFromData)
        autoWindow();
    else
        contentChanged();
    emit imageChanged();
}

void SliceView::clear(const QString& message) {
    m_values.clear();
    m_rows = m_cols = 0;
    ++m_imageRevision;
    m_message = message;
    contentChanged();
    emit imageChanged();
}

View2<const float> SliceView::image() const {
    return {m_values.data(), static_cast<std::size_t>(m_rows), static_cast<std::size_t>(m_cols),
            static_cast<std::size_t>(m_cols)};
}

float SliceView::valueAt(int x, int y) const {
    if (x < 0 || y < 0 || x >= m_cols || y >= m_rows)
        return std::numeric_limits<float>::quiet_NaN();
    return m_values[static_cast<std::size_t>(y) * static_cast<std::size_t>(m_cols) +
                    static_cast<std::size_t>(x)];
}

void SliceView::setWindowLevel(const WindowLevel& wl) {
    m_windowLevel = wl;
    contentChanged();
    emit windowLevelChanged(m_windowLevel);
}

void SliceView::autoWindow(double lowPercent, double highPercent) {
    if (!showsFieldOfView()) {
        setWindowLevel(percentileWindow(m_values, lowPercent, highPercent));
        return;
    }
    // From the values the data determine: corners outside the field of view do not set it.
    std::vector<float> inside;
    inside.reserve(m_values.size());
    for (int y = 0; y < m_rows; ++y)
        for (int x = 0; x < m_cols; ++x)
            if (!outsideFieldOfView(x, y))
                inside.push_back(m_values[std::size_t(y) * std::size_t(m_cols) + std::size_t(x)]);
    setWindowLevel(percentileWindow(inside.empty() ? m_values : inside, lowPercent, highPercent));
}

void SliceView::setFieldOfView(double centerX, double centerY, double radius, int rows, int cols) {
    m_fieldOfView = Disc{centerX, centerY, radius, rows, cols};
    update();
}

void SliceView::clearFieldOfView() {
    m_fieldOfView.reset();
    update();
}

bool SliceView::showsFieldOfView() const {
    return m_fieldOfView && hasImage() && m_fieldOfView->rows == m_rows &&
           m_fieldOfView->cols == m_cols;
}

bool SliceView::outsideFieldOfView(int x, int y) const {
    return showsFieldOfView() && std::hypot(x - m_fieldOfView->centerX,
                                            y - m_fieldOfView->centerY) > m_fieldOfView->radius;
}

void SliceView::setColorMap(ColorMap map) {
    m_colorMap = map;
    contentChanged();
}

double SliceView::dataRange() const {
    double range = static_cast<double>(m_max) - static_cast<double>(m_min);
    return range > 0 ? range : 1.0;
}

void SliceView::resizeForRendering(QSize size) {
    // Settle a pending layout of the parent first, or it would later undo this resize.
    if (parentWidget() && parentWidget()->layout()) parentWidget()->layout()->activate();
    resize(size);
}

QImage SliceView::renderToImage(QSize size) {
    resizeForRendering(size);
    QImage image = grab().toImage();
    if (image.size() != size) {
        // Grabbing a widget of a never-shown window first lays that window out (Qt sizes it),
        // which may resize this widget; the layout is settled now, so resize and grab again.
        resize(size);
        image = grab().toImage();
    }
    return image;
}

void SliceView::setProfileLine(const QLineF& pixelLine) {
    m_profileLine = pixelLine;
    update();
    emit profileLineChanged(pixelLine);
}

void SliceView::clearProfileLine() {
    m_profileLine.reset();
    update();
    emit profileLineChanged(QLineF());
}

void SliceView::setCrosshair(std::optional<QPointF> pixelPosition) {
    m_crosshair = pixelPosition;
    update();
}

void SliceView::setCaption(const QString& caption) {
    m_caption = caption;
    update();
}

void SliceView::paintOverlays(QPainter& painter) const {
    const QPointF half(0.5, 0.5);
    if (!hasImage() && !m_message.isEmpty()) {
        painter.setPen(QColor(200, 200, 200));
        painter.drawText(rect(), Qt::AlignCenter | Qt::TextWordWrap, m_message);
    }
    if (showsFieldOfView()) {
        // Outside the field of view the values mean nothing: shaded, the disc's edge dashed.
        const Disc& d = *m_fieldOfView;
        const QPointF c = imageToWidget(QPointF(d.centerX, d.centerY) + half);
        const double r = d.radius * zoom();
        const QRectF image(imageToWidget({0, 0}), imageToWidget({static_cast<double>(m_cols),
                                                                 static_cast<double>(m_rows)}));
        QPainterPath outside;
        outside.addRect(image);
        QPainterPath disc;
        disc.addEllipse(c, r, r);
        painter.fillPath(outside.subtracted(disc), QColor(0, 0, 0, 110));
        painter.setPen(QPen(QColor(255, 255, 255, 150), 1, Qt::DashLine));
        painter.drawEllipse(c, r, r);
    }
    if (hasImage() && m_crosshair) {
        QPointF c = imageToWidget(*m_crosshair + half);
        QPointF topLeft = imageToWidget({0, 0});
        QPointF bottomRight =
            imageToWidget({static_cast<double>(m_cols), static_cast<double>(m_rows)});
        painter.setPen(QPen(kCrosshairColour, 1));
        painter.drawLine(QPointF(topLeft.x(), c.y()), QPointF(bottomRight.x(), c.y()));
        painter.drawLine(QPointF(c.x(), topLeft.y()), QPointF(c.x(), bottomRight.y()));
    }
    if (hasImage() && m_profileLine) {
        QPointF a = imageToWidget(m_profileLine->p1() + half);
        QPointF b = imageToWidget(m_profileLine->p2() + half);
        painter.setPen(QPen(kProfileColour, 2));
        painter.drawLine(a, b);
        painter.drawEllipse(a, 3, 3);
        painter.drawEllipse(b, 3, 3);
    }
    if (!m_caption.isEmpty()) {
        painter.setPen(QColor(230, 230, 230));
        painter.drawText(rect().adjusted(6, 4, -6, -4), Qt::AlignLeft | Qt::AlignTop, m_caption);
    }
}

double SliceView::clampZoom(double zoom) {
    return std::clamp(zoom, kMinZoom, kMaxZoom);
}

double SliceView::fitScale() const {
    if (!hasImage()) return 1.0;
    return std::min(static_cast<double>(width()) / m_cols, static_cast<double>(height()) / m_rows);
}

void SliceView::zoomIn() {
    zoomAbout(kZoomStep, QPointF(0.5 * width(), 0.5 * height()));
}

void SliceView::zoomOut() {
    zoomAbout(1.0 / kZoomStep, QPointF(0.5 * width(), 0.5 * height()));
}

void SliceView::fitToWindow() {
    setZoom(0.0);
}

bool SliceView::handleCommonPress(QMouseEvent* event) {
    if (event->button() != Qt::LeftButton) return false;
    m_leftPressed = true;
    m_moved = false;
    m_pressPosition = event->position();
    if (m_profileTool && hasImage()) {
        m_drawingProfile = true;
        QPointF p = widgetToImage(event->position()) - QPointF(0.5, 0.5);
        m_profileLine = QLineF(p, p);
        update();
        return true;
    }
    return false;
}

bool SliceView::handleCommonMove(QMouseEvent* event) {
    updateHover(event->position());
    if (m_leftPressed && QLineF(m_pressPosition, event->position()).length() > kClickSlop)
        m_moved = true;
    if (!m_drawingProfile) return false;
    QPointF p = widgetToImage(event->position()) - QPointF(0.5, 0.5);
    p.setX(std::clamp(p.x(), 0.0, static_cast<double>(m_cols - 1)));
    p.setY(std::clamp(p.y(), 0.0, static_cast<double>(m_rows - 1)));
    setProfileLine(QLineF(m_profileLine->p1(), p));
    return true;
}

bool SliceView::handleCommonRelease(QMouseEvent* event) {
    if (event->button() != Qt::LeftButton) return false;
    bool wasDrawing = m_drawingProfile;
    m_drawingProfile = false;
    m_leftPressed = false;
    if (!m_moved && hasImage()) {
        if (wasDrawing) m_profileLine.reset();
        emit pointClicked(widgetToImage(event->position()) - QPointF(0.5, 0.5));
        return true;
    }
    return wasDrawing;
}

bool SliceView::handleCommonWheel(QWheelEvent* event) {
    if (!(event->modifiers() & Qt::ControlModifier)) return false;
    int notches = event->angleDelta().y() / 120;
    if (notches != 0) emit sliceStepRequested(notches);
    event->accept();
    return true;
}

bool SliceView::handleCommonKey(QKeyEvent* event) {
    switch (event->key()) {
        case Qt::Key_PageUp:
            emit sliceStepRequested(1);
            return true;
        case Qt::Key_PageDown:
            emit sliceStepRequested(-1);
            return true;
        case Qt::Key_Escape:
            if (!m_profileLine) return false;
            clearProfileLine();
            return true;
        default:
            return false;
    }
}

void SliceView::updateHover(QPointF widgetPoint) {
    if (!hasImage()) return;
    QPointF p = widgetToImage(widgetPoint);
    int x = static_cast<int>(std::floor(p.x()));
    int y = static_cast<int>(std::floor(p.y()));
    if (x < 0 || y < 0 || x >= m_cols || y >= m_rows) {
        emit pixelHovered(QString());
        return;
    }
    double value = static_cast<double>(valueAt(x, y));
    emit pixelHovered(
        QStringLiteral("%1  x %2  y %3  value %4%5")
            .arg(m_title)
            .arg(x)
            .arg(y)
            .arg(value, 0, 'g', 5)
            .arg(outsideFieldOfView(x, y) ? tr("  (outside the field of view)") : QString()));
    emit pixelValue(x, y, value);
}

SliceView::DragAction SliceView::dragAction(Qt::MouseButton button) const {
    switch (button) {
        case Qt::LeftButton:
            return m_bindings.left;
        case Qt::MiddleButton:
            return m_bindings.middle;
        case Qt::RightButton:
            return m_bindings.right;
        default:
            return DragAction::None;
    }
}

void SliceView::dragWindowLevel(QPointF delta) {
    double perPixel = dataRange() / kWindowDragPixels;
    WindowLevel wl = m_wlAtDragStart;
    wl.width = std::max(wl.width + delta.x() * perPixel, 1e-6 * dataRange());
    wl.level += delta.y() * perPixel;
    setWindowLevel(wl);
}

void SliceView::wheelEvent(QWheelEvent* event) {
    if (handleCommonWheel(event)) return;
    double notches = event->angleDelta().y() / 120.0;
    if (notches != 0.0) zoomAbout(std::pow(kZoomStep, notches), event->position());
    event->accept();
}

void SliceView::mousePressEvent(QMouseEvent* event) {
    if (dragAction(event->button()) == DragAction::None) {
        QWidget::mousePressEvent(event);
        return;
    }
    if (handleCommonPress(event)) return;
    m_dragButton = event->button();
    m_dragStart = m_lastDrag = event->position();
    m_wlAtDragStart = m_windowLevel;
    event->accept();
}

void SliceView::mouseMoveEvent(QMouseEvent* event) {
    if (handleCommonMove(event)) return;
    QPointF delta = event->position() - m_dragStart;
    QPointF step = event->position() - m_lastDrag;
    m_lastDrag = event->position();
    if (!hasImage()) return;
    switch (dragAction(m_dragButton)) {
        case DragAction::WindowLevel:
            dragWindowLevel(delta);
            break;
        case DragAction::Pan:
            panBy(step);
            break;
        case DragAction::None:
            break;
    }
}

void SliceView::mouseReleaseEvent(QMouseEvent* event) {
    handleCommonRelease(event);
    if (event->button() == m_dragButton) m_dragButton = Qt::NoButton;
    event->accept();
}

void SliceView::keyPressEvent(QKeyEvent* event) {
    if (handleCommonKey(event)) {
        event->accept();
        return;
    }
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
        default:
            if (!handleArrowKey(event->key())) {
                QWidget::keyPressEvent(event);
                return;
            }
    }
    event->accept();
}

bool SliceView::handleArrowKey(int key) {
    if (key != Qt::Key_Left && key != Qt::Key_Right && key != Qt::Key_Up && key != Qt::Key_Down)
        return false;
    WindowLevel wl = m_windowLevel;
    if (key == Qt::Key_Left) wl.width /= 1.1;
    if (key == Qt::Key_Right) wl.width *= 1.1;
    if (key == Qt::Key_Up) wl.level -= 0.05 * dataRange();
    if (key == Qt::Key_Down) wl.level += 0.05 * dataRange();
    setWindowLevel(wl);
    return true;
}

void SliceView::leaveEvent(QEvent* event) {
    emit pixelHovered(QString());
    QWidget::leaveEvent(event);
}

}  // namespace tomo::ui
