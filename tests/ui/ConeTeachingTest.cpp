// Teaching mode, cone beam: the cosine picture is the formula, the projection's stages are
// FDK's weights and filter, the plane built up view by view is the double-precision reference
// FDK of the views back-projected so far (all of them in the last frame), and the panel's frame
// slider, data box and the algorithm box's FDK entry follow.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include <QComboBox>
#include <QSignalSpy>
#include <QSlider>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QTest>

#include "app/jobs/ConePlane.h"
#include "app/jobs/ConeTeachingJob.h"
#include "tests/ui/ConeTestData.h"
#include "tests/ui/UiTestSupport.h"
#include "ui/panels/AlgorithmPanel.h"
#include "ui/teaching/ConeTeachingPanel.h"
#include "ui/views/ImageView.h"

namespace tomo::ui {
namespace {

using test::waitFor;

/// Small built-in data (24^3, 36 views) and its lesson in 6 frames.
struct Lesson {
    std::shared_ptr<const app::ConeDataset> data;
    app::ConeTeachingResult result;
};

Lesson lesson(int plane = -1, int views = 36) {
    const app::Engine engine;
    ExecContext ctx{2, {}, nullptr};
    auto data =
        std::make_shared<const app::ConeDataset>(app::makeTeachingConeData(24, views, ctx).value());
    app::ConeTeachingSpec spec;
    spec.maxFrames = 6;
    spec.plane = plane;
    Result<app::ConeTeachingResult> r = app::runConeTeachingJob(engine, data, spec, ctx);
    EXPECT_TRUE(r.isOk()) << r.status().toString();
    return {data, r.isOk() ? std::move(*r) : app::ConeTeachingResult{}};
}

/// The double-precision reference FDK of plane @p j, views from @p firstZero on set to zero.
Volume referencePlane(const app::ConeDataset& d, int j, int firstZero) {
    Array3<float> views = d.projections->clone();
    for (std::size_t p = static_cast<std::size_t>(firstZero); p < views.dim(0); ++p)
        for (std::size_t r = 0; r < views.dim(1); ++r)
            std::fill(views.row(p, r).begin(), views.row(p, r).end(), 0.0f);
    return referenceFdk(d.geometry, views, app::planeGrid(d.grid, j), FdkOptions{},
                        ExecContext{2, {}, nullptr})
        .value();
}

/// Plane [nz][1][nx] of a reference volume as an image [z][x].
app::SliceImage asImage(const Volume& v) {
    app::SliceImage s;
    s.rows = v.dim(0);
    s.cols = v.dim(2);
    for (std::size_t z = 0; z < s.rows; ++z)
        for (std::size_t x = 0; x < s.cols; ++x)
            s.values.push_back(v(z, 0, x));
    return s;
}

TEST(ConeTeachingJob, TheCosinePictureIsTheFormulaOverTheDetector) {
    const Lesson l = lesson();
    const app::ConeTeachingResult& r = l.result;
    const DetectorGrid& d = l.data->geometry.detector();
    ASSERT_EQ(r.cosine.rows, static_cast<std::size_t>(d.nv));
    ASSERT_EQ(r.cosine.cols, static_cast<std::size_t>(d.nu));
    const double sdd = 1.5 * 2.5 * 24;  // makeTeachingConeData: sid 2.5 n, sdd 1.5 sid
    EXPECT_DOUBLE_EQ(r.sdd, sdd);
    // No offsets: the principal point is the detector's centre (u, v) = (0, 0).
    for (auto [iu, iv] : {std::pair{0, 0}, std::pair{d.nu - 1, d.nv - 1}, std::pair{d.nu / 2, 3},
                          std::pair{5, d.nv / 2}}) {
        const double u = -(d.nu - 1) / 2.0 * d.pitchU + iu * d.pitchU;
        const double v = -(d.nv - 1) / 2.0 * d.pitchV + iv * d.pitchV;
        EXPECT_NEAR(r.cosine.view()(iv, iu), sdd / std::sqrt(sdd * sdd + u * u + v * v), 1e-6)
            << iu << ", " << iv;
    }
    // The wide cone of the built-in data: the corners are weighted well below 1 (0.913).
    const double u = (d.nu - 1) / 2.0 * d.pitchU, v = (d.nv - 1) / 2.0 * d.pitchV;
    EXPECT_NEAR(r.cosineMin, sdd / std::sqrt(sdd * sdd + u * u + v * v), 1e-6);
    EXPECT_LT(r.cosineMin, 0.95);
}

TEST(ConeTeachingJob, TheProjectionStagesAreFdksWeightsAndFilter) {
    const Lesson l = lesson();
    const app::ConeTeachingResult& r = l.result;
    ASSERT_EQ(r.frameEndView, (std::vector<int>{6, 12, 18, 24, 30, 36}));
    ASSERT_EQ(r.raw.size(), 6u);
    // The whole stack through FDK's filter stage in one call.
    Array3<float> filtered = l.data->projections->clone();
    FdkFilter filter = FdkFilter::create(l.data->geometry, FdkOptions{}).value();
    ASSERT_TRUE(filter.apply(0, filtered.rows(), ExecContext{}).isOk());
    for (int k : {0, 3}) {
        const int p = r.frameEndView[static_cast<std::size_t>(k)] - 1;
        const auto& raw = r.raw[static_cast<std::size_t>(k)];
        const auto& weighted = r.weighted[static_cast<std::size_t>(k)];
        const auto& ramp = r.filtered[static_cast<std::size_t>(k)];
        const View2<const float> measured = l.data->projections->plane(static_cast<std::size_t>(p));
        float scale = 0;
        for (std::size_t iv = 0; iv < raw.rows; ++iv)
            for (std::size_t iu = 0; iu < raw.cols; ++iu) {
                ASSERT_EQ(raw.view()(iv, iu), measured(iv, iu));
                const double w =
                    filter.weights().weight(p, static_cast<int>(iu), static_cast<int>(iv));
                EXPECT_NEAR(weighted.view()(iv, iu), measured(iv, iu) * w,
                            1e-6 * std::abs(measured(iv, iu) * w) + 1e-12);
                scale = std::max(scale, std::abs(filtered(static_cast<std::size_t>(p), iv, iu)));
            }
        EXPECT_GT(scale, 0.0f);
        for (std::size_t iv = 0; iv < ramp.rows; ++iv)
            for (std::size_t iu = 0; iu < ramp.cols; ++iu)
                ASSERT_NEAR(ramp.view()(iv, iu), filtered(static_cast<std::size_t>(p), iv, iu),
                            1e-6f * scale);
    }
    // The ramp filter makes negative lobes the measured line integrals never have.
    const auto& last = r.filtered.back().values;
    EXPECT_LT(*std::min_element(last.begin(), last.end()), 0.0f);
}

TEST(ConeTeachingJob, TheLastFrameIsFdksPlaneAndFrameKItsFirstViews) {
    const Lesson l = lesson();
    const app::ConeTeachingResult& r = l.result;
    ASSERT_EQ(r.planes.size(), 6u);
    EXPECT_EQ(r.plane, 12);  // centred 24 planes: y = 0.5 mm is the nearest to 0
    EXPECT_DOUBLE_EQ(r.planeY, 0.5);
    const app::SliceImage full = asImage(referencePlane(*l.data, r.plane, 36));
    ASSERT_EQ(r.planes.back().rows, full.rows);
    ASSERT_EQ(r.planes.back().cols, full.cols);
    EXPECT_LT(test::relativeRmse(r.planes.back().view(), full.view()), 1e-5);
    // Frame 1: views 0-11 alone (the reference with views 12-35 zeroed).
    const app::SliceImage first12 = asImage(referencePlane(*l.data, r.plane, 12));
    EXPECT_LT(test::relativeRmse(r.planes[1].view(), first12.view()), 1e-5);
    // ...which is far from the whole plane: a third of the views, one side of the object.
    EXPECT_GT(test::relativeRmse(r.planes[1].view(), full.view()), 0.3);
    // The truth's plane is the one reconstructed.
    ASSERT_FALSE(r.truth.empty());
    EXPECT_EQ(r.truth.values, app::SliceImage::copyOf(l.data->truth.plane(12)).values);
}

TEST(ConeTeachingJob, AnOffCentrePlaneUsesItsOwnDetectorRows) {
    const Lesson l = lesson(4);
    const app::ConeTeachingResult& r = l.result;
    EXPECT_EQ(r.plane, 4);
    EXPECT_DOUBLE_EQ(r.planeY, -7.5);
    EXPECT_GT(r.firstRow, 0);  // cropped: the plane reaches the lower rows only
    const app::SliceImage part = asImage(referencePlane(*l.data, 4, 18));
    EXPECT_LT(test::relativeRmse(r.planes[2].view(), part.view()), 1e-5);
    app::ConeTeachingSpec bad;
    bad.plane = 24;
    EXPECT_FALSE(app::runConeTeachingJob(app::Engine{}, l.data, bad, ExecContext{}).isOk());
}

std::vector<float> shown(ImageView* view) {
    std::vector<float> out(view->image().rows() * view->image().cols());
    copyDense(view->image(), out.data());
    return out;
}

TEST(ConeTeachingPanel, TheFrameSliderStepsTheProjectionAndThePlane) {
    const app::Engine engine;
    ConeTeachingPanel panel(engine);
    panel.resize(1100, 800);
    panel.show();
    QSignalSpy computed(&panel, &ConeTeachingPanel::computed);
    panel.recompute();
    ASSERT_TRUE(waitFor(computed, 1, 60000));
    const app::ConeTeachingResult* r = panel.result();
    ASSERT_NE(r, nullptr);
    EXPECT_FALSE(panel.usesDataset());
    ASSERT_EQ(panel.frameCount(), 40);  // 120 views in 40 frames of 3
    EXPECT_EQ(panel.frame(), 39);       // the finished plane first
    EXPECT_EQ(shown(panel.planeView()), r->planes.back().values);
    EXPECT_EQ(shown(panel.cosineView()), r->cosine.values);
    EXPECT_TRUE(panel.captions()[0].contains(QStringLiteral("sdd = 240 mm")))
        << panel.captions()[0].toStdString();

    panel.frameSlider()->setValue(9);  // as a drag does
    EXPECT_EQ(panel.frame(), 9);
    EXPECT_EQ(shown(panel.planeView()), r->planes[9].values);
    EXPECT_EQ(shown(panel.rawView()), r->raw[9].values);
    EXPECT_EQ(shown(panel.weightedView()), r->weighted[9].values);
    EXPECT_EQ(shown(panel.filteredView()), r->filtered[9].values);
    EXPECT_NE(r->planes[9].values, r->planes.back().values);
    EXPECT_TRUE(panel.captions()[1].startsWith(QStringLiteral("View 30 of 120 (gantry 87.0")))
        << panel.captions()[1].toStdString();
    EXPECT_TRUE(panel.captions()[4].contains(QStringLiteral("back-projecting 30 of 120")))
        << panel.captions()[4].toStdString();
    EXPECT_TRUE(panel.readout().startsWith(QStringLiteral("Views 1-30 of 120")));
    EXPECT_TRUE(panel.captions()[3].startsWith(QStringLiteral("After the ramp filter")))
        << panel.captions()[3].toStdString();
    for (const QString& c : panel.captions())
        EXPECT_FALSE(c.isEmpty());

    // Playback steps the frames (and wraps at the end).
    panel.setPlaying(true);
    // Until the first step (a frame every 120 ms; the limit is a hang guard, not a speed).
    for (int ms = 0; ms < 10000 && panel.frame() == 9; ms += 10)
        QTest::qWait(10);
    panel.setPlaying(false);
    EXPECT_NE(panel.frame(), 9);
    EXPECT_EQ(shown(panel.planeView()), r->planes[static_cast<std::size_t>(panel.frame())].values);
}

TEST(ConeTeachingPanel, TheSessionsDatasetIsTaughtAndAPlaneChosen) {
    const app::Engine engine;
    ConeTeachingPanel panel(engine);
    auto data = std::make_shared<const app::ConeDataset>(
        app::makeTeachingConeData(16, 12, ExecContext{2, {}, nullptr}).value());
    panel.setDataset(data, QStringLiteral("scan"));
    EXPECT_TRUE(panel.usesDataset());
    panel.setPlane(3);
    QSignalSpy computed(&panel, &ConeTeachingPanel::computed);
    panel.recompute();
    ASSERT_TRUE(waitFor(computed, 1, 60000));
    ASSERT_NE(panel.result(), nullptr);
    EXPECT_EQ(panel.result()->data, data);
    EXPECT_EQ(panel.result()->plane, 3);
    EXPECT_EQ(panel.frameCount(), 12);
    EXPECT_TRUE(panel.captions()[4].contains(QStringLiteral("j = 3")))
        << panel.captions()[4].toStdString();
    // Another filter window recomputes (debounced): the caption names it, the picture changes.
    const std::vector<float> ramp = panel.result()->filtered.back().values;
    panel.setFilter(QStringLiteral("hann"));
    ASSERT_TRUE(waitFor(computed, 2, 60000));
    EXPECT_EQ(panel.result()->filter, "hann");
    EXPECT_TRUE(panel.captions()[3].startsWith(QStringLiteral("After the hann filter")));
    EXPECT_NE(panel.result()->filtered.back().values, ramp);
    // The same dataset again (another datasetChanged) keeps the plane chosen.
    panel.setDataset(data, QStringLiteral("scan"));
    EXPECT_EQ(panel.spec().plane, 3);
    // Closing the dataset goes back to the built-in phantom and its central plane.
    panel.setDataset(nullptr, {});
    EXPECT_FALSE(panel.usesDataset());
    EXPECT_EQ(panel.spec().plane, -1);
    auto* plane = panel.findChild<QSpinBox*>(QStringLiteral("coneTeachingPlane"));
    ASSERT_NE(plane, nullptr);
    EXPECT_EQ(plane->maximum(), 63);
}

TEST(ConeAlgorithmBox, ConeBeamDataSayFdkAndDisableTheIterativeMethods) {
    const app::Engine engine;
    AlgorithmPanel panel(engine.registry());
    auto* box = panel.findChild<QComboBox*>(QStringLiteral("algorithm"));
    ASSERT_NE(box, nullptr);
    ASSERT_TRUE(panel.setAlgorithm("sirt"));
    panel.setConeBeam(true);
    EXPECT_EQ(panel.algorithm(), "fbp");
    EXPECT_EQ(box->currentText(), QStringLiteral("FDK (cone beam)"));
    auto* model = qobject_cast<QStandardItemModel*>(box->model());
    ASSERT_NE(model, nullptr);
    const int sirt = box->findData(QStringLiteral("sirt"));
    ASSERT_GE(sirt, 0);
    EXPECT_FALSE(model->item(sirt)->isEnabled());
    EXPECT_TRUE(box->itemData(sirt, Qt::ToolTipRole).toString().contains(QStringLiteral("FDK")));
    EXPECT_FALSE(panel.setAlgorithm("sirt"));
    EXPECT_FALSE(panel.isIterative());
    panel.setConeBeam(false);
    EXPECT_NE(box->currentText(), QStringLiteral("FDK (cone beam)"));
    EXPECT_TRUE(model->item(sirt)->isEnabled());
    EXPECT_TRUE(panel.setAlgorithm("sirt"));
}

}  // namespace
}  // namespace tomo::ui
