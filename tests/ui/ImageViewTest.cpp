// ImageView and ColorMap: grey levels read back from the rendered widget against the window/level
// formula evaluated here in double precision, zoom geometry, hover readout and right-drag
// window/level.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include <QApplication>
#include <QImage>
#include <QMouseEvent>
#include <QSignalSpy>

#include "ui/views/ColorMap.h"
#include "ui/views/ImageView.h"

namespace tomo::ui {
namespace {

/// Independent reference of the documented mapping: round(255 * clamp((v - lo) / width, 0, 1)).
int expectedGrey(double v, double width, double level) {
    double t = (v - (level - width / 2)) / width;
    return static_cast<int>(std::floor(255.0 * std::clamp(t, 0.0, 1.0) + 0.5));
}

/// rows x cols image with value(r, c) = fn(r, c), dense.
template <class F>
std::vector<float> makeImage(int rows, int cols, F fn) {
    std::vector<float> v(static_cast<std::size_t>(rows * cols));
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c)
            v[static_cast<std::size_t>(r * cols + c)] = fn(r, c);
    return v;
}

View2<const float> viewOf(const std::vector<float>& v, int rows, int cols) {
    return {v.data(), static_cast<std::size_t>(rows), static_cast<std::size_t>(cols),
            static_cast<std::size_t>(cols)};
}

TEST(ImageView, RampMapsToExpectedGreyLevelsUnderWindowLevel) {
    const int rows = 16, cols = 64;
    auto ramp = makeImage(rows, cols, [](int, int c) { return 0.5f * static_cast<float>(c); });
    ImageView view;
    view.resize(cols, rows);  // fit scale exactly 1: one screen pixel per image pixel
    view.setImage(viewOf(ramp, rows, cols), /*autoWindow=*/false);
    const double width = 16.0, level = 16.0;  // black at 8, white at 24
    view.setWindowLevel({width, level});
    ASSERT_DOUBLE_EQ(view.zoom(), 1.0);

    QImage shot = view.grab().toImage();
    ASSERT_EQ(shot.width(), cols);
    ASSERT_EQ(shot.height(), rows);
    int clippedLow = 0, clippedHigh = 0;
    for (int r = 0; r < rows; ++r) {
        for (int c = 0; c < cols; ++c) {
            QRgb px = shot.pixel(c, r);
            int want = expectedGrey(0.5 * c, width, level);
            ASSERT_EQ(qRed(px), want) << "column " << c << " row " << r;
            ASSERT_EQ(qGreen(px), want);
            ASSERT_EQ(qBlue(px), want);
            if (r == 0) {
                clippedLow += want == 0;
                clippedHigh += want == 255;
            }
        }
    }
    // The window really clips at both ends: v <= 8 (c <= 16) black, v >= 24 (c >= 48) white.
    EXPECT_EQ(clippedLow, 17);
    EXPECT_EQ(clippedHigh, 16);
    // Mid-window value 16 (c = 32) is round(127.5) = 128.
    EXPECT_EQ(qRed(shot.pixel(32, 0)), 128);
}

TEST(ImageView, ZoomCoversBlocksOfScreenPixelsPerImagePixel) {
    const int n = 8;
    auto img = makeImage(n, n, [](int r, int c) { return static_cast<float>(r * n + c); });
    ImageView view;
    view.resize(4 * n, 4 * n);
    view.setImage(viewOf(img, n, n), false);
    view.setWindowLevel({63.0, 31.5});  // 0 -> black, 63 -> white
    view.setZoom(4.0);
    QImage shot = view.grab().toImage();
    for (int r = 0; r < n; ++r)
        for (int c = 0; c < n; ++c)
            for (int dy : {0, 3})
                for (int dx : {0, 3})
                    ASSERT_EQ(qRed(shot.pixel(4 * c + dx, 4 * r + dy)),
                              expectedGrey(r * n + c, 63.0, 31.5))
                        << "pixel " << c << "," << r;
    QPointF p = view.widgetToImage(QPointF(4 * 5 + 2, 4 * 3 + 1));
    EXPECT_DOUBLE_EQ(p.x(), 5.5);
    EXPECT_DOUBLE_EQ(p.y(), 3.25);
}

TEST(ImageView, HoverReportsThePixelValueUnderTheCursor) {
    const int n = 10;
    auto img = makeImage(n, n, [](int r, int c) { return 100.0f * r + c + 0.25f; });
    ImageView view;
    view.setTitle(QStringLiteral("Test"));
    view.resize(2 * n, 2 * n);
    view.setImage(viewOf(img, n, n));
    QSignalSpy spy(&view, &ImageView::pixelHovered);
    QMouseEvent move(QEvent::MouseMove, QPointF(2 * 7 + 1, 2 * 4 + 1), QPointF(), Qt::NoButton,
                     Qt::NoButton, Qt::NoModifier);
    QApplication::sendEvent(&view, &move);
    ASSERT_EQ(spy.count(), 1);
    EXPECT_EQ(spy.at(0).at(0).toString(), QStringLiteral("Test  x 7  y 4  value 407.25"));
    EXPECT_FLOAT_EQ(view.valueAt(7, 4), 407.25f);
    EXPECT_TRUE(std::isnan(view.valueAt(n, 0)));
}

TEST(ImageView, RightDragAdjustsWindowAndLevelByDataRange) {
    const int rows = 4, cols = 64;
    auto ramp = makeImage(rows, cols, [](int, int c) { return 0.5f * static_cast<float>(c); });
    ImageView view;
    view.resize(cols, rows);
    view.setImage(viewOf(ramp, rows, cols), false);
    view.setWindowLevel({16.0, 16.0});
    auto send = [&](QEvent::Type type, QPointF pos, Qt::MouseButtons buttons) {
        QMouseEvent e(type, pos, QPointF(), Qt::RightButton, buttons, Qt::NoModifier);
        QApplication::sendEvent(&view, &e);
    };
    send(QEvent::MouseButtonPress, {10, 2}, Qt::RightButton);
    send(QEvent::MouseMove, {74, 34}, Qt::RightButton);
    send(QEvent::MouseButtonRelease, {74, 34}, Qt::NoButton);
    // Data range 31.5 spread over 256 screen pixels: dx = 64 widens by 7.875, dy = 32 raises
    // the level by 3.9375.
    EXPECT_DOUBLE_EQ(view.windowLevel().width, 16.0 + 64 * 31.5 / 256);
    EXPECT_DOUBLE_EQ(view.windowLevel().level, 16.0 + 32 * 31.5 / 256);
}

TEST(ColorMap, PercentileWindowAndColourMapEnds) {
    std::vector<float> values;
    for (int i = 100; i >= 0; --i)
        values.push_back(static_cast<float>(i));  // 0..100, reversed
    values.push_back(std::nanf(""));
    WindowLevel all = percentileWindow(values, 0.0, 100.0);
    EXPECT_DOUBLE_EQ(all.width, 100.0);
    EXPECT_DOUBLE_EQ(all.level, 50.0);
    WindowLevel inner = percentileWindow(values, 10.0, 90.0);
    EXPECT_DOUBLE_EQ(inner.low(), 10.0);
    EXPECT_DOUBLE_EQ(inner.high(), 90.0);
    WindowLevel constant = percentileWindow(std::vector<float>(5, 3.0f));
    EXPECT_DOUBLE_EQ(constant.width, 1.0);
    EXPECT_DOUBLE_EQ(constant.level, 3.0);

    EXPECT_EQ(greyLevel(std::nanf(""), {1.0, 0.5}), 0);
    EXPECT_EQ(colorAt(ColorMap::Grey, 0.5), 0xff808080u);
    // Inferno runs from near-black to pale yellow with increasing luminance.
    EXPECT_EQ(colorAt(ColorMap::Inferno, 0.0), 0xff000004u);
    EXPECT_EQ(colorAt(ColorMap::Inferno, 1.0), 0xfffcffa4u);
    double previous = -1;
    for (int i = 0; i <= 20; ++i) {
        QColor c = QColor::fromRgb(colorAt(ColorMap::Inferno, i / 20.0));
        double luma = 0.2126 * c.red() + 0.7152 * c.green() + 0.0722 * c.blue();
        EXPECT_GT(luma, previous) << "t = " << i / 20.0;
        previous = luma;
    }
}

}  // namespace
}  // namespace tomo::ui
