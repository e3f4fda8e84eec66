// Both slice views (ImageView with QPainter, VtkImageView through VTK offscreen rendering) read
// back as pixels: a synthetic disc correlates with the rendered luminance, window/level and
// colour maps give the documented colours, hover reports the value under the cursor, wheel zoom
// keeps the point under the cursor, PageUp/PageDown request slices, and a right drag changes
// window/level in both.
#include <QApplication>
#include <QMouseEvent>
#include <QSignalSpy>
#include <QWheelEvent>

#include "ViewsTestSupport.h"
#include "ui/views/ImageView.h"
#include "ui/views/SliceView.h"

namespace tomo::ui {
namespace {

using namespace tomo::ui::test;

enum class Kind { Painter, Vtk };

std::string kindName(const testing::TestParamInfo<Kind>& info) {
    return info.param == Kind::Painter ? "Painter" : "Vtk";
}

class SliceViewTest : public testing::TestWithParam<Kind> {
  protected:
    void SetUp() override {
        if (GetParam() == Kind::Vtk) {
            TOMO_REQUIRE_VTK();
            m_view.reset(createSliceView(SliceBackend::Auto));
            ASSERT_EQ(m_view->metaObject()->className(), std::string("tomo::ui::VtkImageView"));
        } else {
            m_view.reset(createSliceView(SliceBackend::Painter));
            ASSERT_NE(dynamic_cast<ImageView*>(m_view.get()), nullptr);
        }
    }
    /// Grey tolerance: VTK's lookup table picks floor(256 t), ColorMap round(255 t).
    int tolerance() const { return GetParam() == Kind::Vtk ? 1 : 0; }

