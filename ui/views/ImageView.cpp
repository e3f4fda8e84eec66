#include "ui/views/ImageView.h"

#include <QPainter>

namespace tomo::ui {

ImageView::ImageView(QWidget* parent) : SliceView(parent) {
    setAttribute(Qt::WA_OpaquePaintEvent);
}

void ImageView::contentChanged() {
    m_dirty = true;
    if (!hasImage()) m_rendered = QImage();
    update();
}

double ImageView::zoom() const {
    return m_zoom > 0 ? m_zoom : fitScale();
}

void ImageView::setZoom(double zoom) {
    m_zoom = zoom > 0 ? clampZoom(zoom) : 0.0;
    if (m_zoom == 0.0) m_pan = {0, 0};
    update();
    emit framingChanged();
}

QPointF ImageView::viewCentre() const {
    return widgetToImage(QPointF(0.5 * width(), 0.5 * height()));
}

void ImageView::setFraming(double zoom, QPointF imageCentre) {
    m_zoom = zoom > 0 ? clampZoom(zoom) : 0.0;
    m_pan = {0, 0};
    if (m_zoom > 0) {
        // origin + imageCentre * s = widget centre.
        m_pan = QPointF((0.5 * imageWidth() - imageCentre.x()) * m_zoom,
                        (0.5 * imageHeight() - imageCentre.y()) * m_zoom);
    }
    update();
}

void synchroniseFraming(const QList<ImageView*>& views) {
    for (ImageView* leader : views)
        QObject::connect(leader, &ImageView::framingChanged, leader, [leader, views] {
            for (ImageView* follower : views)
                if (follower != leader)
                    follower->setFraming(leader->fitsWidget() ? 0.0 : leader->zoom(),
                                         leader->viewCentre());
        });
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
    double s = clampZoom(zoom() * factor);
    m_zoom = s;
    // Keep imagePoint under widgetPoint: origin' = widgetPoint - imagePoint * s.
    QPointF newOrigin = widgetPoint - imagePoint * s;
    QPointF centre(0.5 * width(), 0.5 * height());
    m_pan = newOrigin + QPointF(0.5 * s * imageWidth(), 0.5 * s * imageHeight()) - centre;
    update();
    emit framingChanged();
}

void ImageView::panBy(QPointF widgetDelta) {
    if (!hasImage()) return;
    if (m_zoom == 0.0) m_zoom = fitScale();  // panning leaves fit mode
    m_pan += widgetDelta;
    update();
    emit framingChanged();
}

void ImageView::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    painter.fillRect(rect(), backgroundColour());
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

}  // namespace tomo::ui
