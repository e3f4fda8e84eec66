#include "ui/views/TransferFunction.h"

#include <algorithm>

namespace tomo::ui {

QString transferPresetName(TransferPreset preset) {
    switch (preset) {
        case TransferPreset::GreyRamp:
            return QStringLiteral("grey ramp");
        case TransferPreset::Bone:
            return QStringLiteral("bone");
        case TransferPreset::SoftTissue:
            return QStringLiteral("soft tissue");
    }
    return QStringLiteral("grey ramp");
}

TransferFunction TransferFunction::preset(TransferPreset preset, double low, double high) {
    auto at = [&](double fraction) { return low + fraction * (high - low); };
    TransferFunction tf;
    switch (preset) {
        case TransferPreset::GreyRamp:
            tf.opacity = {{at(0.0), 0.0}, {at(1.0), 0.8}};
            tf.colors = {{at(0.0), QColor(0, 0, 0)}, {at(1.0), QColor(255, 255, 255)}};
            break;
        case TransferPreset::Bone:
            tf.opacity = {{at(0.0), 0.0}, {at(0.45), 0.0}, {at(0.75), 0.9}, {at(1.0), 1.0}};
            tf.colors = {{at(0.0), QColor(0, 0, 0)},
                         {at(0.45), QColor(140, 82, 40)},
                         {at(0.75), QColor(235, 215, 180)},
                         {at(1.0), QColor(255, 255, 245)}};
            break;
        case TransferPreset::SoftTissue:
            tf.opacity = {
                {at(0.0), 0.0}, {at(0.15), 0.0}, {at(0.3), 0.35}, {at(0.5), 0.05}, {at(1.0), 0.1}};
            tf.colors = {{at(0.0), QColor(0, 0, 0)},
                         {at(0.3), QColor(200, 90, 70)},
                         {at(0.6), QColor(240, 180, 150)},
                         {at(1.0), QColor(255, 255, 255)}};
            break;
    }
    return tf;
}

namespace {

/// Index i such that points[i].value <= value < points[i+1].value, for interior values.
template <class P>
std::size_t segment(const std::vector<P>& points, double value) {
    auto it = std::upper_bound(points.begin(), points.end(), value,
                               [](double v, const P& p) { return v < p.value; });
    return static_cast<std::size_t>(it - points.begin()) - 1;
}

}  // namespace

double TransferFunction::opacityAt(double value) const {
    if (opacity.empty()) return 0.0;
    if (value <= opacity.front().value) return opacity.front().opacity;
    if (value >= opacity.back().value) return opacity.back().opacity;
    std::size_t i = segment(opacity, value);
    const OpacityPoint& a = opacity[i];
    const OpacityPoint& b = opacity[i + 1];
    double t = b.value > a.value ? (value - a.value) / (b.value - a.value) : 0.0;
    return a.opacity + t * (b.opacity - a.opacity);
}

QColor TransferFunction::colorAt(double value) const {
    if (colors.empty()) return QColor(0, 0, 0);
    if (value <= colors.front().value) return colors.front().color;
    if (value >= colors.back().value) return colors.back().color;
    std::size_t i = segment(colors, value);
    const ColorPoint& a = colors[i];
    const ColorPoint& b = colors[i + 1];
    double t = b.value > a.value ? (value - a.value) / (b.value - a.value) : 0.0;
    return QColor::fromRgbF(
        static_cast<float>(a.color.redF() + t * (b.color.redF() - a.color.redF())),
        static_cast<float>(a.color.greenF() + t * (b.color.greenF() - a.color.greenF())),
        static_cast<float>(a.color.blueF() + t * (b.color.blueF() - a.color.blueF())));
}

void TransferFunction::sort() {
    std::stable_sort(
        opacity.begin(), opacity.end(),
        [](const OpacityPoint& a, const OpacityPoint& b) { return a.value < b.value; });
    std::stable_sort(colors.begin(), colors.end(),
                     [](const ColorPoint& a, const ColorPoint& b) { return a.value < b.value; });
}

}  // namespace tomo::ui
