#include "core/solvers/LCurve.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "core/base/JsonValue.h"
#include "core/io/AtomicFile.h"

namespace tomo {
namespace {

std::string formatNumber(double v) {
    char buf[32];
    std::snprintf(buf, sizeof(buf), "%.9g", v);
    return buf;
}

Status writeText(const std::string& path, const std::string& text) {
    TOMO_ASSIGN_OR_RETURN(AtomicFile file, AtomicFile::create(path));
    TOMO_RETURN_IF_ERROR(file.write(text.data(), text.size()));
    return file.commit();
}

}  // namespace

std::vector<LCurvePoint> lcurveFromHistory(std::span<const IterationInfo> history) {
    std::vector<LCurvePoint> points;
    points.reserve(history.size());
    for (const IterationInfo& info : history)
        points.push_back(
            {double(info.iteration), info.residualNorm, info.solutionNorm, info.error});
    return points;
}

Result<std::size_t> lcurveCorner(std::span<const LCurvePoint> points) {
    if (points.size() < 3)
        return invalidArgument("L-curve corner: " + std::to_string(points.size()) +
                               " points (at least 3 needed)");
    for (const LCurvePoint& p : points)
        if (!(p.residualNorm > 0) || !(p.solutionNorm > 0) || !std::isfinite(p.residualNorm) ||
            !std::isfinite(p.solutionNorm))
            return invalidArgument("L-curve corner: non-positive or non-finite norm at parameter " +
                                   formatNumber(p.parameter));
    // Work in log-log coordinates normalised to the unit box, so that the corner does not
    // depend on units; the residual axis is x, the solution axis y.
    const std::size_t n = points.size();
    std::vector<double> xs(n), ys(n);
    for (std::size_t i = 0; i < n; ++i) {
        xs[i] = std::log10(points[i].residualNorm);
        ys[i] = std::log10(points[i].solutionNorm);
    }
    auto normalise = [](std::vector<double>& v) {
        const auto [lo, hi] = std::minmax_element(v.begin(), v.end());
        const double l = *lo, range = *hi - *lo;
        for (double& e : v)
            e = range > 0 ? (e - l) / range : 0.0;
    };
    normalise(xs);
    normalise(ys);
    // The corner is the point farthest from the chord between the end points, on the side of
    // the origin (the lower left of the L): the triangle criterion of J. L. Castellanos,
    // S. Gomez, V. Guerra, Appl. Numer. Math. 43(4), 2002, doi:10.1016/S0168-9274(01)00179-9,
    // in its global form. Unlike the local curvature of three neighbouring points it does not
    // jump to the small zigzags of a noisy or non-monotone tail.
    const double ax = xs.front(), ay = ys.front(), bx = xs.back(), by = ys.back();
    const double length = std::hypot(bx - ax, by - ay);
    if (!(length > 0)) return invalidArgument("L-curve corner: the end points coincide");
    std::size_t best = 0;
    double bestDistance = 0.0;
    for (std::size_t i = 1; i + 1 < n; ++i) {
        // Signed distance, positive on the origin's side of the chord: the origin (0, 0) of the
        // unit box lies on that side.
        const double side = (bx - ax) * (ys[i] - ay) - (by - ay) * (xs[i] - ax);
        const double originSide = (bx - ax) * (0.0 - ay) - (by - ay) * (0.0 - ax);
        const double distance = (originSide < 0 ? -side : side) / length;
        if (distance > bestDistance) {
            bestDistance = distance;
            best = i;
        }
    }
    if (best == 0)
        return invalidArgument(
            "no L-curve corner: the curve bends away from the origin (no point lies below the "
            "chord between its end points). The iterates have not reached the noise-dominated "
            "branch where ||x|| grows fast: run more iterations, or stop by the error against a "
            "reference or by the discrepancy principle");
    return best;
}

Status writeLCurveCsv(const std::string& path, std::span<const LCurvePoint> points,
                      std::optional<std::size_t> corner, std::optional<std::size_t> kept) {
    std::string text = std::string("parameter,residual_norm,solution_norm,error,corner") +
                       (kept ? ",kept\n" : "\n");
    for (std::size_t i = 0; i < points.size(); ++i) {
        const LCurvePoint& p = points[i];
        text += formatNumber(p.parameter) + "," + formatNumber(p.residualNorm) + "," +
                formatNumber(p.solutionNorm) + "," + (p.error ? formatNumber(*p.error) : "") + "," +
                (corner && *corner == i ? "1" : "0") + (kept ? (*kept == i ? ",1" : ",0") : "") +
                "\n";
    }
    return writeText(path, text);
}

Status writeLCurveJson(const std::string& path, std::span<const LCurvePoint> points,
                       std::optional<std::size_t> corner, std::optional<std::size_t> kept) {
    JsonValue root = JsonValue::object();
    JsonValue list = JsonValue::array();
    for (const LCurvePoint& p : points) {
        JsonValue item = JsonValue::object();
        item.set("parameter", JsonValue::number(p.parameter));
        item.set("residual_norm", JsonValue::number(p.residualNorm));
        item.set("solution_norm", JsonValue::number(p.solutionNorm));
        item.set("error", p.error ? JsonValue::number(*p.error) : JsonValue());
        list.push(std::move(item));
    }
    root.set("points", std::move(list));
    root.set("corner", corner ? JsonValue::number(double(*corner)) : JsonValue());
    root.set("corner_parameter", corner && *corner < points.size()
                                     ? JsonValue::number(points[*corner].parameter)
                                     : JsonValue());
    if (kept) {
        root.set("kept", JsonValue::number(double(*kept)));
        root.set("kept_parameter",
                 *kept < points.size() ? JsonValue::number(points[*kept].parameter) : JsonValue());
    }
    return writeText(path, root.dump(2) + "\n");
}

}  // namespace tomo
