// The line-profile tool: a line drawn with the mouse on a slice view gives a plot whose samples
// equal the image values along the line - exactly for an image linear in x and y (bilinear
// interpolation reproduces it), and equal to a bilinear interpolation evaluated here for a
// non-linear image.
#include <QApplication>
#include <QMouseEvent>
#include <QSignalSpy>

#include "ViewsTestSupport.h"
#include "ui/views/LineProfileView.h"
#include "ui/views/SliceView.h"

namespace tomo::ui {
namespace {

using namespace tomo::ui::test;

/// Bilinear interpolation between pixel centres (x = column index, y = row index), written
/// here independently of core/metrics.
double bilinear(const std::vector<float>& img, int cols, double x, double y) {
    int x0 = static_cast<int>(std::floor(x)), y0 = static_cast<int>(std::floor(y));
    double fx = x - x0, fy = y - y0;
    auto at = [&](int r, int c) {
        return static_cast<double>(img[static_cast<std::size_t>(r * cols + c)]);
    };
    int x1 = fx > 0 ? x0 + 1 : x0, y1 = fy > 0 ? y0 + 1 : y0;
    return (1 - fy) * ((1 - fx) * at(y0, x0) + fx * at(y0, x1)) +
           fy * ((1 - fx) * at(y1, x0) + fx * at(y1, x1));
}

void drag(SliceView& view, QPointF from, QPointF to) {
    QMouseEvent press(QEvent::MouseButtonPress, from, QPointF(), Qt::LeftButton, Qt::LeftButton,
                      Qt::NoModifier);
    QMouseEvent move(QEvent::MouseMove, to, QPointF(), Qt::NoButton, Qt::LeftButton,
                     Qt::NoModifier);
    QMouseEvent release(QEvent::MouseButtonRelease, to, QPointF(), Qt::LeftButton, Qt::NoButton,
                        Qt::NoModifier);
    QApplication::sendEvent(&view, &press);
    QApplication::sendEvent(&view, &move);
    QApplication::sendEvent(&view, &release);
}

class LineProfileTest : public testing::TestWithParam<SliceBackend> {
  protected:
    void SetUp() override {
        if (GetParam() == SliceBackend::Auto) TOMO_REQUIRE_VTK();
        m_view.reset(createSliceView(GetParam()));
        m_view->resize(4 * kCols, 4 * kRows);  // 4 screen pixels per image pixel
    }
    static constexpr int kRows = 20, kCols = 30;
    std::unique_ptr<SliceView> m_view;
};

TEST_P(LineProfileTest, MouseDrawnLineSamplesALinearImageExactly) {
    auto img = makeImage(kRows, kCols, [](int r, int c) { return 0.5f * c + 2.0f * r + 1.0f; });
    m_view->setImage(viewOf(img, kRows, kCols));
    LineProfileView profile;
    profile.attach(m_view.get());
    // Attaching the plot does not turn the tool on: a left drag pans and draws nothing.
    EXPECT_FALSE(m_view->profileToolEnabled());
    drag(*m_view, QPointF(14, 10), QPointF(110, 66));
    EXPECT_FALSE(m_view->profileLine().has_value());
    m_view->fitToWindow();
    m_view->setProfileToolEnabled(true);
    QSignalSpy changed(&profile, &LineProfileView::profileChanged);
    // Widget (4c + 2, 4r + 2) is the centre of pixel (c, r): from pixel (3, 2) to (27, 16).
    drag(*m_view, QPointF(14, 10), QPointF(110, 66));
    ASSERT_TRUE(m_view->profileLine().has_value());
    QLineF line = *m_view->profileLine();
    EXPECT_NEAR(line.x1(), 3.0, 1e-9);
    EXPECT_NEAR(line.y1(), 2.0, 1e-9);
    EXPECT_NEAR(line.x2(), 27.0, 1e-9);
    EXPECT_NEAR(line.y2(), 16.0, 1e-9);
    EXPECT_GE(changed.count(), 1);
    const ProfileSamples& s = profile.samples();
    // Length sqrt(24^2 + 14^2) = 27.78: 29 samples, one per pixel of length.
    ASSERT_EQ(s.value.size(), 29u);
    for (std::size_t i = 0; i < s.value.size(); ++i) {
        double t = static_cast<double>(i) / 28.0;
        double x = 3.0 + 24.0 * t, y = 2.0 + 14.0 * t;
        EXPECT_NEAR(s.value[i], 0.5 * x + 2.0 * y + 1.0, 1e-4) << i;
        EXPECT_NEAR(s.distance[i], t * std::hypot(24.0, 14.0), 1e-9);
    }
}

TEST_P(LineProfileTest, SamplesMatchBilinearInterpolationOfACurvedImage) {
    auto img = makeImage(kRows, kCols, [](int r, int c) {
        return std::sin(0.3f * c) * std::cos(0.2f * r) + 0.01f * c * r;
    });
    m_view->setImage(viewOf(img, kRows, kCols));
    LineProfileView profile;
    profile.attach(m_view.get());
    QLineF line(1.3, 17.6, 26.2, 0.4);
    m_view->setProfileLine(line);
    const ProfileSamples& s = profile.samples();
    ASSERT_GE(s.value.size(), 2u);
    const double n = static_cast<double>(s.value.size() - 1);
    for (std::size_t i = 0; i < s.value.size(); ++i) {
        double t = static_cast<double>(i) / n;
        double want = bilinear(img, kCols, line.x1() + t * line.dx(), line.y1() + t * line.dy());
        EXPECT_NEAR(s.value[i], want, 1e-5) << i;
    }
    // Escape clears the line and the plot.
    QKeyEvent escape(QEvent::KeyPress, Qt::Key_Escape, Qt::NoModifier);
    QApplication::sendEvent(m_view.get(), &escape);
    EXPECT_FALSE(m_view->profileLine().has_value());
    EXPECT_TRUE(profile.samples().value.empty());
}

INSTANTIATE_TEST_SUITE_P(Backends, LineProfileTest,
                         testing::Values(SliceBackend::Painter, SliceBackend::Auto), backendName);

TEST(LineProfile, EndPointOutsideTheImageIsAnError) {
    auto img = makeImage(4, 4, [](int r, int c) { return static_cast<float>(r + c); });
    auto result = sampleProfile(viewOf(img, 4, 4), QLineF(0, 0, 9, 1));
    EXPECT_FALSE(result.status().isOk());
}

}  // namespace
}  // namespace tomo::ui
