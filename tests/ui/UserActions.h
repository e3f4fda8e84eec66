#pragma once
// What a user does with the mouse and the keyboard, sent as QTest events to the real widgets:
// click a button (its dock or tab brought to the front and scrolled into view first, as a user
// would), pick a combo box entry with the arrow keys, type a value into a spin box, press a key
// on a widget. The workflow tests read back label texts and view values from the widgets.
#include <gtest/gtest.h>

#include <QAbstractButton>
#include <QAbstractSpinBox>
#include <QApplication>
#include <QComboBox>
#include <QDockWidget>
#include <QLabel>
#include <QScrollArea>
#include <QStackedWidget>
#include <QTabWidget>
#include <QTest>

namespace tomo::ui::test {

/// The descendant of @p root of type W named @p name, or null (the test fails then).
template <class W>
W* child(const QObject* root, const QString& name) {
    W* found = root->findChild<W*>(name);
    EXPECT_NE(found, nullptr) << "no widget named " << name.toStdString();
    return found;
}

/// Brings what holds @p w to the front: its tab, its dock (tabified docks raised), and scrolls
/// the scroll areas around it so that it is in view.
inline void reveal(QWidget* w) {
    for (QWidget* p = w; p; p = p->parentWidget()) {
        QWidget* parent = p->parentWidget();
        if (parent && qobject_cast<QStackedWidget*>(parent))
            if (auto* tabs = qobject_cast<QTabWidget*>(parent->parentWidget()))
                tabs->setCurrentWidget(p);
        if (auto* dock = qobject_cast<QDockWidget*>(p)) {
            dock->show();
            dock->raise();
        }
    }
    QApplication::processEvents();
    for (QWidget* p = w->parentWidget(); p; p = p->parentWidget())
        if (auto* scroll = qobject_cast<QScrollArea*>(p)) scroll->ensureWidgetVisible(w);
    QApplication::processEvents();
}

/// A left click in the middle of @p button (which must be visible and enabled).
inline void click(QAbstractButton* button) {
    ASSERT_NE(button, nullptr);
    reveal(button);
    EXPECT_TRUE(button->isVisible()) << button->objectName().toStdString() << " is hidden";
    EXPECT_TRUE(button->isEnabled()) << button->objectName().toStdString() << " is disabled";
    QTest::mouseClick(button, Qt::LeftButton, Qt::NoModifier, button->rect().center());
}

/// Selects the entry of @p box whose text starts with @p text by Home and Down arrow keys.
inline void choose(QComboBox* box, const QString& text) {
    ASSERT_NE(box, nullptr);
    reveal(box);
    int target = -1;
    for (int i = 0; i < box->count() && target < 0; ++i)
        if (box->itemText(i).startsWith(text)) target = i;
    ASSERT_GE(target, 0) << "no entry " << text.toStdString();
    QTest::keyClick(box, Qt::Key_Home);
    for (int guard = 0; box->currentIndex() < target && guard < box->count(); ++guard)
        QTest::keyClick(box, Qt::Key_Down);
    EXPECT_EQ(box->currentIndex(), target);
}

/// Selects all text of @p box and types @p text, without Return (a field left pending).
inline void typeOnly(QAbstractSpinBox* box, const QString& text) {
    ASSERT_NE(box, nullptr);
    reveal(box);
    QTest::keyClick(box, Qt::Key_A, Qt::ControlModifier);
    QTest::keyClicks(box, text);
}

/// Selects all text of @p box, types @p text and presses Return.
inline void typeInto(QAbstractSpinBox* box, const QString& text) {
    ASSERT_NE(box, nullptr);
    reveal(box);
    QTest::keyClick(box, Qt::Key_A, Qt::ControlModifier);
    QTest::keyClicks(box, text);
    QTest::keyClick(box, Qt::Key_Return);
}

/// The text of the QLabel named @p name under @p root.
inline QString labelText(const QObject* root, const QString& name) {
    const QLabel* label = child<QLabel>(root, name);
    return label ? label->text() : QString();
}

}  // namespace tomo::ui::test
