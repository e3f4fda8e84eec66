#pragma once
// Waiting on the GUI session's jobs in workflow tests: a job the test starts (by a click or a
// call) must finish and succeed, and whatever it starts in turn (a reload may start a
// reconstruction) must be over before the test goes on.
#include <gtest/gtest.h>

#include <string>

#include <QAbstractButton>
#include <QSignalSpy>
#include <QTest>

#include "tests/ui/UiTestSupport.h"
#include "tests/ui/UserActions.h"
#include "ui/main/Session.h"

namespace tomo::ui::test {

/// Waits until @p session has no job running (at most 60 s).
inline void settleSession(Session& session) {
    for (int i = 0; i < 600 && session.isBusy(); ++i)
        QTest::qWait(100);
    ASSERT_FALSE(session.isBusy());
}

/// Runs @p start, which starts a job of @p session, and waits for that job and what follows it;
/// the job must succeed (@p what names it in a failure).
template <typename F>
void runAndSettle(Session& session, F start, const std::string& what = {}) {
    QSignalSpy finished(&session, &Session::jobFinished);
    start();
    ASSERT_TRUE(waitFor(finished, 1, 120000)) << what;
    ASSERT_TRUE(finished.at(0).at(1).toBool()) << finished.at(0).at(2).toString().toStdString();
    settleSession(session);
}

/// Clicks @p button and waits for its job and what follows it; the job must succeed.
inline void clickAndSettle(Session& session, QAbstractButton* button) {
    runAndSettle(
        session, [&] { click(button); }, button->objectName().toStdString());
}

}  // namespace tomo::ui::test
