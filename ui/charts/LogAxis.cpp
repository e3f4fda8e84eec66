#include "ui/charts/LogAxis.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include <QLogValueAxis>

namespace tomo::ui {

QLogValueAxis* makeLogAxis(const QString& title) {
    auto* axis = new QLogValueAxis;
    axis->setTitleText(title);
    axis->setBase(10);
    axis->setLabelFormat(QStringLiteral("%.2g"));
    return axis;
}

void fitLogAxis(QLogValueAxis* axis, const std::vector<double>& values) {
    double lo = std::numeric_limits<double>::max(), hi = 0;
    for (double v : values)
        if (v > 0 && std::isfinite(v)) {
            lo = std::min(lo, v);
            hi = std::max(hi, v);
        }
    if (hi <= 0) return;
    lo /= 1.2;
    hi *= 1.2;
    const double decades = std::log10(hi / lo);
    axis->setBase(decades >= 2.0 ? 10.0 : std::pow(hi / lo, 0.25));
    axis->setLabelFormat(decades >= 2.0 ? QStringLiteral("%.0e") : QStringLiteral("%.3g"));
    axis->setRange(lo, hi);
}

}  // namespace tomo::ui
