// The lessons at the main window's sizes (issue 28, point 8), as a user sees them: the Teaching
// tab in front, the parallel-beam lesson with noise turned up by the keyboard (its labels grow:
// "stopped at 23 of 100 (noise level)"), every pane and label inside the visible width with no
// horizontal scrollbar; in the cone-beam lesson each caption is shown whole and lies clear of
// every picture.
#include <gtest/gtest.h>

#include <QLabel>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalSpy>
#include <QSlider>
#include <QTest>

#include "tests/ui/UiTestSupport.h"
#include "tests/ui/UserActions.h"
#include "ui/main/MainWindow.h"
#include "ui/teaching/ConeTeachingPanel.h"
#include "ui/teaching/TeachingPanel.h"
#include "ui/views/ImageView.h"

namespace tomo::ui {
namespace {

/// The scroll area that holds @p lesson in the Teaching tab.
QScrollArea* scrollOf(QWidget* lesson) {
    for (QWidget* p = lesson->parentWidget(); p; p = p->parentWidget())
        if (auto* scroll = qobject_cast<QScrollArea*>(p)) return scroll;
    return nullptr;
}

/// Whether @p w lies horizontally inside @p scroll's viewport.
bool insideWidth(const QWidget* w, const QScrollArea* scroll) {
    const QWidget* viewport = scroll->viewport();
    const QPoint left = w->mapTo(viewport, QPoint(0, 0));
    return left.x() >= 0 && left.x() + w->width() <= viewport->width();
}

class TeachingLayout : public ::testing::TestWithParam<QSize> {};

TEST_P(TeachingLayout, WithNoiseOnEveryPaneFitsTheWidth) {
    test::WindowFixture f;
    f.window->resize(GetParam());
    f.window->showPanel(QStringLiteral("teaching"));
    TeachingPanel* lesson = f.window->teachingPanel();
    QSignalSpy computed(lesson, &TeachingPanel::computed);
    auto* noise = test::child<QSlider>(lesson, QStringLiteral("teachingNoise"));
    ASSERT_NE(noise, nullptr);
    test::reveal(noise);
    QTest::keyClick(noise, Qt::Key_End);  // the strongest noise
    ASSERT_TRUE(test::waitFor(computed, 1, 60000));
    QApplication::processEvents();
    QScrollArea* scroll = scrollOf(lesson);
    ASSERT_NE(scroll, nullptr);
    EXPECT_FALSE(scroll->horizontalScrollBar()->isVisible())
        << "lesson " << lesson->width() << " px in a viewport of " << scroll->viewport()->width();
    for (const QLabel* label : lesson->findChildren<QLabel*>()) {
        if (!label->isVisible()) continue;
        EXPECT_TRUE(insideWidth(label, scroll)) << label->text().toStdString();
    }
    for (const QWidget* w : lesson->findChildren<QWidget*>(QString(), Qt::FindDirectChildrenOnly)) {
        if (w->isVisible()) {
            EXPECT_TRUE(insideWidth(w, scroll)) << w->metaObject()->className();
        }
    }
}

TEST_P(TeachingLayout, ConeBeamCaptionsLieBelowTheirPicturesNotOverThem) {
    test::WindowFixture f;
    f.window->resize(GetParam());
    ConeTeachingPanel* lesson = f.window->coneTeachingPanel();
    QSignalSpy computed(lesson, &ConeTeachingPanel::computed);
    f.window->showPanel(QStringLiteral("teaching-cone"));
    lesson->recompute();
    ASSERT_TRUE(test::waitFor(computed, 1, 60000));
    QTest::qWait(100);  // the layout settles (posted layout requests)
    QScrollArea* scroll = scrollOf(lesson);
    ASSERT_NE(scroll, nullptr);
    EXPECT_FALSE(scroll->horizontalScrollBar()->isVisible());
    const auto inLesson = [lesson](const QWidget* w) {
        return QRect(w->mapTo(lesson, QPoint(0, 0)), w->size());
    };
    const QList<ImageView*> pictures = lesson->findChildren<ImageView*>();
    ASSERT_EQ(pictures.size(), 6);
    int captions = 0;
    for (const QLabel* label : lesson->findChildren<QLabel*>()) {
        if (!lesson->captions().contains(label->text())) continue;
        ++captions;
        EXPECT_GE(label->height(), label->heightForWidth(label->width()))
            << "caption cut off: " << label->text().toStdString();
        for (const ImageView* picture : pictures)
            EXPECT_FALSE(inLesson(label).intersects(inLesson(picture)))
                << label->text().toStdString();
    }
    EXPECT_EQ(captions, 6);
}

INSTANTIATE_TEST_SUITE_P(WindowSizes, TeachingLayout,
                         ::testing::Values(QSize(1507, 800), QSize(1280, 720)));

}  // namespace
}  // namespace tomo::ui
