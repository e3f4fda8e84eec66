#include "ui/widgets/WheelGuard.h"

#include <QAbstractScrollArea>
#include <QAbstractSpinBox>
#include <QApplication>
#include <QComboBox>
#include <QEvent>
#include <QSlider>
#include <QWheelEvent>
#include <QWidget>

namespace tomo::ui {

WheelGuard* WheelGuard::install(QWidget* root) {
    return new WheelGuard(root);
}

WheelGuard::WheelGuard(QWidget* root) : QObject(root), m_root(root) {
    // One filter for the panel: widgets polished later (a form rebuilt for another algorithm)
    // are guarded as well. Removed with this object.
    qApp->installEventFilter(this);
    // Controls polished already (a scroll area sizes its form when given it).
    for (QWidget* widget : root->findChildren<QWidget*>())
        if (guards(widget)) strongFocus(widget);
}

void WheelGuard::strongFocus(QWidget* widget) {
    if (widget->focusPolicy() == Qt::WheelFocus) widget->setFocusPolicy(Qt::StrongFocus);
}

bool WheelGuard::guards(const QWidget* widget) const {
    if (!m_root || !widget || !m_root->isAncestorOf(widget)) return false;
    return qobject_cast<const QComboBox*>(widget) ||
           qobject_cast<const QAbstractSpinBox*>(widget) || qobject_cast<const QSlider*>(widget);
}

bool WheelGuard::eventFilter(QObject* watched, QEvent* event) {
    const QEvent::Type type = event->type();
    if (type != QEvent::Wheel && type != QEvent::Polish) return false;
    auto* widget = qobject_cast<QWidget*>(watched);
    if (!guards(widget)) return false;
    if (type == QEvent::Polish) {
        strongFocus(widget);
        return false;
    }
    if (widget->hasFocus()) return false;
    // Not delivered to the control: the scroll area holding it scrolls instead.
    QAbstractScrollArea* area = nullptr;
    for (QWidget* p = widget->parentWidget(); p && !area; p = p->parentWidget())
        area = qobject_cast<QAbstractScrollArea*>(p);
    if (area) {
        const auto* wheel = static_cast<QWheelEvent*>(event);
        const QPointF at = area->viewport()->mapFromGlobal(wheel->globalPosition());
        QWheelEvent scroll(at, wheel->globalPosition(), wheel->pixelDelta(), wheel->angleDelta(),
                           wheel->buttons(), wheel->modifiers(), wheel->phase(), wheel->inverted(),
                           wheel->source(), wheel->pointingDevice());
        QCoreApplication::sendEvent(area->viewport(), &scroll);
    }
    return true;
}

}  // namespace tomo::ui
