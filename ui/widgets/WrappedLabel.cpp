#include "ui/widgets/WrappedLabel.h"

namespace tomo::ui {

WrappedLabel::WrappedLabel(const QString& text, QWidget* parent) : QLabel(text, parent) {
    setWordWrap(true);
    setAlignment(Qt::AlignLeft | Qt::AlignTop);
}

void WrappedLabel::setWrappedText(const QString& text) {
    setText(text);
    fitHeight();
}

void WrappedLabel::fitHeight() {
    const int needed = heightForWidth(width());
    if (width() > 0 && needed > 0 && needed != minimumHeight()) setMinimumHeight(needed);
}

void WrappedLabel::resizeEvent(QResizeEvent* event) {
    QLabel::resizeEvent(event);
    fitHeight();
}

}  // namespace tomo::ui
