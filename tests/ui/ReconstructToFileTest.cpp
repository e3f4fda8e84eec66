// Reconstruct to file (issue 28, point 14: the GUI refused a job too big for the machine but could
// not stream it to a file as `tomo recon ... -o result.h5` does). Reconstruction > Reconstruct to
// file runs the Parameters dock's FBP through the same front door with the output streamed a slab
// at a time: the file holds what Reconstruct shows, the result held in the window stays, the
// status bar says what was written, and Cancel stops it like any job.
#include <gtest/gtest.h>

#include <QAction>
#include <QMenu>
#include <QMenuBar>
#include <QSignalSpy>

#include "app/data/DataFormats.h"
#include "tests/ui/UiTestSupport.h"
#include "tests/ui/UserActions.h"

namespace tomo::ui {
namespace {

using test::waitFor;

TEST(ReconstructToFile, StreamsWhatReconstructShowsAndKeepsTheResultHeld) {
    test::WindowFixture f;
    // Large enough (about 1e9 updates a run) that the cancelled run below cannot end before its
    // cancel arrives, even on a loaded machine (12 slices of 48^2 once did: a flaky test).
    f.session.setDataset(test::demoStack(256, 48), QStringLiteral("48 slices"));
    QApplication::processEvents();
    QSignalSpy finished(&f.session, &Session::jobFinished);
    f.window->reconstruct();  // Reconstruct (the button, Ctrl+R)
    ASSERT_TRUE(waitFor(finished, 1, 30000));
    const auto held = f.session.reconstruction();
    ASSERT_NE(held, nullptr);

    // The menu entry is there, under Reconstruction.
    bool listed = false;
    for (QAction* top : f.window->menuBar()->actions())
        if (top->menu())
            for (QAction* a : top->menu()->actions())
                listed = listed || a->text().remove('&').startsWith("Reconstruct to file");
    EXPECT_TRUE(listed);

    const std::filesystem::path file =
        std::filesystem::path(f.dir.path().toStdString()) / "streamed.tif";
    ASSERT_TRUE(f.window->reconstructToFile(file));
    EXPECT_TRUE(f.session.isBusy());
    ASSERT_TRUE(waitFor(finished, 2, 60000));
    ASSERT_TRUE(finished.at(1).at(1).toBool()) << finished.at(1).at(2).toString().toStdString();
    const QString status = test::labelText(f.window.get(), QStringLiteral("statusLabel"));
    EXPECT_TRUE(status.startsWith(QStringLiteral("Wrote 48 slice(s) of 256 x 256 to")))
        << status.toStdString();
    EXPECT_EQ(f.session.reconstruction(), held);  // the result shown stays

    FormatRegistry formats = app::makeFormatRegistry().value();
    auto back = formats.readVolume(file, {});
    ASSERT_TRUE(back.isOk()) << back.status().message();
    ASSERT_EQ(back->dims(), held->image.dims());
    float worst = 0, peak = 0;
    for (std::size_t z = 0; z < back->dim(0); ++z)
        for (std::size_t y = 0; y < back->dim(1); ++y)
            for (std::size_t x = 0; x < back->dim(2); ++x) {
                worst = std::max(worst, std::abs((*back)(z, y, x) - held->image(z, y, x)));
                peak = std::max(peak, std::abs(held->image(z, y, x)));
            }
    EXPECT_LE(worst, 1e-6f * peak);

    // Cancel at once: the job stops as any other, and the held result still stays.
    ASSERT_TRUE(f.window->reconstructToFile(std::filesystem::path(f.dir.path().toStdString()) /
                                            "cancelled.tif"));
    f.session.cancel();
    ASSERT_TRUE(waitFor(finished, 3, 30000));
    EXPECT_FALSE(finished.at(2).at(1).toBool());
    EXPECT_TRUE(finished.at(2).at(2).toString().endsWith(QStringLiteral("cancelled")))
        << finished.at(2).at(2).toString().toStdString();
    EXPECT_EQ(f.session.reconstruction(), held);
}

}  // namespace
}  // namespace tomo::ui
