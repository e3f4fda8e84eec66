#pragma once
/// @file WrappedLabel.h
/// @brief A word-wrapped label for lessons in a scroll area: a long text ("SIRT: RMSE 0.0626,
/// stopped at 65 of 100 (noise level)") wraps instead of widening the window, and the label
/// keeps its minimum height at its wrapped text's height for its width, reporting no height
/// for width. (A plain wrapped QLabel makes the scroll area lay the whole lesson out at its
/// height for width, which follows the pictures' size hints: a lesson taller than the window
/// at 1280 x 720, or the captions drawn over the pictures.)
///
/// Threading: GUI thread only.

#include <QLabel>

namespace tomo::ui {

class WrappedLabel : public QLabel {
    Q_OBJECT

  public:
    explicit WrappedLabel(const QString& text = QString(), QWidget* parent = nullptr);
    bool hasHeightForWidth() const override { return false; }
    /// Sets the text and the height it needs at the label's width.
    void setWrappedText(const QString& text);
    /// Sets the minimum height to the wrapped text's height at the label's width.
    void fitHeight();

  protected:
    void resizeEvent(QResizeEvent* event) override;
};

}  // namespace tomo::ui
