// The mouse wheel over a parameter control scrolls the Parameters dock unless the control has
// keyboard focus (ui/widgets/WheelGuard.h): an unfocused combo box or spin box keeps its value
// and the dock scrolls; with focus (clicked or tabbed into), the wheel steps the value. Controls
// of a form rebuilt for another algorithm are guarded too.
#include <gtest/gtest.h>

#include <QtTest/qtestspontaneevent.h>
#include <QApplication>
#include <QComboBox>
#include <QScrollArea>
#include <QScrollBar>
#include <QSpinBox>
#include <QWheelEvent>

#include "tests/ui/UiTestSupport.h"
#include "tests/ui/UserActions.h"
#include "ui/panels/AlgorithmPanel.h"
#include "ui/views/SliceView.h"

namespace tomo::ui {
namespace {

/// One notch of the wheel (@p delta 120: up, -120: down) over the centre of @p w, delivered as
/// the window system's are (spontaneous: Qt gives a control with Qt::WheelFocus the focus).
void wheel(QWidget* w, int delta) {
    const QPointF centre(w->width() / 2.0, w->height() / 2.0);
    QWheelEvent event(centre, w->mapToGlobal(centre), QPoint(), QPoint(0, delta), Qt::NoButton,
                      Qt::NoModifier, Qt::NoScrollPhase, false);
    QSpontaneKeyEvent::setSpontaneous(&event);
    QApplication::sendEvent(w, &event);
}

QScrollArea* scrollAreaOf(QWidget* w) {
    for (QWidget* p = w->parentWidget(); p; p = p->parentWidget())
        if (auto* area = qobject_cast<QScrollArea*>(p)) return area;
    return nullptr;
}

TEST(WheelGuard, AnUnfocusedControlKeepsItsValueAndTheDockScrolls) {
    test::WindowFixture f;
    f.window->resize(1100, 480);  // the MBIR form overflows the dock
    ASSERT_TRUE(f.startDemo(64));
    auto* algorithm = test::child<QComboBox>(f.window.get(), QStringLiteral("algorithm"));
    test::choose(algorithm, QStringLiteral("MBIR"));  // a form built after the guard
    QApplication::processEvents();
    QScrollArea* scroll = scrollAreaOf(algorithm);
    ASSERT_NE(scroll, nullptr);
    QScrollBar* bar = scroll->verticalScrollBar();
    ASSERT_GT(bar->maximum(), 0);
    f.window->reconstructionView()->setFocus();

    EXPECT_EQ(algorithm->focusPolicy(), Qt::StrongFocus);  // a wheel gives it no focus
    const int index = algorithm->currentIndex();           // MBIR, the last: the wheel goes up
    ASSERT_GT(index, 0);
    bar->setValue(bar->maximum());
    wheel(algorithm, 120);
    EXPECT_EQ(algorithm->currentIndex(), index);
    EXPECT_FALSE(algorithm->hasFocus());
    EXPECT_LT(bar->value(), bar->maximum());  // the wheel scrolled the dock

    // A spin box of the MBIR form (built after the guard), in view, below its maximum.
    QSpinBox* spin = nullptr;
    for (auto* box : f.window->algorithmPanel()->findChildren<QSpinBox*>())
        if (box->isVisible() && box->value() < box->maximum()) spin = box;
    ASSERT_NE(spin, nullptr);
    scroll->ensureWidgetVisible(spin);
    EXPECT_EQ(spin->focusPolicy(), Qt::StrongFocus);
    const int value = spin->value();
    wheel(spin, 120);
    EXPECT_EQ(spin->value(), value) << spin->objectName().toStdString();
    EXPECT_FALSE(spin->hasFocus());

    // With keyboard focus the wheel steps the value, as everywhere else.
    f.window->activateWindow();
    QApplication::setActiveWindow(f.window.get());
    spin->setFocus();
    ASSERT_TRUE(spin->hasFocus());
    wheel(spin, 120);
    EXPECT_GT(spin->value(), value) << spin->objectName().toStdString();
}

}  // namespace
}  // namespace tomo::ui
