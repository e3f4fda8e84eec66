// What the reconstruction sees of a dataset (app/jobs/DatasetSampling.h) and the Parameters
// dock's Region and sampling box: a region of interest is, pixel for pixel, the matching part
// of the full FBP image (parallel beam: every projection sees the whole object); an angle step
// keeps exactly the chosen projections; bad choices are refused with a message and change
// nothing; "All data" goes back.
#include <gtest/gtest.h>

#include <cmath>

#include <QDoubleSpinBox>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTest>

#include "app/jobs/DatasetSampling.h"
#include "tests/ui/UiTestSupport.h"
#include "ui/views/SliceView.h"
#include "ui/widgets/SamplingBox.h"

namespace tomo::ui::test {
namespace {

app::Dataset demo(int n) {
    auto data = app::makeDemoDataset(app::demoSpecForSize(n), ExecContext{});
    EXPECT_TRUE(data.isOk()) << data.status().toString();
    return std::move(*data);
}

TEST(DatasetSampling, AnAngleStepKeepsThoseProjectionsAndTheirAngles) {
    const app::Dataset full = demo(32);
    app::Sampling s;
    s.angleStep = 3;
    auto sampled = app::sampledDataset(full, s);
    ASSERT_TRUE(sampled.isOk()) << sampled.status().toString();
    const std::size_t angles = full.sinograms.dim(1);
    ASSERT_EQ(sampled->sinograms.dim(1), (angles + 2) / 3);
    for (std::size_t k = 0; k < sampled->sinograms.dim(1); ++k) {
        EXPECT_EQ(sampled->geometry.angles()[k], full.geometry.angles()[3 * k]);
        for (std::size_t d = 0; d < full.sinograms.dim(2); ++d)
            ASSERT_EQ(sampled->sinograms(0, k, d), full.sinograms(0, 3 * k, d));
    }
    EXPECT_EQ(sampled->truth.dims(), full.truth.dims());  // same grid: the truth still applies
    EXPECT_NE(sampled->sampling.find("step 3"), std::string::npos) << sampled->sampling;

    s.angleStep = static_cast<int>(angles);  // one projection left
    auto refused = app::sampledDataset(full, s);
    EXPECT_FALSE(refused.isOk());
    EXPECT_NE(refused.status().message().find("at least 8"), std::string::npos);
    s = {};
    s.grid.centerX = 1e4;  // outside the field of view
    refused = app::sampledDataset(full, s);
    EXPECT_NE(refused.status().message().find("field of view"), std::string::npos)
        << refused.status().toString();
}

TEST(DatasetSampling, ARegionOfInterestIsTheMatchingPartOfTheFullImage) {
    const auto full = std::make_shared<const app::Dataset>(demo(64));
    const app::Engine engine;
    const app::ReconService service(engine);
    auto whole = app::reconstructDataset(service, full, FbpOptions{}, "cpu.simd.lin", {});
    ASSERT_TRUE(whole.isOk()) << whole.status().toString();
    // 16 px at (8, -4) from the axis: its pixel j is pixel 8 + 24 + j of the 64 px image in x,
    // and 24 + 4 + j in y (y up, rows down).
    app::Sampling s;
    s.grid.size = 16;
    s.grid.centerX = 8 * full->grid.voxelSize;
    s.grid.centerY = -4 * full->grid.voxelSize;
    auto region = app::sampledDataset(*full, s);
    ASSERT_TRUE(region.isOk()) << region.status().toString();
    EXPECT_TRUE(region->truth.empty());  // another grid: the truth does not apply
    const auto roi = std::make_shared<const app::Dataset>(std::move(*region));
    auto part = app::reconstructDataset(service, roi, FbpOptions{}, "cpu.simd.lin", {});
    ASSERT_TRUE(part.isOk()) << part.status().toString();
    ASSERT_EQ(part->image.dim(1), 16u);
    double worst = 0, peak = 0;
    for (std::size_t y = 0; y < 16; ++y)
        for (std::size_t x = 0; x < 16; ++x) {
            const float expected = whole->image(0, 28 + y, 32 + x);
            worst = std::max(worst, static_cast<double>(std::fabs(part->image(0, y, x) - expected)));
            peak = std::max(peak, static_cast<double>(std::fabs(expected)));
        }
    EXPECT_GT(peak, 0.1);
    EXPECT_LT(worst, 1e-5 * peak) << "worst " << worst;
    EXPECT_NE(part->provenance["sampling"].find("centre (8, -4)"), std::string::npos)
        << part->provenance["sampling"];
}

TEST(SamplingBox, ApplyReconstructsTheRegionAndAllDataGoesBack) {
    WindowFixture f;
    ASSERT_TRUE(f.startDemo(64));
    const Volume full = f.session.reconstruction()->image.clone();
    SamplingBox& box = *f.window->samplingBox();
    box.findChild<QSpinBox*>(QStringLiteral("imageSize"))->setValue(16);
    box.findChild<QDoubleSpinBox*>(QStringLiteral("regionCenterX"))->setValue(8);
    box.findChild<QDoubleSpinBox*>(QStringLiteral("regionCenterY"))->setValue(-4);
    QSignalSpy finished(&f.session, &Session::jobFinished);
    QTest::mouseClick(box.findChild<QPushButton*>(QStringLiteral("applySampling")),
                      Qt::LeftButton);
    ASSERT_TRUE(waitFor(finished, 1, 30000));
    ASSERT_TRUE(finished.at(0).at(1).toBool());
    const Volume& part = f.session.reconstruction()->image;
    ASSERT_EQ(part.dim(2), 16u);
    EXPECT_NEAR(part(0, 3, 5), full(0, 28 + 3, 32 + 5), 1e-4);
    const QString state = box.findChild<QLabel*>(QStringLiteral("samplingState"))->text();
    EXPECT_TRUE(state.contains(QStringLiteral("16 x 16 px"))) << state.toStdString();
    EXPECT_FALSE(f.window->truthView()->isVisible());  // no truth on this grid

    // A centre outside the field of view: refused, said, nothing changes.
    box.findChild<QDoubleSpinBox*>(QStringLiteral("regionCenterX"))->setValue(5000);
    EXPECT_FALSE(box.apply().isOk());
    EXPECT_TRUE(box.findChild<QLabel*>(QStringLiteral("samplingState"))
                    ->text()
                    .startsWith(QStringLiteral("Not applied")));
    EXPECT_EQ(f.session.dataset()->grid.nx, 16);

    // All data: the loaded grid, all angles, the truth again.
    QTest::mouseClick(box.findChild<QPushButton*>(QStringLiteral("resetSampling")),
                      Qt::LeftButton);
    ASSERT_TRUE(waitFor(finished, 2, 30000));
    EXPECT_EQ(f.session.reconstruction()->image.dims(), full.dims());
    EXPECT_TRUE(f.session.dataset()->sampling.empty());
    EXPECT_FALSE(f.session.dataset()->truth.empty());
}

}  // namespace
}  // namespace tomo::ui::test
