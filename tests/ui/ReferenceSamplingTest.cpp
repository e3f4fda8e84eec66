// A tuner's reference image across the sampling steps (issue 28, the tuner's journey retold): a
// sinogram on a detector wider than the object opens at the detector's width (93 px); the tuner
// sets Image size 64 (the phantom's) and presses Apply, then opens the ground truth, 64 x 64.
// The reference is taken for the grid the reconstruction has now, its RMSE shown; "All data"
// (93 px again) leaves the reference kept but unmatched, and 64 typed again with Return (which
// applies, as Apply does) brings its RMSE back.
#include <gtest/gtest.h>

#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>

#include "tests/ui/ScanData.h"
#include "tests/ui/UiTestSupport.h"
#include "tests/ui/UserActions.h"
#include "ui/main/FileActions.h"
#include "ui/views/SliceView.h"

namespace tomo::ui {
namespace {

using test::waitFor;

TEST(ReferenceSampling, AReferenceForTheChosenImageSizeIsTakenAndKeptAcrossSamplingSteps) {
    test::WindowFixture f;
    const int n = 64;
    // 93 detectors: tomo phantom's default for 64 (ceil(64 sqrt 2) + 2, odd).
    const test::TiffScan scan = test::writeTiffScan(f.dir.path().toStdString(), n, 93, 90, 1e4, 3);
    app::LoadRequest request;
    request.path = scan.sino;
    QSignalSpy finished(&f.session, &Session::jobFinished);
    ASSERT_TRUE(f.window->fileActions()->openDataFile(request));
    ASSERT_TRUE(waitFor(finished, 1, 30000));
    // Each Reconstruct and Apply below runs one job.
    int jobs = 1;
    const auto ran = [&](int more) {
        jobs += more;
        return waitFor(finished, jobs, 30000);
    };
    test::click(f.window->runButton());
    ASSERT_TRUE(ran(1));
    SliceView* view = f.window->reconstructionView();
    ASSERT_EQ(view->image().cols(), 93u);

    // Image size 64, Apply: the reconstruction is 64 x 64 and the truth of that size is taken.
    test::typeOnly(test::child<QSpinBox>(f.window.get(), QStringLiteral("imageSize")),
                   QString::number(n));
    test::click(test::child<QPushButton>(f.window.get(), QStringLiteral("applySampling")));
    ASSERT_TRUE(ran(1));
    ASSERT_EQ(view->image().cols(), std::size_t(n));
    const Status opened = f.window->fileActions()->openReference(scan.truthFile);
    ASSERT_TRUE(opened.isOk()) << opened.message();
    test::click(f.window->runButton());
    ASSERT_TRUE(ran(1));
    const auto rmseShown = [&] {
        return test::labelText(f.window.get(), QStringLiteral("rmseValue"));
    };
    const double expected = test::discRmse(view->image(), scan.truth.plane(0), 1e9);
    EXPECT_NEAR(rmseShown().toDouble(), expected, 1e-3 * expected) << rmseShown().toStdString();

    // All data: 93 px, the 64 px reference does not apply; Apply 64 again: it does, unasked.
    test::click(test::child<QPushButton>(f.window.get(), QStringLiteral("resetSampling")));
    ASSERT_TRUE(ran(1));
    ASSERT_EQ(view->image().cols(), 93u);
    EXPECT_EQ(rmseShown().toDouble(), 0.0) << rmseShown().toStdString();
    // Return in the field applies, as Apply does.
    test::typeInto(test::child<QSpinBox>(f.window.get(), QStringLiteral("imageSize")),
                   QString::number(n));
    ASSERT_TRUE(ran(1));
    EXPECT_NEAR(rmseShown().toDouble(), expected, 1e-3 * expected) << rmseShown().toStdString();
}

}  // namespace
}  // namespace tomo::ui
