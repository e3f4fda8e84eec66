// A sinogram stack (line integrals, a raw file) through the GUI's front door: File > Open, the
// Preprocessing tab, Reconstruct. Zinger removal leaves the clean demo's FBP error as it was
// and takes injected zingers (dark spikes of the line integrals, seeded) out again; angle
// selection (every 2nd projection) reconstructs to the bits of a stack of those angles only,
// and the selection stays through the centre, the reconstruction and a saved session (with the
// Image size set after opening: the reopened window reconstructs on the same grid).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <optional>
#include <random>

#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>

#include "app/jobs/DemoJob.h"
#include "core/geometry/ParallelGeometry.h"
#include "core/io/ImageIO.h"
#include "tests/ui/SameBits.h"
#include "tests/ui/SessionWaits.h"
#include "tests/ui/UiTestSupport.h"
#include "tests/ui/UserActions.h"
#include "ui/main/FileActions.h"
#include "ui/panels/CenterPanel.h"
#include "ui/panels/PreprocessPanel.h"

namespace tomo::ui::test {
namespace {

constexpr int kSize = 64;  // demo image: 90 angles, 96 detectors

/// Opens the raw stack @p path of @p shape as File > Open does, stating angles [0, 180).
void openStack(WindowFixture& f, const std::filesystem::path& path,
               std::array<std::size_t, 3> shape) {
    app::LoadRequest request;
    request.path = path;
    request.shape = shape;
    QSignalSpy finished(&f.session, &Session::jobFinished);
    ASSERT_TRUE(f.window->fileActions()->openDataFile(request));
    ASSERT_TRUE(waitFor(finished, 1, 60000));
    ASSERT_TRUE(finished.at(0).at(1).toBool()) << finished.at(0).at(2).toString().toStdString();
    settleSession(f.session);
    app::Sampling sampling;  // the demo's grid: kSize x kSize pixels of one detector pitch
    sampling.grid.size = kSize;
    ASSERT_TRUE(f.session.setSampling(sampling).isOk());
}

double rmse(const Volume& a, const Volume& truth) {
    double sum = 0;
    for (std::size_t y = 0; y < truth.dim(1); ++y)
        for (std::size_t x = 0; x < truth.dim(2); ++x)
            sum += std::pow(double(a(0, y, x)) - truth(0, y, x), 2);
    return std::sqrt(sum / double(truth.dim(1) * truth.dim(2)));
}

/// @p clean with 1% of its pixels hit by a zinger: a detector pixel 5 to 50 times as bright,
/// ln 5 .. ln 50 below its neighbours in line integrals (seeded: the same every run).
Sinograms withZingers(const Sinograms& clean) {
    Sinograms s = clean.clone();
    std::mt19937 rng(20261128);
    std::uniform_int_distribution<std::size_t> angle(0, s.dim(1) - 1), det(0, s.dim(2) - 1);
    std::uniform_real_distribution<double> gain(5.0, 50.0);
    for (std::size_t k = 0; k < s.dim(1) * s.dim(2) / 100; ++k)
        s(0, angle(rng), det(rng)) -= static_cast<float>(std::log(gain(rng)));
    return s;
}

class StackWorkflow : public ::testing::Test {
  protected:
    void SetUp() override {
        auto made = app::makeDemoDataset(app::demoSpecForSize(kSize), ExecContext{});
        ASSERT_TRUE(made.isOk()) << made.status().toString();
        demo.emplace(std::move(*made));
        shape = demo->sinograms.dims();
    }
    std::filesystem::path write(const char* name, const Sinograms& s) {
        const std::filesystem::path p = f.dir.filePath(QString::fromLatin1(name)).toStdString();
        EXPECT_TRUE(writeVolume(p, s).isOk());
        return p;
    }
    /// FBP of what the session holds; its RMSE against the phantom.
    double fbpRmse() {
        clickAndSettle(f.session, f.window->runButton());
        const Volume& image = f.session.reconstruction()->image;
        EXPECT_EQ(image.dims(), demo->truth.dims());
        if (image.dims() != demo->truth.dims()) return 0.0;
        return rmse(image, demo->truth);
    }
    WindowFixture f;
    std::optional<app::Dataset> demo;
    std::array<std::size_t, 3> shape{};
};

TEST_F(StackWorkflow, ZingerRemovalKeepsTheCleanDemoAndRemovesInjectedZingers) {
    PreprocessPanel* panel = f.window->preprocessPanel();
    auto* zingers = child<QCheckBox>(panel, QStringLiteral("removeZingers"));
    auto* apply = child<QPushButton>(panel, QStringLiteral("applyPreprocessing"));
    openStack(f, write("clean.raw", demo->sinograms), shape);
    const double cleanOff = fbpRmse();
    click(zingers);  // the default threshold, 0.2
    clickAndSettle(f.session, apply);
    EXPECT_NE(f.session.loadedDataset()->preprocessing.find("line-integral, dark"),
              std::string::npos)
        << f.session.loadedDataset()->preprocessing;
    const double cleanOn = fbpRmse();

    openStack(f, write("zingers.raw", withZingers(demo->sinograms)), shape);
    if (zingers->isChecked()) click(zingers);
    clickAndSettle(f.session, apply);
    const double zingersOff = fbpRmse();
    click(zingers);
    clickAndSettle(f.session, apply);
    const double zingersOn = fbpRmse();
    std::printf("[ zingers ] FBP RMSE clean %.5f -> %.5f ticked; with zingers %.5f -> %.5f\n",
                cleanOff, cleanOn, zingersOff, zingersOn);
    EXPECT_LT(std::fabs(cleanOn / cleanOff - 1.0), 0.01);  // clean data: within 1%
    EXPECT_GT(zingersOff, 1.1 * cleanOff);                 // the zingers matter: +14%
    EXPECT_LT(zingersOn, 1.04 * cleanOff);  // and are mostly gone: +2.8% (pairs side by side stay)
}

TEST_F(StackWorkflow, EverySecondAngleIsKeptThroughCentreReconstructionAndSession) {
    PreprocessPanel* panel = f.window->preprocessPanel();
    openStack(f, write("full.raw", demo->sinograms), shape);
    auto* step = child<QSpinBox>(panel, QStringLiteral("angleStep"));
    ASSERT_TRUE(step->isEnabled());
    typeInto(step, QStringLiteral("2"));
    clickAndSettle(f.session, child<QPushButton>(panel, QStringLiteral("applyPreprocessing")));
    const std::size_t half = shape[1] / 2;
    ASSERT_EQ(f.session.dataset()->sinograms.dim(1), half);
    const std::vector<double> all = uniformAngles(0, 180 * kPi / 180.0, int(shape[1]));
    for (std::size_t a = 0; a < half; ++a)
        ASSERT_EQ(f.session.dataset()->geometry.angles()[a], all[2 * a]) << a;

    // The next steps: a centre, FBP; the selection is still what the session holds and shows.
    CenterPanel* center = f.window->centerPanel();
    const double centre = f.session.dataset()->geometry.centerOfRotation() + 0.25;
    typeInto(child<QDoubleSpinBox>(center, QStringLiteral("centerSpin")),
             QString::number(centre, 'f', 2));
    clickAndSettle(f.session, child<QPushButton>(center, QStringLiteral("applyCenter")));
    clickAndSettle(f.session, f.window->runButton());
    EXPECT_EQ(f.session.dataset()->sinograms.dim(1), half);
    EXPECT_EQ(f.session.reconstruction()->image.dim(1), std::size_t(kSize));
    EXPECT_EQ(step->value(), 2);
    const Volume selected = f.session.reconstruction()->image.clone();

    // A stack of those angles only, opened with the same stated range: the same bits.
    Sinograms only = Sinograms::create(1, half, shape[2]).value();
    for (std::size_t a = 0; a < half; ++a)
        for (std::size_t d = 0; d < shape[2]; ++d)
            only(0, a, d) = demo->sinograms(0, 2 * a, d);
    WindowFixture g;
    {
        app::LoadRequest request;
        request.path = write("half.raw", only);
        request.shape = only.dims();
        QSignalSpy finished(&g.session, &Session::jobFinished);
        ASSERT_TRUE(g.window->fileActions()->openDataFile(request));
        ASSERT_TRUE(waitFor(finished, 1, 60000));
        settleSession(g.session);
        app::Sampling sampling;
        sampling.grid.size = kSize;
        ASSERT_TRUE(g.session.setSampling(sampling).isOk());
    }
    typeInto(child<QDoubleSpinBox>(g.window->centerPanel(), QStringLiteral("centerSpin")),
             QString::number(centre, 'f', 2));
    clickAndSettle(g.session,
                   child<QPushButton>(g.window->centerPanel(), QStringLiteral("applyCenter")));
    clickAndSettle(g.session, g.window->runButton());
    ASSERT_EQ(g.session.reconstruction()->image.dims(), selected.dims());
    EXPECT_EQ(differingVoxels(g.session.reconstruction()->image, selected), 0u);

    // Saved and reopened: the selection is read again, the same bits come out.
    const std::filesystem::path session = f.dir.filePath(QStringLiteral("s.json")).toStdString();
    ASSERT_TRUE(f.window->fileActions()->saveSession(session).isOk());
    WindowFixture h;
    QSignalSpy finished(&h.session, &Session::jobFinished);
    ASSERT_TRUE(h.window->fileActions()->openSession(session).isOk());
    ASSERT_TRUE(waitFor(finished, 1, 60000));
    settleSession(h.session);
    ASSERT_TRUE(h.session.dataset());
    EXPECT_EQ(h.session.dataset()->sinograms.dim(1), half);
    EXPECT_EQ(child<QSpinBox>(h.window->preprocessPanel(), QStringLiteral("angleStep"))->value(),
              2);
    EXPECT_EQ(h.session.sampling().grid.size, kSize);  // the Image size set after opening
    clickAndSettle(h.session, h.window->runButton());
    ASSERT_EQ(h.session.reconstruction()->image.dims(), selected.dims());
    EXPECT_EQ(differingVoxels(h.session.reconstruction()->image, selected), 0u);
}

}  // namespace
}  // namespace tomo::ui::test
