#include "ui/views/ColorMap.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>

namespace tomo::ui {

namespace {

/// matplotlib's inferno at t = 0, 0.1, ..., 1 (8-bit RGB).
constexpr std::array<std::array<int, 3>, 11> kInfernoSamples = {{
    {0, 0, 4},
    {22, 11, 57},
    {66, 10, 104},
    {106, 23, 110},
    {147, 38, 103},
    {188, 55, 84},
    {221, 81, 58},
    {243, 120, 25},
    {252, 165, 10},
    {246, 215, 70},
    {252, 255, 164},
}};

double normalised(float value, const WindowLevel& wl) {
    double width = wl.width > 0 ? wl.width : std::numeric_limits<float>::min();
    double t = (static_cast<double>(value) - wl.low()) / width;
    return std::clamp(t, 0.0, 1.0);
}

}  // namespace

QString colorMapName(ColorMap map) {
    switch (map) {
        case ColorMap::Grey:
            return QStringLiteral("grey");
        case ColorMap::Inferno:
            return QStringLiteral("inferno");
    }
    return QStringLiteral("grey");
}

std::uint8_t greyLevel(float value, const WindowLevel& wl) {
    if (!std::isfinite(value)) return 0;
    return static_cast<std::uint8_t>(std::lround(255.0 * normalised(value, wl)));
}

std::uint32_t colorAt(ColorMap map, double t) {
    t = std::isfinite(t) ? std::clamp(t, 0.0, 1.0) : 0.0;
    if (map == ColorMap::Grey) {
        auto g = static_cast<std::uint32_t>(std::lround(255.0 * t));
        return 0xff000000u | (g << 16) | (g << 8) | g;
    }
    double pos = t * static_cast<double>(kInfernoSamples.size() - 1);
    auto i = std::min(static_cast<std::size_t>(pos), kInfernoSamples.size() - 2);
    double f = pos - static_cast<double>(i);
    std::uint32_t rgb = 0xff000000u;
    for (int c = 0; c < 3; ++c) {
        double v = (1.0 - f) * kInfernoSamples[i][static_cast<std::size_t>(c)] +
                   f * kInfernoSamples[i + 1][static_cast<std::size_t>(c)];
        rgb |= static_cast<std::uint32_t>(std::lround(v)) << (16 - 8 * c);
    }
    return rgb;
}

QImage renderImage(View2<const float> image, const WindowLevel& wl, ColorMap map) {
    QImage out(static_cast<int>(image.cols()), static_cast<int>(image.rows()),
               QImage::Format_RGB32);
    if (out.isNull()) return out;
    std::array<std::uint32_t, 256> lut{};
    for (std::size_t i = 0; i < lut.size(); ++i)
        lut[i] = colorAt(map, static_cast<double>(i) / 255.0);
    for (std::size_t r = 0; r < image.rows(); ++r) {
        auto* line = reinterpret_cast<std::uint32_t*>(out.scanLine(static_cast<int>(r)));
        for (std::size_t c = 0; c < image.cols(); ++c)
            line[c] = lut[greyLevel(image(r, c), wl)];
    }
    return out;
}

WindowLevel percentileWindow(const std::vector<float>& values, double lowPercent,
                             double highPercent) {
    std::vector<float> finite;
    finite.reserve(values.size());
    for (float v : values)
        if (std::isfinite(v)) finite.push_back(v);
    if (finite.empty()) return {};
    auto at = [&](double percent) {
        double p = std::clamp(percent, 0.0, 100.0) / 100.0;
        auto k = static_cast<std::size_t>(std::lround(p * static_cast<double>(finite.size() - 1)));
        std::nth_element(finite.begin(), finite.begin() + static_cast<std::ptrdiff_t>(k),
                         finite.end());
        return static_cast<double>(finite[k]);
    };
    double lo = at(std::min(lowPercent, highPercent));
    double hi = at(std::max(lowPercent, highPercent));
    if (!(hi > lo)) return {1.0, lo};
    return {hi - lo, 0.5 * (lo + hi)};
}

std::vector<float> differenceImage(View2<const float> a, View2<const float> b) {
    std::vector<float> diff;
    if (a.rows() != b.rows() || a.cols() != b.cols()) return diff;
    diff.resize(a.rows() * a.cols());
    for (std::size_t r = 0; r < a.rows(); ++r)
        for (std::size_t c = 0; c < a.cols(); ++c)
            diff[r * a.cols() + c] = a(r, c) - b(r, c);
    return diff;
}

WindowLevel symmetricWindow(const std::vector<float>& difference, double percent) {
    std::vector<float> magnitude(difference.size());
    std::transform(difference.begin(), difference.end(), magnitude.begin(),
                   [](float v) { return std::fabs(v); });
    const double bound = percentileWindow(magnitude, percent, percent).level;
    return {2.0 * std::max(bound, 1e-12), 0.0};
}

std::array<float, 2> finiteRange(const std::vector<float>& values) {
    bool any = false;
    std::array<float, 2> range{0.0f, 0.0f};
    for (float v : values) {
        if (!std::isfinite(v)) continue;
        if (!any) range = {v, v};
        range[0] = std::min(range[0], v);
        range[1] = std::max(range[1], v);
        any = true;
    }
    return range;
}

}  // namespace tomo::ui
