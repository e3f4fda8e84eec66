#include "ui/views/TransferFunctionEditor.h"

#include <algorithm>
#include <cmath>

#include <QLinearGradient>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>

namespace tomo::ui {

namespace {
constexpr double kGrabRadius = 6.0;
constexpr int kBarHeight = 12;
}  // namespace

TransferFunctionEditor::TransferFunctionEditor(QWidget* parent) : QWidget(parent) {
    setToolTip(tr("Opacity against value. Click: add a point   drag: move   right click: remove"));
}

void TransferFunctionEditor::setRange(double low, double high) {
    m_low = low;
    m_high = high > low ? high : low + 1.0;
    update();
}

void TransferFunctionEditor::setTransferFunction(const TransferFunction& tf) {
    m_tf = tf;
    m_tf.sort();
    m_dragged = -1;
    update();
}

QRectF TransferFunctionEditor::plotRect() const {
    return QRectF(8, 6, std::max(1, width() - 16), std::max(1, height() - 12 - kBarHeight - 4));
}

QPointF TransferFunctionEditor::toWidget(const OpacityPoint& p) const {
    QRectF r = plotRect();
    double t = (p.value - m_low) / (m_high - m_low);
    return {r.left() + t * r.width(), r.bottom() - p.opacity * r.height()};
}

OpacityPoint TransferFunctionEditor::fromWidget(QPointF position) const {
    QRectF r = plotRect();
    double t = std::clamp((position.x() - r.left()) / r.width(), 0.0, 1.0);
    double opacity = std::clamp((r.bottom() - position.y()) / r.height(), 0.0, 1.0);
    return {m_low + t * (m_high - m_low), opacity};
}

int TransferFunctionEditor::pointNear(QPointF position) const {
    for (std::size_t i = 0; i < m_tf.opacity.size(); ++i)
        if (QLineF(toWidget(m_tf.opacity[i]), position).length() <= kGrabRadius)
            return static_cast<int>(i);
    return -1;
}

void TransferFunctionEditor::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.fillRect(rect(), QColor(40, 40, 40));
    QRectF r = plotRect();
    painter.setPen(QColor(90, 90, 90));
    painter.drawRect(r);
    // Colour bar: the transfer function's colour at each value.
    QRectF bar(r.left(), r.bottom() + 4, r.width(), kBarHeight);
    QLinearGradient gradient(bar.topLeft(), bar.topRight());
    for (int i = 0; i <= 16; ++i) {
        double t = i / 16.0;
        gradient.setColorAt(t, m_tf.colorAt(m_low + t * (m_high - m_low)));
    }
    painter.fillRect(bar, gradient);
    if (m_tf.opacity.empty()) return;
    QPainterPath curve;
    curve.moveTo(QPointF(r.left(), toWidget({m_low, m_tf.opacityAt(m_low)}).y()));
    for (const OpacityPoint& p : m_tf.opacity)
        curve.lineTo(toWidget(p));
    curve.lineTo(QPointF(r.right(), toWidget({m_high, m_tf.opacityAt(m_high)}).y()));
    painter.setPen(QPen(QColor(255, 210, 80), 2));
    painter.drawPath(curve);
    painter.setBrush(QColor(255, 210, 80));
    for (const OpacityPoint& p : m_tf.opacity)
        painter.drawEllipse(toWidget(p), 4, 4);
}

void TransferFunctionEditor::mousePressEvent(QMouseEvent* event) {
    int near = pointNear(event->position());
    if (event->button() == Qt::RightButton) {
        const int last = static_cast<int>(m_tf.opacity.size()) - 1;
        if (near > 0 && near < last) {
            m_tf.opacity.erase(m_tf.opacity.begin() + near);
            update();
            emit transferFunctionChanged(m_tf);
        }
        return;
    }
    if (event->button() != Qt::LeftButton) return;
    if (near < 0) {
        m_tf.opacity.push_back(fromWidget(event->position()));
        m_tf.sort();
        near = pointNear(event->position());
        update();
        emit transferFunctionChanged(m_tf);
    }
    m_dragged = near;
}

void TransferFunctionEditor::mouseMoveEvent(QMouseEvent* event) {
    if (m_dragged < 0 || !(event->buttons() & Qt::LeftButton)) return;
    auto i = static_cast<std::size_t>(m_dragged);
    OpacityPoint p = fromWidget(event->position());
    const std::size_t last = m_tf.opacity.size() - 1;
    if (i == 0 || i == last) {
        p.value = m_tf.opacity[i].value;  // end points move only in opacity
    } else {
        p.value = std::clamp(p.value, m_tf.opacity[i - 1].value, m_tf.opacity[i + 1].value);
    }
    m_tf.opacity[i] = p;
    update();
    emit transferFunctionChanged(m_tf);
}

void TransferFunctionEditor::mouseReleaseEvent(QMouseEvent*) {
    m_dragged = -1;
}

}  // namespace tomo::ui
