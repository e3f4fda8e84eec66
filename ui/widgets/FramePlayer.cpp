#include "ui/widgets/FramePlayer.h"

#include <algorithm>

#include <QHBoxLayout>
#include <QPushButton>
#include <QShortcut>
#include <QSlider>
#include <QTimer>

namespace tomo::ui {

FramePlayer::FramePlayer(int intervalMs, QWidget* parent) : QWidget(parent) {
    m_play = new QPushButton(tr("Play"), this);
    m_play->setToolTip(tr("Play or pause the animation (Space)"));
    m_slider = new QSlider(Qt::Horizontal, this);
    m_slider->setToolTip(tr("Frame: drag; Left/Right one frame, PageUp/PageDown ten"));
    m_timer = new QTimer(this);
    m_timer->setInterval(intervalMs);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_play);
    layout->addWidget(m_slider, 1);
    connect(m_timer, &QTimer::timeout, this,
            [this] { showFrame(m_frame + 1 >= m_count ? 0 : m_frame + 1); });
    connect(m_play, &QPushButton::clicked, this, [this] { setPlaying(!isPlaying()); });
    connect(m_slider, &QSlider::valueChanged, this, &FramePlayer::showFrame);
    setFrames(0, 0);
}

void FramePlayer::bindSpace(QWidget* host) {
    auto* space = new QShortcut(QKeySequence(Qt::Key_Space), host);
    space->setContext(Qt::WidgetWithChildrenShortcut);
    connect(space, &QShortcut::activated, this, [this] { setPlaying(!isPlaying()); });
}

void FramePlayer::setFrames(int count, int frame) {
    m_count = std::max(0, count);
    {
        const QSignalBlocker block(m_slider);
        m_slider->setRange(0, std::max(0, m_count - 1));
    }
    m_slider->setEnabled(m_count > 1);
    m_play->setEnabled(m_count > 1);
    if (m_count == 0) {
        setPlaying(false);
        return;
    }
    showFrame(frame);
}

void FramePlayer::showFrame(int frame) {
    if (m_count == 0) return;
    m_frame = std::clamp(frame, 0, m_count - 1);
    {
        const QSignalBlocker block(m_slider);
        m_slider->setValue(m_frame);
    }
    emit frameChanged(m_frame);
}

bool FramePlayer::isPlaying() const {
    return m_timer->isActive();
}

void FramePlayer::setPlaying(bool on) {
    if (on && m_count > 1)
        m_timer->start();
    else
        m_timer->stop();
    m_play->setText(isPlaying() ? tr("Pause") : tr("Play"));
}

}  // namespace tomo::ui
