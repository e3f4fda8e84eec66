#pragma once
// Shared helpers of the tomo_ui_tests: waiting on signals, settings on a temporary file, a main
// window started on a small demo, the Pearson correlation used to compare images, and the texts
// a chart shows.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <vector>

#include <QChart>
#include <QChartView>
#include <QGraphicsScene>
#include <QGraphicsTextItem>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>

#include "app/Backends.h"
#include "core/data/Array.h"
#include "core/dataset/ProjectionData.h"
#include "ui/main/MainWindow.h"
#include "ui/main/Session.h"

namespace tomo::ui::test {

/// Runs the event loop until @p spy has @p count signals or @p timeoutMs passes.
inline bool waitFor(QSignalSpy& spy, int count, int timeoutMs) {
    while (spy.count() < count)
        if (!spy.wait(timeoutMs)) return false;
    return true;
}

/// The visible texts of @p view's chart (axis labels and titles, chart title), rendered at
/// @p size first so that the chart lays its axes out as on screen.
inline QStringList chartTexts(QChartView* view, QSize size) {
    view->resize(size);
    view->chart()->resize(QSizeF(size));
    (void)view->grab();
    QStringList texts;
    for (QGraphicsItem* item : view->scene()->items())
        if (auto* text = dynamic_cast<QGraphicsTextItem*>(item); text && text->isVisible())
            texts << text->toPlainText();
    return texts;
}

/// Pearson correlation of two equally sized images (double precision).
inline double correlation(View2<const float> a, View2<const float> b) {
    double n = 0, sa = 0, sb = 0, saa = 0, sbb = 0, sab = 0;
    for (std::size_t r = 0; r < a.rows(); ++r)
        for (std::size_t c = 0; c < a.cols(); ++c) {
            double x = a(r, c), y = b(r, c);
            n += 1;
            sa += x;
            sb += y;
            saa += x * x;
            sbb += y * y;
            sab += x * y;
        }
    double cov = sab / n - sa / n * (sb / n);
    double va = saa / n - sa / n * (sa / n), vb = sbb / n - sb / n * (sb / n);
    return cov / std::sqrt(va * vb);
}

/// The n x n demo (noiseless) as a stack of @p slices slices; slice z is the demo times
/// (1 + z * @p step), so each slice of a linear reconstruction is told apart by its scale.
inline app::Dataset demoStack(int n, int slices, float step = 0.0f) {
    app::DemoSpec spec = app::demoSpecForSize(n);
    spec.incidentCount = 0;
    ExecContext ctx;
    ctx.threads = 2;
    Result<app::Dataset> made = app::makeDemoDataset(spec, ctx);
    EXPECT_TRUE(made.isOk()) << made.status().toString();
    app::Dataset data = std::move(made).value();
    if (slices == 1) return data;
    auto stack = [&](const Array3<float>& one) {
        Array3<float> out =
            Array3<float>::create(static_cast<std::size_t>(slices), one.dim(1), one.dim(2)).value();
        for (int z = 0; z < slices; ++z)
            for (std::size_t r = 0; r < one.dim(1); ++r)
                for (std::size_t c = 0; c < one.dim(2); ++c)
                    out.row(static_cast<std::size_t>(z), r)[c] =
                        one.row(0, r)[c] * (1.0f + static_cast<float>(z) * step);
        return out;
    };
    ParallelGeometry::Params params = data.geometry.params();
    params.rows = slices;
    app::Dataset out{ParallelGeometry::create(params).value(), data.grid, stack(data.sinograms),
                     stack(data.truth)};
    out.grid.nz = slices;
    return out;
}

/// A one-slice acquisition whose flat/dark normalisation and -log give @p sino (slice 0,
/// [angle][detector]) back: counts I = D + (F - D) exp(-p) with flat 1000 (two frames) and
/// dark 10, and @p angles.
inline ProjectionData acquisitionOf(const Sinograms& sino, const std::vector<double>& angles) {
    ProjectionData acq;
    acq.projections = Array3<float>(sino.dim(1), 1, sino.dim(2));
    acq.flats = Array3<float>(2, 1, sino.dim(2));
    acq.darks = Array3<float>(1, 1, sino.dim(2));
    acq.flats.fill(1000.0f);
    acq.darks.fill(10.0f);
    for (std::size_t a = 0; a < sino.dim(1); ++a)
        for (std::size_t d = 0; d < sino.dim(2); ++d)
            acq.projections(a, 0, d) =
                static_cast<float>(10.0 + 990.0 * std::exp(-static_cast<double>(sino(0, a, d))));
    acq.angles = angles;
    return acq;
}

/// A session and main window on settings in a temporary folder, with prompts off.
struct WindowFixture {
    QTemporaryDir dir;
    QSettings settings{dir.filePath(QStringLiteral("settings.ini")), QSettings::IniFormat};
    const app::Engine engine;  // the devices, owned once
    Session session{engine};
    std::unique_ptr<MainWindow> window;

    WindowFixture() {
        session.runner().setThreads(2);
        window = std::make_unique<MainWindow>(session, settings);
        window->setConfirmations(false);
        window->resize(1100, 750);
        window->show();
    }
    /// Loads the n x n demo and reconstructs it by FBP; false when that fails or times out.
    bool startDemo(int n = 64) {
        QSignalSpy finished(&session, &Session::jobFinished);
        window->startDemo(app::demoSpecForSize(n));
        return waitFor(finished, 2, 30000) && finished.at(1).at(1).toBool();
    }
};

}  // namespace tomo::ui::test
