#pragma once
/// @file ColorMap.h
/// @brief Mapping float images to 8-bit colour for display: window/level, colour maps and a
/// percentile-based automatic window.
///
/// A window/level pair (width W, centre L, both in the image's own units, e.g. attenuation per
/// mm) maps a value v to t = (v - (L - W/2)) / W clamped to [0, 1]; the grey map shows
/// round(255 t) in every channel, so L - W/2 is black and L + W/2 is white. Non-finite values
/// show as black. The functions are pure and thread-safe.

#include <array>
#include <cstdint>
#include <vector>

#include <QImage>
#include <QString>

#include "core/data/Array.h"

namespace tomo::ui {

/// Window width and level (centre), in image units. A width <= 0 is treated as the smallest
/// positive float, i.e. a hard threshold at the level.
struct WindowLevel {
    double width = 1.0;
    double level = 0.5;
    double low() const { return level - 0.5 * width; }
    double high() const { return level + 0.5 * width; }
};

enum class ColorMap {
    Grey,     ///< black to white
    Inferno,  ///< perceptually uniform black-purple-orange-yellow (matplotlib's "inferno")
};

/// "grey" / "inferno".
QString colorMapName(ColorMap map);

/// The 8-bit grey level of @p value under @p wl: round(255 * clamp(t, 0, 1)), 0 for NaN/Inf.
std::uint8_t greyLevel(float value, const WindowLevel& wl);

/// The RGB colour (0xffRRGGBB) of a normalised position t in [0, 1] for @p map.
/// Inferno is a piecewise-linear interpolation of 11 samples of matplotlib's table (t = 0, 0.1,
/// ..., 1), accurate to a few levels per channel.
std::uint32_t colorAt(ColorMap map, double t);

/// Renders @p image (rows x cols floats) to a QImage of the same size (Format_RGB32).
QImage renderImage(View2<const float> image, const WindowLevel& wl, ColorMap map);

/// The window covering the [lowPercent, highPercent] percentiles of the finite values of
/// @p values (percent in [0, 100]); a constant image gets width 1 around its value. An empty or
/// all-NaN input gives the default window (width 1, level 0.5).
WindowLevel percentileWindow(const std::vector<float>& values, double lowPercent = 0.5,
                             double highPercent = 99.5);

/// a - b, densely stored (rows x cols); empty when the shapes differ.
std::vector<float> differenceImage(View2<const float> a, View2<const float> b);

/// The window of a difference image: centred on 0 (mid-grey = equal), spanning +- the
/// @p percent percentile of |difference| (at least +- 1e-12).
WindowLevel symmetricWindow(const std::vector<float>& difference, double percent);

/// Minimum and maximum finite value ({0, 0} when none).
std::array<float, 2> finiteRange(const std::vector<float>& values);

}  // namespace tomo::ui
