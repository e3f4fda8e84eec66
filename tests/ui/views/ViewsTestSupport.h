#pragma once
// Helpers shared by the view tests: synthetic images, luminance of rendered frames, resampling
// of an image to a widget's pixels, and Pearson correlation, all computed here independently of
// the views under test.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <vector>

#include <QImage>
#include <QString>

#include "core/data/Array.h"
#include "ui/views/ViewFactory.h"

namespace tomo::ui::test {

/// rows x cols dense image with value(r, c) = fn(r, c).
inline std::vector<float> makeImage(int rows, int cols, const std::function<float(int, int)>& fn) {
    std::vector<float> v(static_cast<std::size_t>(rows) * static_cast<std::size_t>(cols));
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c)
            v[static_cast<std::size_t>(r * cols + c)] = fn(r, c);
    return v;
}

inline View2<const float> viewOf(const std::vector<float>& v, int rows, int cols) {
    return {v.data(), static_cast<std::size_t>(rows), static_cast<std::size_t>(cols),
            static_cast<std::size_t>(cols)};
}

/// A disc of value 1 (radius 0.35 of the smaller side) on 0, plus a gentle ramp in x so the
/// image is not symmetric.
inline std::vector<float> discImage(int rows, int cols) {
    return makeImage(rows, cols, [=](int r, int c) {
        double dx = c + 0.5 - 0.5 * cols, dy = r + 0.5 - 0.45 * rows;
        double radius = 0.35 * std::min(rows, cols);
        return static_cast<float>((dx * dx + dy * dy < radius * radius ? 1.0 : 0.0) +
                                  0.3 * c / cols);
    });
}

inline double luminance(QRgb p) {
    return 0.2126 * qRed(p) + 0.7152 * qGreen(p) + 0.0722 * qBlue(p);
}

/// Pearson correlation of two equally long series.
inline double correlation(const std::vector<double>& a, const std::vector<double>& b) {
    double n = static_cast<double>(a.size()), ma = 0, mb = 0;
    for (std::size_t i = 0; i < a.size(); ++i) {
        ma += a[i];
        mb += b[i];
    }
    ma /= n;
    mb /= n;
    double sab = 0, saa = 0, sbb = 0;
    for (std::size_t i = 0; i < a.size(); ++i) {
        sab += (a[i] - ma) * (b[i] - mb);
        saa += (a[i] - ma) * (a[i] - ma);
        sbb += (b[i] - mb) * (b[i] - mb);
    }
    return sab / std::sqrt(saa * sbb);
}

/// Correlation between the luminance of @p shot inside the rectangle [x0, x0 + w) x [y0, y0 + h)
/// (where the image is expected to be drawn, fit to that rectangle) and the image values
/// sampled nearest-neighbour at each screen pixel's centre.
inline double screenCorrelation(const QImage& shot, const std::vector<float>& img, int rows,
                                int cols, double x0, double y0, double w, double h) {
    std::vector<double> screen, expected;
    for (int y = static_cast<int>(std::ceil(y0)); y < static_cast<int>(y0 + h); ++y)
        for (int x = static_cast<int>(std::ceil(x0)); x < static_cast<int>(x0 + w); ++x) {
            int c = static_cast<int>((x + 0.5 - x0) / w * cols);
            int r = static_cast<int>((y + 0.5 - y0) / h * rows);
            if (c < 0 || r < 0 || c >= cols || r >= rows) continue;
            screen.push_back(luminance(shot.pixel(x, y)));
            expected.push_back(img[static_cast<std::size_t>(r * cols + c)]);
        }
    return correlation(screen, expected);
}

/// Test-name suffix of a slice backend parameter ("Painter" / "Vtk").
inline std::string backendName(const testing::TestParamInfo<SliceBackend>& param) {
    return param.param == SliceBackend::Painter ? "Painter" : "Vtk";
}

/// Skips the current test when VTK views cannot be created here.
#define TOMO_REQUIRE_VTK()                                                           \
    do {                                                                             \
        QString why;                                                                 \
        if (!::tomo::ui::vtkViewsAvailable(&why)) GTEST_SKIP() << why.toStdString(); \
    } while (0)

}  // namespace tomo::ui::test
