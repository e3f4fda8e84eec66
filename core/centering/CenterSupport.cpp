#include "core/centering/CenterSupport.h"

#include <algorithm>
#include <cmath>

#include "core/centering/CenterOfRotation.h"

namespace tomo {

Status checkSinogram(View2<const float> sino, std::span<const double> angles, std::size_t minRows,
                     std::size_t minCols, const std::string& method) {
    if (sino.rows() < minRows || sino.cols() < minCols)
        return invalidArgument(method + ": the sinogram " + std::to_string(sino.rows()) + "x" +
                               std::to_string(sino.cols()) + " is smaller than the " +
                               std::to_string(minRows) + "x" + std::to_string(minCols) + " needed");
    if (angles.size() != sino.rows())
        return invalidArgument(method + ": " + std::to_string(angles.size()) + " angles given for " +
                               std::to_string(sino.rows()) + " projections");
    for (double a : angles)
        if (!std::isfinite(a)) return invalidArgument(method + ": an angle is not finite");
    for (std::size_t r = 0; r < sino.rows(); ++r)
        for (float v : sino.row(r))
            if (!std::isfinite(v))
                return invalidData(method + ": the sinogram has a non-finite value in row " +
                                   std::to_string(r));
    return Status::ok();
}

Result<SearchRange> resolveSearch(double center, double radius, std::size_t width,
                                  const std::string& method) {
    const double w = static_cast<double>(width);
    SearchRange s;
    s.center = std::isnan(center) ? 0.5 * (w - 1) : center;
    s.radius = radius > 0 ? radius : std::max(4.0, w / 8);
    if (!std::isfinite(s.center) || !std::isfinite(s.radius) || radius < 0)
        return invalidArgument(method + ": the search centre and radius must be finite, radius >= 0");
    if (s.center - s.radius < 0 || s.center + s.radius > w - 1)
        return invalidArgument(method + ": the search range [" + std::to_string(s.center - s.radius) +
                               ", " + std::to_string(s.center + s.radius) +
                               "] leaves the detector [0, " + std::to_string(w - 1) + "]");
    return s;
}

double minimumConfidence(std::span<const double> x, std::span<const double> metric, double exclusion) {
    const std::size_t n = metric.size();
    if (n < 3 || x.size() != n) return 0;
    const auto best = static_cast<std::size_t>(std::min_element(metric.begin(), metric.end()) - metric.begin());
    if (best == 0 || best == n - 1) return 0;
    const double lo = metric[best], hi = *std::max_element(metric.begin(), metric.end());
    if (!(hi > lo)) return 0;
    double second = hi;
    for (std::size_t i = 1; i + 1 < n; ++i)
        if (std::fabs(x[i] - x[best]) > exclusion && metric[i] <= metric[i - 1] &&
            metric[i] <= metric[i + 1])
            second = std::min(second, metric[i]);
    return std::clamp((second - lo) / (hi - lo), 0.0, 1.0);
}

}  // namespace tomo

namespace tomo {

double parabolicMinimum(std::span<const double> x, std::span<const double> y, std::size_t i) {
    if (i == 0 || i + 1 >= y.size()) return x[i];
    const double den = y[i - 1] - 2 * y[i] + y[i + 1];
    if (!(den > 0)) return x[i];
    const double h = x[i + 1] - x[i];
    const double off = std::clamp(0.5 * (y[i - 1] - y[i + 1]) / den, -1.0, 1.0);
    return x[i] + off * h;
}

}  // namespace tomo
