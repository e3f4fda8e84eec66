// Confirmations as a user meets them (issue 28, point 11), with the window's questions on and
// answered by clicking the message box's buttons: Apply to dataset asks before superseding a
// result and reconstructs (and does nothing for the centre it already has), quitting with an
// unsaved result asks, and opening other data right after a save does not.
#include <gtest/gtest.h>

#include <QAbstractButton>
#include <QDoubleSpinBox>
#include <QMessageBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QTimer>

#include "tests/ui/UiTestSupport.h"
#include "tests/ui/UserActions.h"
#include "ui/main/FileActions.h"
#include "ui/panels/CenterPanel.h"

namespace tomo::ui {
namespace {

using test::waitFor;

/// Answers the next message box: records its text and clicks @p button ("&Yes", "&No").
struct Answerer {
    QStringList asked;
    void answerNext(const QString& button) {
        QTimer::singleShot(50, [this, button] {
            auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
            if (!box) return answerNext(button);  // not shown yet
            asked << box->text();
            for (QAbstractButton* b : box->buttons())
                if (b->text().remove(QLatin1Char('&')) == QString(button).remove(QLatin1Char('&')))
                    QTest::mouseClick(b, Qt::LeftButton);
        });
    }
};

struct Fixture : test::WindowFixture {
    Answerer answers;
    Fixture() {
        EXPECT_TRUE(startDemo(64));
        window->setConfirmations(true);
    }
    CenterPanel* center() const { return window->centerPanel(); }
    void setCentre(double value) {
        test::typeInto(test::child<QDoubleSpinBox>(center(), QStringLiteral("centerSpin")),
                       QString::number(value, 'f', 2));
    }
    QPushButton* applyButton() const {
        return test::child<QPushButton>(center(), QStringLiteral("applyCenter"));
    }
};

TEST(Confirmations, ApplyToDatasetAsksThenReconstructsAndIgnoresTheSameCentre) {
    Fixture f;
    const double centre = f.session.dataset()->geometry.centerOfRotation();
    auto first = f.session.reconstruction();

    // The same centre: nothing is asked, dropped or run.
    test::click(f.applyButton());
    EXPECT_FALSE(f.session.isBusy());
    EXPECT_EQ(f.session.reconstruction(), first);
    EXPECT_TRUE(f.answers.asked.isEmpty());

    // Another centre, answered No: nothing changes.
    f.setCentre(centre + 1.0);
    f.answers.answerNext(QStringLiteral("No"));
    test::click(f.applyButton());
    ASSERT_EQ(f.answers.asked.size(), 1);
    EXPECT_TRUE(f.answers.asked[0].contains(QStringLiteral("reconstruct again")))
        << f.answers.asked[0].toStdString();
    EXPECT_DOUBLE_EQ(f.session.dataset()->geometry.centerOfRotation(), centre);
    EXPECT_EQ(f.session.reconstruction(), first);

    // Yes: set and reconstructed at once; the first result stays to compare.
    QSignalSpy finished(&f.session, &Session::jobFinished);
    f.answers.answerNext(QStringLiteral("Yes"));
    test::click(f.applyButton());
    ASSERT_TRUE(waitFor(finished, 1, 30000));
    EXPECT_DOUBLE_EQ(f.session.dataset()->geometry.centerOfRotation(), centre + 1.0);
    EXPECT_NE(f.session.reconstruction(), first);
    EXPECT_TRUE(f.session.resultIsCurrent());
}

TEST(Confirmations, QuittingWithAnUnsavedResultAsksAndASaveStopsTheQuestions) {
    Fixture f;
    f.answers.answerNext(QStringLiteral("No"));
    EXPECT_FALSE(f.window->close());  // File > Quit
    ASSERT_EQ(f.answers.asked.size(), 1);
    EXPECT_TRUE(f.answers.asked[0].contains(QStringLiteral("not been saved")));
    EXPECT_TRUE(f.window->isVisible());

    // Saved: neither opening other data nor quitting asks any more.
    const std::filesystem::path out = f.dir.filePath(QStringLiteral("recon.tif")).toStdString();
    ASSERT_TRUE(f.window->fileActions()->saveReconstruction(out).isOk());
    EXPECT_TRUE(f.window->fileActions()->confirmReplace());
    EXPECT_TRUE(f.window->close());
    EXPECT_EQ(f.answers.asked.size(), 1);
}

}  // namespace
}  // namespace tomo::ui