    std::unique_ptr<SliceView> m_view;
};

/// round(255 * clamp((v - lo) / width, 0, 1)), the documented grey mapping.
int expectedGrey(double v, double width, double level) {
    double t = std::clamp((v - (level - width / 2)) / width, 0.0, 1.0);
    return static_cast<int>(std::floor(255.0 * t + 0.5));
}

TEST_P(SliceViewTest, RenderedDiscCorrelatesWithTheImage) {
    const int rows = 48, cols = 64;
    auto img = discImage(rows, cols);
    m_view->setImage(viewOf(img, rows, cols));
    QImage shot = m_view->renderToImage(QSize(200, 160));
    ASSERT_EQ(shot.size(), QSize(200, 160));
    // Fit: 200 / 64 = 3.125 screen pixels per image pixel, image 200 x 150 centred vertically.
    EXPECT_DOUBLE_EQ(m_view->zoom(), 3.125);
    double rho = screenCorrelation(shot, img, rows, cols, 0.0, 5.0, 200.0, 150.0);
    EXPECT_GT(rho, 0.99);
    // Misplacing the image (flipped vertically) must not correlate as well: the test can fail.
    std::vector<float> flipped(img.size());
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c)
            flipped[static_cast<std::size_t>(r * cols + c)] =
                img[static_cast<std::size_t>((rows - 1 - r) * cols + c)];
    EXPECT_LT(screenCorrelation(shot, flipped, rows, cols, 0.0, 5.0, 200.0, 150.0), 0.9);
    // A new image of the same size replaces the old one on screen.
    m_view->setImage(viewOf(flipped, rows, cols));
    QImage second = m_view->renderToImage(QSize(200, 160));
    EXPECT_GT(screenCorrelation(second, flipped, rows, cols, 0.0, 5.0, 200.0, 150.0), 0.99);
}

TEST_P(SliceViewTest, WindowLevelGivesTheDocumentedGreyLevels) {
    const int rows = 16, cols = 32;
    auto ramp = makeImage(rows, cols,
                          [](int r, int c) { return 0.5f * static_cast<float>(c) + 0.01f * r; });
    m_view->setImage(viewOf(ramp, rows, cols), false);
    for (auto [width, level] : {std::pair{8.0, 8.0}, std::pair{10.0, 10.0}}) {
        m_view->setWindowLevel({width, level});
        QImage shot = m_view->renderToImage(QSize(4 * cols, 4 * rows));  // 4x4 block per pixel
        int black = 0, white = 0;
        for (int r = 0; r < rows; ++r)
            for (int c = 0; c < cols; ++c) {
                QRgb p = shot.pixel(4 * c + 2, 4 * r + 2);
                int want = expectedGrey(0.5 * c + 0.01 * r, width, level);
                ASSERT_NEAR(qRed(p), want, tolerance())
                    << "pixel " << c << "," << r << " W " << width;
                ASSERT_EQ(qRed(p), qGreen(p));
                ASSERT_EQ(qRed(p), qBlue(p));
                black += qRed(p) == 0;
                white += qRed(p) == 255;
            }
        EXPECT_GT(black, 0);  // the window clips at both ends
        EXPECT_GT(white, 0);
    }
}

TEST_P(SliceViewTest, InfernoColourMapMatchesColorAt) {
    const int rows = 4, cols = 16;
    auto ramp = makeImage(rows, cols, [](int, int c) { return static_cast<float>(c); });
    m_view->setImage(viewOf(ramp, rows, cols), false);
    m_view->setWindowLevel({16.0, 8.0});
    m_view->setColorMap(ColorMap::Inferno);
    QImage shot = m_view->renderToImage(QSize(8 * cols, 8 * rows));
    for (int c = 0; c < cols; ++c) {
        QColor want = QColor::fromRgb(colorAt(ColorMap::Inferno, c / 16.0));
        QColor got = QColor::fromRgb(shot.pixel(8 * c + 4, 12));
        // Both views quantise t to one of 256 table entries (ColorMap round(255 t), VTK
        // floor(256 t)); inferno's steepest channel moves about 3.7 levels per entry.
        const int tol = GetParam() == Kind::Vtk ? 5 : 2;
        EXPECT_NEAR(got.red(), want.red(), tol) << c;
        EXPECT_NEAR(got.green(), want.green(), tol) << c;
        EXPECT_NEAR(got.blue(), want.blue(), tol) << c;
    }
}

TEST_P(SliceViewTest, HoverReportsTheValueUnderTheCursor) {
    const int n = 10;
    auto img = makeImage(n, n, [](int r, int c) { return 100.0f * r + c + 0.25f; });
    m_view->setTitle(QStringLiteral("T"));
    m_view->setImage(viewOf(img, n, n));
    m_view->resize(4 * n, 4 * n);
    QSignalSpy values(m_view.get(), &SliceView::pixelValue);
    QSignalSpy texts(m_view.get(), &SliceView::pixelHovered);
    QMouseEvent move(QEvent::MouseMove, QPointF(4 * 7 + 1, 4 * 3 + 2), QPointF(), Qt::NoButton,
                     Qt::NoButton, Qt::NoModifier);
    QApplication::sendEvent(m_view.get(), &move);
    ASSERT_EQ(values.count(), 1);
    EXPECT_EQ(values.at(0).at(0).toInt(), 7);
    EXPECT_EQ(values.at(0).at(1).toInt(), 3);
    EXPECT_DOUBLE_EQ(values.at(0).at(2).toDouble(), 307.25);
    EXPECT_EQ(texts.at(0).at(0).toString(), QStringLiteral("T  x 7  y 3  value 307.25"));
}

TEST_P(SliceViewTest, WheelZoomKeepsThePointUnderTheCursor) {
    const int n = 32;
    auto img = discImage(n, n);
    m_view->setImage(viewOf(img, n, n));
    m_view->resize(128, 128);
    QPointF cursor(40, 90);
    QPointF before = m_view->widgetToImage(cursor);
    QWheelEvent wheel(cursor, m_view->mapToGlobal(cursor), QPoint(), QPoint(0, 120), Qt::NoButton,
                      Qt::NoModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(m_view.get(), &wheel);
    EXPECT_DOUBLE_EQ(m_view->zoom(), 4.0 * 1.25);
    QPointF after = m_view->widgetToImage(cursor);
    EXPECT_NEAR(after.x(), before.x(), 1e-9);
    EXPECT_NEAR(after.y(), before.y(), 1e-9);
    // The rendered pixel under the cursor still shows that image pixel's value.
    m_view->setWindowLevel({1.3, 0.65});
    QImage shot = m_view->renderToImage(QSize(128, 128));
    int c = static_cast<int>(after.x()), r = static_cast<int>(after.y());
    EXPECT_NEAR(qRed(shot.pixel(40, 90)),
                expectedGrey(img[static_cast<std::size_t>(r * n + c)], 1.3, 0.65), tolerance());
}

TEST_P(SliceViewTest, PageKeysAndCtrlWheelRequestSlices) {
    const int n = 8;
    auto img = discImage(n, n);
    m_view->setImage(viewOf(img, n, n));
    QSignalSpy steps(m_view.get(), &SliceView::sliceStepRequested);
    QKeyEvent up(QEvent::KeyPress, Qt::Key_PageUp, Qt::NoModifier);
    QKeyEvent down(QEvent::KeyPress, Qt::Key_PageDown, Qt::NoModifier);
    QApplication::sendEvent(m_view.get(), &up);
    QApplication::sendEvent(m_view.get(), &down);
    QWheelEvent wheel(QPointF(4, 4), QPointF(4, 4), QPoint(), QPoint(0, -240), Qt::NoButton,
                      Qt::ControlModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(m_view.get(), &wheel);
    ASSERT_EQ(steps.count(), 3);
    EXPECT_EQ(steps.at(0).at(0).toInt(), 1);
    EXPECT_EQ(steps.at(1).at(0).toInt(), -1);
    EXPECT_EQ(steps.at(2).at(0).toInt(), -2);
}

TEST_P(SliceViewTest, RightDragChangesWindowLevelAndTheRenderedPixels) {
    SliceView* view = m_view.get();
    const int rows = 4, cols = 64;
    auto ramp = makeImage(rows, cols, [](int, int c) { return 0.5f * static_cast<float>(c); });
    view->setImage(viewOf(ramp, rows, cols), false);
    view->setWindowLevel({16.0, 16.0});
    QImage before = view->renderToImage(QSize(cols, rows * 4));
    auto send = [&](QEvent::Type type, QPointF pos, Qt::MouseButtons buttons) {
        QMouseEvent e(type, pos, QPointF(), Qt::RightButton, buttons, Qt::NoModifier);
        QApplication::sendEvent(view, &e);
    };
    send(QEvent::MouseButtonPress, {10, 2}, Qt::RightButton);
    send(QEvent::MouseMove, {74, 34}, Qt::RightButton);
    send(QEvent::MouseButtonRelease, {74, 34}, Qt::NoButton);
    // Data range 31.5 over 256 pixels: dx = 64 widens by 7.875, dy = 32 raises the level 3.9375.
    EXPECT_DOUBLE_EQ(view->windowLevel().width, 16.0 + 64 * 31.5 / 256);
    EXPECT_DOUBLE_EQ(view->windowLevel().level, 16.0 + 32 * 31.5 / 256);
    QImage after = view->renderToImage(QSize(cols, rows * 4));
    const WindowLevel wl = view->windowLevel();
    for (int c = 0; c < cols; ++c)
        EXPECT_NEAR(qRed(after.pixel(c, 8)), expectedGrey(0.5 * c, wl.width, wl.level), 1) << c;
    EXPECT_NE(qRed(after.pixel(40, 8)), qRed(before.pixel(40, 8)));
}

INSTANTIATE_TEST_SUITE_P(Backends, SliceViewTest, testing::Values(Kind::Painter, Kind::Vtk),
                         kindName);

}  // namespace
}  // namespace tomo::ui
