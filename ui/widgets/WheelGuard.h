#pragma once
/// @file WheelGuard.h
/// @brief The mouse wheel over a value control (combo box, spin box, slider) of a scrolling
/// panel scrolls the panel unless that control has keyboard focus: rows move under the pointer
/// while the user scrolls, and a value must not change because one passed under it. The usual
/// Qt fix, applied once for a whole panel (widgets a form rebuilds later included): the panel's
/// value controls get Qt::StrongFocus (at once, and those made later when polished), so a wheel
/// no longer gives them focus, and a wheel event reaching one without focus goes to the scroll
/// area holding it instead. Click or Tab into a control, and the wheel steps its value again.
///
/// Threading: GUI thread only.

#include <QObject>
#include <QPointer>

class QWidget;

namespace tomo::ui {

class WheelGuard : public QObject {
    Q_OBJECT

  public:
    /// Guards the value controls under @p root (owned by it; watches the application's events
    /// and acts only on @p root's descendants).
    static WheelGuard* install(QWidget* root);

  protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

  private:
    explicit WheelGuard(QWidget* root);
    /// A combo box, spin box or slider under the root.
    bool guards(const QWidget* widget) const;
    /// A wheel no longer gives @p widget focus (click and Tab still do).
    static void strongFocus(QWidget* widget);

    QPointer<QWidget> m_root;
};

}  // namespace tomo::ui
