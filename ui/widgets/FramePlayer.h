#pragma once
/// @file FramePlayer.h
/// @brief The one frame player of the GUI (both lessons of Teaching): a Play/Pause button and a
/// frame slider, a timer that steps the frames in a loop, and Space on the lesson toggling
/// playback. frameChanged() is emitted for every frame shown (played, dragged, set), once.
///
/// Threading: GUI thread only.

#include <QWidget>

class QPushButton;
class QSlider;
class QTimer;

namespace tomo::ui {

class FramePlayer : public QWidget {
    Q_OBJECT

  public:
    /// @p intervalMs between frames while playing.
    explicit FramePlayer(int intervalMs, QWidget* parent = nullptr);

    /// Space on @p host (and its children) plays or pauses.
    void bindSpace(QWidget* host);
    /// @p count frames (0: none, playback stops); shows @p frame (clamped).
    void setFrames(int count, int frame);
    int frameCount() const { return m_count; }
    int frame() const { return m_frame; }
    /// Shows @p frame (clamped): frameChanged follows.
    void showFrame(int frame);
    bool isPlaying() const;
    /// Starts (with frames) or stops playback; the button says what a click does.
    void setPlaying(bool on);

    QSlider* slider() const { return m_slider; }
    QPushButton* playButton() const { return m_play; }

  signals:
    void frameChanged(int frame);

  private:
    QPushButton* m_play = nullptr;
    QSlider* m_slider = nullptr;
    QTimer* m_timer = nullptr;
    int m_count = 0;
    int m_frame = 0;
};

}  // namespace tomo::ui
