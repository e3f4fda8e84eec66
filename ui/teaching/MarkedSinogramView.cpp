#include "ui/teaching/MarkedSinogramView.h"

#include <QPainter>

#include "ui/views/ColorMap.h"

namespace tomo::ui {

MarkedSinogramView::MarkedSinogramView(QWidget* parent) : QWidget(parent) {
    setMinimumSize(120, 120);
}

void MarkedSinogramView::setSinogram(const app::SliceImage& sinogram) {
    m_rows = static_cast<int>(sinogram.rows);
    m_image = renderImage(sinogram.view(), percentileWindow(sinogram.values), ColorMap::Grey);
    update();
}

void MarkedSinogramView::setMarker(int endAngle) {
    m_marker = endAngle;
    update();
}

void MarkedSinogramView::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.fillRect(rect(), palette().window());
    if (m_image.isNull()) return;
    QRect target = rect().adjusted(2, 2, -2, -2);
    p.drawImage(target, m_image);
    if (m_rows <= 0 || m_marker <= 0) return;
    const double rowHeight = static_cast<double>(target.height()) / m_rows;
    QRectF done(target.left(), target.top(), target.width(), rowHeight * m_marker);
    p.fillRect(done, QColor(255, 200, 0, 50));
    const double y = target.top() + rowHeight * (m_marker - 0.5);
    p.setPen(QPen(Qt::red, 2));
    p.drawLine(QPointF(target.left(), y), QPointF(target.right(), y));
}

}  // namespace tomo::ui
