// MainWindow on a small demo dataset: it loads, reconstructs on the worker thread, and shows the
// reconstruction, the difference image and metrics that agree with an RMSE and a PSNR computed
// here in double precision from the images the session holds.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include <QLabel>
#include <QSignalSpy>

#include "app/Backends.h"
#include "tests/ui/UiTestSupport.h"
#include "ui/main/MainWindow.h"
#include "ui/main/Session.h"
#include "ui/views/ImageView.h"
#include "ui/widgets/MetricsPanel.h"
#include "ui/widgets/ReconParamsPanel.h"

namespace tomo::ui {
namespace {

using test::correlation;
using test::waitFor;

QString labelText(const QWidget& root, const char* name) {
    auto* label = root.findChild<QLabel*>(QString::fromLatin1(name));
    return label ? label->text() : QStringLiteral("<missing label>");
}

/// Sum of absolute differences between horizontal and vertical neighbours.
double totalVariation(View2<const float> img) {
    double tv = 0;
    for (std::size_t r = 0; r < img.rows(); ++r)
        for (std::size_t c = 0; c < img.cols(); ++c) {
            if (c + 1 < img.cols()) tv += std::fabs(static_cast<double>(img(r, c + 1)) - img(r, c));
            if (r + 1 < img.rows()) tv += std::fabs(static_cast<double>(img(r + 1, c)) - img(r, c));
        }
    return tv;
}

TEST(MainWindow, DemoIsReconstructedAndMetricsAreShown) {
    test::WindowFixture f;
    Session& session = f.session;
    MainWindow& window = *f.window;
    QSignalSpy finished(&session, &Session::jobFinished);

    app::DemoSpec spec = app::demoSpecForSize(64);  // 90 angles, 96 detectors
    ASSERT_EQ(spec.angles, 90);
    ASSERT_EQ(spec.detectors, 96);
    window.startDemo(spec);
    EXPECT_TRUE(session.isBusy());
    ASSERT_TRUE(waitFor(finished, 2, 30000)) << "load + reconstruction did not finish in 30 s";
    ASSERT_EQ(finished.at(0).at(0).value<Session::JobKind>(), Session::JobKind::Load);
    ASSERT_TRUE(finished.at(0).at(1).toBool()) << finished.at(0).at(2).toString().toStdString();
    ASSERT_EQ(finished.at(1).at(0).value<Session::JobKind>(), Session::JobKind::Reconstruct);
    ASSERT_TRUE(finished.at(1).at(1).toBool()) << finished.at(1).at(2).toString().toStdString();

    auto data = session.dataset();
    auto recon = session.reconstruction();
    ASSERT_NE(data, nullptr);
    ASSERT_NE(recon, nullptr);
    ASSERT_TRUE(recon->hasMetrics);
    ASSERT_EQ(recon->image.dim(1), 64u);
    ASSERT_EQ(recon->image.dim(2), 64u);

    // Independent RMSE and PSNR of slice 0 against the truth (double precision, whole image).
    View2<const float> img = recon->image.plane(0);
    View2<const float> ref = data->truth.plane(0);
    double sum = 0, lo = ref(0, 0), hi = ref(0, 0);
    for (std::size_t r = 0; r < 64; ++r)
        for (std::size_t c = 0; c < 64; ++c) {
            double d = static_cast<double>(img(r, c)) - ref(r, c);
            sum += d * d;
            lo = std::min(lo, static_cast<double>(ref(r, c)));
            hi = std::max(hi, static_cast<double>(ref(r, c)));
        }
    double rmse = std::sqrt(sum / (64.0 * 64.0));
    EXPECT_NEAR(recon->metrics.rmse, rmse, 1e-6 * rmse);
    EXPECT_NEAR(recon->metrics.psnr, 20.0 * std::log10((hi - lo) / rmse), 1e-4);
    // Measured: RMSE 0.0412 for the 64x64 noisy demo with the ramp filter (truth range 0..1).
    EXPECT_LT(recon->metrics.rmse, 0.06);
    std::printf("64x64 demo, ramp: RMSE %.4f PSNR %.2f dB SSIM %.4f\n", recon->metrics.rmse,
                recon->metrics.psnr, recon->metrics.ssim);
    EXPECT_GT(recon->metrics.ssim, 0.0);

    // What the window shows.
    EXPECT_EQ(labelText(window, "rmseValue"), QString::number(recon->metrics.rmse, 'g', 4));
    EXPECT_EQ(labelText(window, "psnrValue"),
              QStringLiteral("%1 dB").arg(recon->metrics.psnr, 0, 'f', 2));
    EXPECT_EQ(labelText(window, "variantValue"), QString::fromStdString(recon->variant));
    EXPECT_TRUE(labelText(window, "totalTimeValue").endsWith(QStringLiteral(" s")));
    SliceView* shown = window.reconstructionView();
    ASSERT_TRUE(shown->hasImage());
    ASSERT_EQ(shown->imageWidth(), 64);
    for (int y : {0, 20, 32, 63})
        for (int x : {0, 17, 32, 50}) {
            EXPECT_EQ(shown->valueAt(x, y), img(y, x));
            EXPECT_FLOAT_EQ(window.differenceView()->valueAt(x, y), img(y, x) - ref(y, x));
            EXPECT_EQ(window.truthView()->valueAt(x, y), ref(y, x));
        }
    // The slice view's pixels correlate with the expected slice (the phantom), not merely
    // non-blank: read back through the view and compared with the truth.
    std::vector<float> shownPixels(64 * 64);
    for (int y = 0; y < 64; ++y)
        for (int x = 0; x < 64; ++x)
            shownPixels[static_cast<std::size_t>(y * 64 + x)] = shown->valueAt(x, y);
    const double r = correlation(View2<const float>(shownPixels.data(), 64, 64, 64), ref);
    std::printf("correlation of the shown slice with the phantom: %.4f\n", r);
    EXPECT_GT(r, 0.95);  // measured 0.98 (noise and the FBP blur keep it below 1)
    // The sinogram view shows the dataset's sinogram, value for value.
    EXPECT_EQ(window.sinogramView()->imageWidth(), spec.detectors);
    EXPECT_EQ(window.sinogramView()->imageHeight(), spec.angles);
    View2<const float> sino = data->sinograms.plane(0);
    for (int a : {0, 17, 45, 89})
        for (int d : {0, 30, 48, 95})
            EXPECT_EQ(window.sinogramView()->valueAt(d, a),
                      sino(static_cast<std::size_t>(a), static_cast<std::size_t>(d)));
    EXPECT_FALSE(session.isBusy());
}

TEST(MainWindow, PanelFilterReachesTheJobAndAFailedJobKeepsThePreviousResult) {
    test::WindowFixture f;
    Session& session = f.session;
    MainWindow& window = *f.window;
    QSignalSpy finished(&session, &Session::jobFinished);
    window.startDemo(app::demoSpecForSize(64));
    ASSERT_TRUE(waitFor(finished, 2, 30000));
    ASSERT_TRUE(finished.at(1).at(1).toBool());
    auto ramp = session.reconstruction();
    const double rampVariation = totalVariation(ramp->image.plane(0));

    // The panel's filter reaches the job: a Hann window with cutoff 0.6 suppresses the high
    // frequencies that the plain ramp keeps, so the image varies less from pixel to pixel.
    ASSERT_TRUE(window.paramsPanel()->setFilter(QStringLiteral("hann")));
    window.paramsPanel()->setCutoff(0.6);
    window.reconstruct();
    ASSERT_TRUE(waitFor(finished, 3, 30000));
    ASSERT_TRUE(finished.at(2).at(1).toBool());
    auto smooth = session.reconstruction();
    ASSERT_NE(smooth, ramp);
    EXPECT_EQ(session.reconOptions().filter.window, FilterWindow::Hann);
    EXPECT_DOUBLE_EQ(session.reconOptions().filter.cutoff, 0.6);
    const double ratio = totalVariation(smooth->image.plane(0)) / rampVariation;
    std::printf("total variation hann 0.6 / ramp: %.3f\n", ratio);
    // Measured: 0.40 of the ramp's total variation on the 64x64 demo.
    EXPECT_LT(ratio, 0.6);
    EXPECT_EQ(window.reconstructionView()->valueAt(10, 20), smooth->image(0, 20, 10));

    // A failing job (unknown variant) reports the cause and leaves the published result.
    ASSERT_TRUE(session.startReconstruct(session.reconOptions(), "no.such.variant"));
    ASSERT_TRUE(waitFor(finished, 4, 30000));
    EXPECT_FALSE(finished.at(3).at(1).toBool());
    EXPECT_TRUE(finished.at(3).at(2).toString().contains(QStringLiteral("no.such.variant")))
        << finished.at(3).at(2).toString().toStdString();
    EXPECT_EQ(session.reconstruction(), smooth);
}

}  // namespace
}  // namespace tomo::ui
