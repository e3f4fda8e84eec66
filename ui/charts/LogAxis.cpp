#include "ui/charts/LogAxis.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include <QLogValueAxis>
#include <QValueAxis>

namespace tomo::ui {

QLogValueAxis* makeLogAxis(const QString& title) {
    auto* axis = new QLogValueAxis;
    axis->setTitleText(title);
    resetLogAxis(axis);
    return axis;
}

void resetLogAxis(QLogValueAxis* axis) {
    axis->setBase(10);
    axis->setLabelFormat(QStringLiteral("%.2g"));
    axis->setRange(1e-3, 1e3);
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
    // Within two decades, three digits; two below 1, so that "0.837" (five characters, elided
    // in a low dock) reads "0.84" (an MBIR cost from the multi-resolution start spans 0.6-1.2).
    axis->setLabelFormat(decades >= 2.0 ? QStringLiteral("%.0e")
                         : lo < 1.0     ? QStringLiteral("%.2g")
                                        : QStringLiteral("%.3g"));
    axis->setRange(lo, hi);
}

void fitIterationAxis(QValueAxis* axis, double last, double least) {
    const double span = std::max({last, least, 1.0});
    double step = 1;
    for (double decade = 1;; decade *= 10) {
        for (double m : {1.0, 2.0, 5.0})
            if (span / (m * decade) <= 6) {
                step = m * decade;
                break;
            }
        if (span / step <= 6) break;
    }
    axis->setTickType(QValueAxis::TicksDynamic);
    axis->setTickAnchor(0);
    axis->setTickInterval(step);
    axis->setLabelFormat(QStringLiteral("%d"));
    axis->setRange(0, std::ceil(span / step) * step);
}

}  // namespace tomo::ui
