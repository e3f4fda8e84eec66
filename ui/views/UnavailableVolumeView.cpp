#include "ui/views/UnavailableVolumeView.h"

#include <QPainter>

namespace tomo::ui {

UnavailableVolumeView::UnavailableVolumeView(const QString& reason, QWidget* parent)
    : VolumeView(parent), m_reason(reason) {}

void UnavailableVolumeView::setVolume(std::shared_ptr<const Volume> volume,
                                      bool keepTransferFunction) {
    storeVolume(std::move(volume));
    if (!keepTransferFunction) setPreset(TransferPreset::GreyRamp);
}

QImage UnavailableVolumeView::renderToImage(QSize size) {
    resize(size);
    return grab().toImage();
}

void UnavailableVolumeView::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    painter.fillRect(rect(), QColor(32, 32, 32));
    painter.setPen(QColor(200, 200, 200));
    painter.drawText(rect().adjusted(12, 12, -12, -12), Qt::AlignCenter | Qt::TextWordWrap,
                     m_reason);
}

}  // namespace tomo::ui
