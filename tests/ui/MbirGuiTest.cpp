// MBIR in the GUI (issue 15 item 7) on the 64x64 demo: the algorithm panel builds MBIR's form
// from its schema (sharpness and SNR with sliders, the expert parameters behind "Advanced"); a
// run refreshes the reconstruction view with its live iterate and gives the convergence dock one
// cost point per iteration, non-increasing, against equits; the HU curve is 1000 RMSE /
// mu_water; moving the Sharpness or SNR slider warm-restarts MBIR from the current image (after
// a run, or stopping a running one and keeping its iterate); and the front door hands every slab
// its planes of the initial image.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include <QRegularExpression>
#include <QSignalSpy>
#include <QSlider>
#include <QTest>
#include <QToolButton>

#include "app/Engine.h"
#include "app/data/DataFormats.h"
#include "app/recon/ReconService.h"
#include "tests/ui/UiTestSupport.h"
#include "ui/charts/ConvergenceDock.h"
#include "ui/charts/CostChart.h"
#include "ui/main/FileActions.h"
#include "ui/main/MbirRestart.h"
#include "ui/panels/AlgorithmPanel.h"
#include "ui/panels/ParameterForm.h"
#include "ui/views/SliceView.h"

namespace tomo::ui {
namespace {

using test::waitFor;

constexpr double kMuWater = 0.2;  // the demo's soft tissue per pixel

/// Selects MBIR with @p iterations (no early stop) and mu_water kMuWater, and starts it.
void startMbir(MainWindow& window, int iterations) {
    AlgorithmPanel* panel = window.algorithmPanel();
    ASSERT_TRUE(panel->setAlgorithm("mbir"));
    ASSERT_TRUE(panel->form()
                    ->setValues({{"iterations", std::to_string(iterations)},
                                 {"stop_threshold", "0"},
                                 {"mu_water", "0.2"}})
                    .empty());
    window.reconstruct();
    ASSERT_TRUE(window.session().isBusy());
}

bool sameImage(const Volume& a, const Volume& b) {
    if (a.dims() != b.dims()) return false;
    for (std::size_t z = 0; z < a.dim(0); ++z)
        for (std::size_t y = 0; y < a.dim(1); ++y)
            if (std::memcmp(a.row(z, y).data(), b.row(z, y).data(), a.dim(2) * sizeof(float)))
                return false;
    return true;
}

TEST(MbirGui, SelectableWithItsFormBuiltFromTheSchema) {
    test::WindowFixture f;
    AlgorithmPanel* panel = f.window->algorithmPanel();
    ASSERT_TRUE(panel->setAlgorithm("mbir"));
    EXPECT_TRUE(panel->isIterative());
    ParameterForm* form = panel->form();
    Result<AlgorithmSpec> spec = findAlgorithm("mbir");
    ASSERT_TRUE(spec.isOk());
    EXPECT_EQ(form->spec().id, "mbir");
    // One editor per schema parameter, at its default.
    Result<ParameterValues> defaults = ParameterValues::resolve(*spec, {});
    ASSERT_TRUE(defaults.isOk());
    const auto values = form->values();
    ASSERT_EQ(values.size(), spec->parameters.size());
    const FormHints hints = formHintsFor("mbir");
    QWidget* advanced = form->findChild<QWidget*>(QStringLiteral("advancedParameters"));
    ASSERT_NE(advanced, nullptr);
    for (const ParameterSpec& p : spec->parameters) {
        auto* editor = form->findChild<QWidget*>(QString::fromStdString(p.name));
        ASSERT_NE(editor, nullptr) << p.name;
        if (p.type == ParameterType::Real)
            EXPECT_DOUBLE_EQ(std::stod(values.at(p.name)), defaults->real(p.name)) << p.name;
        else
            EXPECT_EQ(values.at(p.name), defaults->text(p.name)) << p.name;
        EXPECT_EQ(advanced->isAncestorOf(editor), hints.advanced.count(p.name) > 0) << p.name;
    }
    for (const char* name :
         {"method", "sv_side", "batch", "matrix", "p", "q", "T", "sigma_x", "sigma_y", "counts",
          "gpu_sv_side", "gpu_batch", "gpu_blocks", "gpu_threads"})
        EXPECT_TRUE(hints.advanced.count(name)) << name;
    // Advanced starts collapsed; the expander opens it.
    EXPECT_FALSE(advanced->isVisibleTo(form));
    ASSERT_NE(form->advancedToggle(), nullptr);
    form->advancedToggle()->click();
    EXPECT_TRUE(advanced->isVisibleTo(form));

    // Sharpness and SNR are prominent, with sliders tied to their spin boxes.
    for (const char* name : {"sharpness", "snr_db"}) {
        auto* slider = form->findChild<QSlider*>(QString::fromLatin1(name) + "Slider");
        ASSERT_NE(slider, nullptr) << name;
        EXPECT_FALSE(advanced->isAncestorOf(slider));
    }
    auto* sharpness = form->findChild<QSlider*>(QStringLiteral("sharpnessSlider"));
    sharpness->setValue(sharpness->value() + 15);  // +1.5
    EXPECT_DOUBLE_EQ(std::stod(form->values().at("sharpness")), 1.5);
    ASSERT_TRUE(form->setValues({{"snr_db", "40"}}).empty());
    auto* snr = form->findChild<QSlider*>(QStringLiteral("snr_dbSlider"));
    EXPECT_EQ(snr->value(), 60);  // (40 - (-20)) / 1 dB

    // While a job runs the form is locked but for the live parameters.
    panel->setReady(false);
    EXPECT_TRUE(sharpness->isEnabled());
    EXPECT_TRUE(form->findChild<QWidget*>(QStringLiteral("snr_db"))->isEnabled());
    EXPECT_FALSE(form->findChild<QWidget*>(QStringLiteral("iterations"))->isEnabled());
    EXPECT_FALSE(form->findChild<QWidget*>(QStringLiteral("method"))->isEnabled());
    panel->setReady(true);
    EXPECT_TRUE(form->findChild<QWidget*>(QStringLiteral("iterations"))->isEnabled());
}

TEST(MbirGui, ARunShowsTheLiveImageAndOneNonIncreasingCostPerIterationWithTheHuCurve) {
    test::WindowFixture f;
    ASSERT_TRUE(f.startDemo(64));
    int previews = 0, previewsShown = 0;
    QObject::connect(&f.session, &Session::previewChanged, f.window.get(), [&] {
        ++previews;
        auto preview = f.session.preview();
        if (preview && f.window->reconstructionView()->valueAt(30, 31) == preview->view()(31, 30))
            ++previewsShown;
    });
    const int minimumWidth = f.window->minimumSizeHint().width();
    QSignalSpy finished(&f.session, &Session::jobFinished);
    startMbir(*f.window, 6);
    ASSERT_TRUE(waitFor(finished, 1, 60000));
    ASSERT_TRUE(finished.at(0).at(1).toBool()) << finished.at(0).at(2).toString().toStdString();
    EXPECT_LE(f.window->minimumSizeHint().width(), minimumWidth)
        << "the third chart scrolls rather than widening the window";
    EXPECT_GE(previews, 1);
    EXPECT_EQ(previewsShown, previews) << "every live iterate reaches the reconstruction view";

    const ConvergenceDock& dock = *f.window->convergenceDock();
    CostChart& chart = *dock.costChart();
    const auto& reports = f.session.iterations();
    ASSERT_EQ(reports.size(), 6u);
    ASSERT_EQ(chart.points().size(), 6u);
    EXPECT_TRUE(chart.isVisibleTo(f.window.get()));
    EXPECT_TRUE(chart.byEquits());
    ASSERT_TRUE(chart.muWater().has_value());
    EXPECT_DOUBLE_EQ(*chart.muWater(), kMuWater);
    for (std::size_t k = 0; k < reports.size(); ++k) {
        const IterationInfo& info = reports[k].info;
        const CostChart::Point& p = chart.points()[k];
        ASSERT_TRUE(info.cost.has_value());
        EXPECT_EQ(p.iteration, int(k) + 1);
        EXPECT_DOUBLE_EQ(p.cost, *info.cost);
        EXPECT_DOUBLE_EQ(p.x, info.equits);
        EXPECT_GT(p.x, k > 0 ? chart.points()[k - 1].x : 0.0) << "equits grow";
        if (k > 0) {
            EXPECT_LE(p.cost, chart.points()[k - 1].cost * (1 + 1e-9)) << "iteration " << k;
        }
        // The HU curve: 1000 RMSE / mu_water, the RMSE against the demo's truth.
        ASSERT_TRUE(info.error.has_value());
        ASSERT_TRUE(p.hu.has_value());
        EXPECT_DOUBLE_EQ(*p.hu, 1000.0 * *info.error / kMuWater);
    }
    EXPECT_LT(chart.points().back().cost, chart.points().front().cost);
    // Readable, also at the chart's minimum size (a low dock): the axes and the 10 HU line are
    // named, and no label is elided.
    for (QSize size : {QSize(420, 260), chart.minimumSize()}) {
        const QStringList texts = test::chartTexts(&chart, size);
        for (const QString& title :
             {QStringLiteral("equits"), QStringLiteral("RMSE (HU)"), QStringLiteral("10 HU")})
            EXPECT_TRUE(texts.contains(title))
                << title.toStdString() << " in " << texts.join('|').toStdString();
        EXPECT_TRUE(texts.indexOf(QRegularExpression(QStringLiteral("^cost( / 1e-?\\d+)?$"))) >= 0)
            << texts.join('|').toStdString();
        for (const QString& t : texts)
            EXPECT_FALSE(t.contains(QStringLiteral("...")) || t.contains(QChar(0x2026)))
                << "elided label '" << t.toStdString() << "' in " << texts.join('|').toStdString();
    }
}

TEST(MbirGui, AReferenceImageOpenedForDataWithoutTruthGivesTheHuCurve) {
    test::WindowFixture f;
    app::Dataset data = test::demoStack(64, 1);
    const Volume truth = std::move(data.truth);
    data.truth = Volume();
    f.session.setDataset(std::move(data), QStringLiteral("no truth"));
    QSignalSpy finished(&f.session, &Session::jobFinished);
    startMbir(*f.window, 2);
    ASSERT_TRUE(waitFor(finished, 1, 60000));
    const CostChart& chart = *f.window->convergenceDock()->costChart();
    ASSERT_EQ(chart.points().size(), 2u);
    EXPECT_FALSE(chart.points().back().hu.has_value()) << "no reference, no HU curve";

    // File > Open reference image: a golden image of another shape is refused, the right one
    // becomes the dataset's truth.
    FormatRegistry registry = app::makeFormatRegistry().value();
    const std::filesystem::path wrong = f.dir.filePath(QStringLiteral("wrong.tif")).toStdString();
    const std::filesystem::path golden = f.dir.filePath(QStringLiteral("golden.tif")).toStdString();
    ASSERT_TRUE(registry.writeVolume(wrong, Volume::create(1, 32, 32).value(), {}).isOk());
    ASSERT_TRUE(registry.writeVolume(golden, truth, {}).isOk());
    Status refused = f.window->fileActions()->openReference(wrong);
    ASSERT_FALSE(refused.isOk());
    EXPECT_NE(refused.message().find("1x32x32"), std::string::npos) << refused.message();
    ASSERT_TRUE(f.window->fileActions()->openReference(golden).isOk());
    ASSERT_NE(f.session.dataset(), nullptr);
    EXPECT_TRUE(sameImage(f.session.dataset()->truth, truth));

    f.window->reconstruct();
    ASSERT_TRUE(waitFor(finished, 2, 60000));
    ASSERT_TRUE(finished.at(1).at(1).toBool()) << finished.at(1).at(2).toString().toStdString();
    ASSERT_EQ(chart.points().size(), 2u);
    for (std::size_t k = 0; k < 2; ++k) {
        const IterationInfo& info = f.session.iterations()[k].info;
        ASSERT_TRUE(info.error.has_value());
        ASSERT_TRUE(chart.points()[k].hu.has_value());
        EXPECT_DOUBLE_EQ(*chart.points()[k].hu, 1000.0 * *info.error / kMuWater);
    }
}

TEST(MbirGui, MovingTheSharpnessSliderWarmRestartsFromTheCurrentImage) {
    test::WindowFixture f;
    ASSERT_TRUE(f.startDemo(64));
    MbirRestart& restart = *f.window->mbirRestart();
    restart.setDebounceMs(50);
    QSignalSpy finished(&f.session, &Session::jobFinished);
    QSignalSpy restarted(&restart, &MbirRestart::restarted);
    ParameterForm* form = f.window->algorithmPanel()->form();
    startMbir(*f.window, 3);
    ASSERT_TRUE(waitFor(finished, 1, 60000));
    ASSERT_TRUE(finished.at(0).at(1).toBool());
    EXPECT_EQ(f.session.iterativeSpec().initial, nullptr) << "the first run starts cold";
    auto before = f.session.reconstruction();
    ASSERT_NE(before, nullptr);
    const Volume copy = before->image.clone();

    auto* slider = form->findChild<QSlider*>(QStringLiteral("sharpnessSlider"));
    ASSERT_NE(slider, nullptr);
    slider->setValue(slider->value() + 5);  // a drag: three edits, one restart
    slider->setValue(slider->value() + 5);
    slider->setValue(slider->value() + 5);
    EXPECT_TRUE(restart.pending());
    ASSERT_TRUE(waitFor(restarted, 1, 5000));
    ASSERT_TRUE(f.session.isBusy());
    const app::IterativeJobSpec& spec = f.session.iterativeSpec();
    ASSERT_NE(spec.initial, nullptr);
    EXPECT_EQ(spec.initial.get(), &before->image) << "the image before the restart";
    EXPECT_TRUE(sameImage(*spec.initial, copy));
    EXPECT_EQ(spec.algorithm, "mbir");
    EXPECT_DOUBLE_EQ(std::stod(spec.parameters.at("sharpness")), 1.5);
    ASSERT_TRUE(waitFor(finished, 2, 60000));
    EXPECT_TRUE(finished.at(1).at(1).toBool()) << finished.at(1).at(2).toString().toStdString();
    EXPECT_EQ(restarted.count(), 1) << "debounced";
    EXPECT_NE(f.session.reconstruction(), before);
}

TEST(MbirGui, MovingTheSnrSliderDuringARunStopsItAndRestartsFromItsIterate) {
    test::WindowFixture f;
    ASSERT_TRUE(f.startDemo(64));
    MbirRestart& restart = *f.window->mbirRestart();
    restart.setDebounceMs(20);
    QSignalSpy iterations(&f.session, &Session::iterationReported);
    QSignalSpy finished(&f.session, &Session::jobFinished);
    // What each job left, read as it finishes (a 64x64 MBIR iteration takes milliseconds: the
    // restarted run may be over before a wait here returns).
    std::vector<SolverSummary> summaries;
    QObject::connect(&f.session, &Session::jobFinished, f.window.get(),
                     [&] { summaries.push_back(f.session.lastSummary()); });
    std::shared_ptr<const Volume> initial;
    std::shared_ptr<const app::ReconOutcome> kept;
    app::IterativeJobSpec restartSpec;
    QObject::connect(&restart, &MbirRestart::restarted, f.window.get(),
                     [&](std::shared_ptr<const Volume> image) {
                         initial = std::move(image);
                         kept = f.session.reconstruction();
                         restartSpec = f.session.iterativeSpec();
                     });
    startMbir(*f.window, 1000);
    ASSERT_TRUE(waitFor(iterations, 2, 60000));
    // The restarted run is short (the form is read when it starts).
    ASSERT_TRUE(f.window->algorithmPanel()->form()->setValues({{"iterations", "3"}}).empty());
    auto* slider =
        f.window->algorithmPanel()->form()->findChild<QSlider*>(QStringLiteral("snr_dbSlider"));
    ASSERT_NE(slider, nullptr);
    ASSERT_TRUE(slider->isEnabled()) << "live while MBIR runs";
    slider->setValue(slider->value() - 10);
    ASSERT_TRUE(waitFor(finished, 2, 60000));
    EXPECT_TRUE(finished.at(0).at(1).toBool()) << "stopped and kept, not cancelled";
    ASSERT_EQ(summaries.size(), 2u);
    EXPECT_EQ(summaries[0].reason, TerminationReason::StoppedByCaller);
    EXPECT_LT(summaries[0].iterations, 1000);
    ASSERT_NE(initial, nullptr);
    ASSERT_NE(kept, nullptr);
    EXPECT_EQ(initial.get(), &kept->image) << "the kept iterate is the new start";
    EXPECT_EQ(restartSpec.initial, initial);
    EXPECT_DOUBLE_EQ(std::stod(restartSpec.parameters.at("snr_db")), 20.0);
    EXPECT_TRUE(finished.at(1).at(1).toBool()) << finished.at(1).at(2).toString().toStdString();
    EXPECT_EQ(summaries[1].iterations, 3);
    EXPECT_NE(f.session.reconstruction(), kept) << "the restarted run's result";
}

TEST(MbirGui, TheFrontDoorHandsEverySlabItsPlanesOfTheInitialImage) {
    auto data = std::make_shared<const app::Dataset>(test::demoStack(32, 3, 0.25f));
    const app::Engine engine;
    const app::ReconService service(engine);
    ExecContext ctx;
    ctx.threads = 2;
    auto run = [&](std::size_t slab, std::shared_ptr<const Volume> initial) {
        app::ReconRequest request = app::datasetRequest(data, "sirt");
        request.parameters = {{"iterations", "1"}};
        request.backend = "cpu";
        request.slabSlices = slab;
        request.initial = std::move(initial);
        return service.run(request, {}, ctx);
    };
    auto truth = std::shared_ptr<const Volume>(data, &data->truth);
    Result<app::ReconReport> whole = run(0, truth), slabs = run(1, truth), cold = run(1, nullptr);
    ASSERT_TRUE(whole.isOk()) << whole.status().toString();
    ASSERT_TRUE(slabs.isOk()) << slabs.status().toString();
    ASSERT_TRUE(cold.isOk()) << cold.status().toString();
    EXPECT_EQ(slabs->slabs, 3u);
    double diff = 0, warmError = 0, coldError = 0;
    for (std::size_t z = 0; z < 3; ++z)
        for (std::size_t y = 0; y < 32; ++y)
            for (std::size_t x = 0; x < 32; ++x) {
                const double t = data->truth(z, y, x);
                diff = std::max(diff,
                                double(std::fabs(whole->image(z, y, x) - slabs->image(z, y, x))));
                warmError += (slabs->image(z, y, x) - t) * (slabs->image(z, y, x) - t);
                coldError += (cold->image(z, y, x) - t) * (cold->image(z, y, x) - t);
            }
    EXPECT_LT(diff, 1e-4) << "each slab started from its own planes";
    EXPECT_LT(warmError, 0.25 * coldError) << "one SIRT step from the truth stays near it";

    auto wrong = std::make_shared<const Volume>(Volume::create(2, 32, 32).value());
    Result<app::ReconReport> refused = run(0, wrong);
    ASSERT_FALSE(refused.isOk());
    EXPECT_NE(refused.status().message().find("initial image"), std::string::npos)
        << refused.status().message();
}

}  // namespace
}  // namespace tomo::ui
