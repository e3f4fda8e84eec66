// A window on a beamline scan, as the workflow tests open it: the DXchange scan of ScanData.h
// opened as `tomostation scan.h5` does (read, then reconstructed), the phantom opened as the
// reference image; clicks that wait for their jobs, the dataset header, the shown error.
#pragma once

#include <QAbstractButton>
#include <QLabel>
#include <QSignalSpy>

#include "core/io/ImageIO.h"
#include "tests/ui/ScanData.h"
#include "tests/ui/UiTestSupport.h"
#include "tests/ui/UserActions.h"
#include "ui/main/FileActions.h"
#include "ui/views/SliceView.h"

namespace tomo::ui::test {

/// A window on a beamline scan (opened as `tomostation scan.h5` does, then reconstructed) with
/// the phantom opened as its reference image.
struct BeamlineFixture : test::WindowFixture {
    Scan scan;
    explicit BeamlineFixture(const ScanSpec& spec = {.stripeGain = 0.04}) {
        const std::filesystem::path file = dir.filePath(QStringLiteral("scan.h5")).toStdString();
        scan = writeBeamlineScan(file, spec);
        QSignalSpy finished(&session, &Session::jobFinished);
        EXPECT_TRUE(window->openAndReconstruct(file));
        EXPECT_TRUE(waitFor(finished, 2, 30000));
        const std::filesystem::path truth = dir.filePath(QStringLiteral("truth.tif")).toStdString();
        EXPECT_TRUE(writeVolume(truth, scan.truth).isOk());
        EXPECT_TRUE(window->fileActions()->openReference(truth).isOk());
    }
    /// Clicks @p button and waits for @p jobs jobs to finish, each successfully.
    void clickAndWait(QAbstractButton* button, int jobs) {
        QSignalSpy finished(&session, &Session::jobFinished);
        click(button);
        ASSERT_TRUE(waitFor(finished, jobs, 60000)) << button->objectName().toStdString();
        for (const QList<QVariant>& job : finished)
            ASSERT_TRUE(job.at(1).toBool()) << job.at(2).toString().toStdString();
    }
    QString header() const { return window->datasetLabel()->text(); }
    /// RMSE of the shown reconstruction (slice 1) against the truth inside the phantom's disc.
    double shownError() const {
        const SliceView* view = window->reconstructionView();
        return discRmse(view->image(), scan.truth.plane(0), 48.0);
    }
};

}  // namespace tomo::ui::test
