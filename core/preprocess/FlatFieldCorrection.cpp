#include "core/preprocess/FlatFieldCorrection.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>

#include "core/base/Parallel.h"
#include "core/preprocess/PreprocessSupport.h"

namespace tomo {

Status FlatFieldOptions::validate() const {
    if (!(minDenominator > 0.f) || !std::isfinite(minDenominator))
        return invalidArgument("flat field: the minimum denominator must be positive (got " +
                               std::to_string(minDenominator) + ")");
    for (double v : projectionPositions)
        if (!std::isfinite(v)) return invalidArgument("flat field: a projection position is not finite");
    for (double v : flatPositions)
        if (!std::isfinite(v)) return invalidArgument("flat field: a flat position is not finite");
    return Status::ok();
}

Result<Array3<float>> averageFrames(const Array3<float>& frames) {
    if (frames.dim(0) == 0 || frames.dim(1) == 0 || frames.dim(2) == 0)
        return invalidArgument("cannot average an empty stack of frames (" + shapeText(frames) + ")");
    TOMO_ASSIGN_OR_RETURN(Array3<float> out, Array3<float>::create(1, frames.dim(1), frames.dim(2)));
    std::vector<double> acc(frames.dim(2));
    const double inv = 1.0 / static_cast<double>(frames.dim(0));
    for (std::size_t r = 0; r < frames.dim(1); ++r) {
        std::fill(acc.begin(), acc.end(), 0.0);
        for (std::size_t f = 0; f < frames.dim(0); ++f) {
            auto row = frames.row(f, r);
            for (std::size_t c = 0; c < acc.size(); ++c)
                acc[c] += row[c];
        }
        auto dst = out.row(0, r);
        for (std::size_t c = 0; c < acc.size(); ++c)
            dst[c] = static_cast<float>(acc[c] * inv);
    }
    return out;
}

Result<std::vector<FlatReference>> groupFlats(const Array3<float>& flats,
                                              const std::vector<double>& flatPositions,
                                              const std::vector<double>& projectionPositions) {
    const std::size_t n = flats.dim(0);
    if (n == 0)
        return invalidData("no flat fields: flat/dark normalisation needs at least one flat frame");
    std::vector<FlatReference> refs;
    if (flatPositions.empty()) {
        TOMO_ASSIGN_OR_RETURN(Array3<float> avg, averageFrames(flats));
        refs.push_back({std::move(avg), 0.0});
        return refs;
    }
    if (flatPositions.size() != n)
        return invalidArgument("flat field: " + std::to_string(flatPositions.size()) +
                               " flat positions given for " + std::to_string(n) + " flat frames");
    for (double v : flatPositions)
        if (!std::isfinite(v)) return invalidArgument("flat field: a flat position is not finite");
    std::vector<std::size_t> order(n);
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return flatPositions[a] < flatPositions[b]; });
    std::vector<double> sortedProj = projectionPositions;
    std::sort(sortedProj.begin(), sortedProj.end());
    auto projectionBetween = [&](double a, double b) {
        auto it = std::upper_bound(sortedProj.begin(), sortedProj.end(), a);
        return it != sortedProj.end() && *it < b;
    };
    std::size_t start = 0;
    while (start < n) {
        std::size_t end = start + 1;
        while (end < n && !projectionBetween(flatPositions[order[end - 1]], flatPositions[order[end]]))
            ++end;
        TOMO_ASSIGN_OR_RETURN(Array3<float> group,
                              Array3<float>::create(end - start, flats.dim(1), flats.dim(2)));
        double pos = 0;
        for (std::size_t i = start; i < end; ++i) {
            pos += flatPositions[order[i]];
            for (std::size_t r = 0; r < flats.dim(1); ++r)
                std::copy_n(flats.row(order[i], r).data(), flats.dim(2), group.row(i - start, r).data());
        }
        TOMO_ASSIGN_OR_RETURN(Array3<float> avg, averageFrames(group));
        refs.push_back({std::move(avg), pos / static_cast<double>(end - start)});
        start = end;
    }
    return refs;
}

Result<FlatFieldSummary> correctFlatField(Array3<float>& projections, const Array3<float>& flats,
                                          const Array3<float>& darks,
                                          const FlatFieldOptions& options, const ExecContext& ctx) {
    TOMO_RETURN_IF_ERROR(options.validate());
    const std::size_t np = projections.dim(0), rows = projections.dim(1), cols = projections.dim(2);
    if (projections.empty())
        return invalidArgument("flat field: no projections (" + shapeText(projections) + ")");
    if (flats.dim(0) == 0)
        return invalidData("no flat fields: flat/dark normalisation needs at least one flat frame");
    if (flats.dim(1) != rows || flats.dim(2) != cols)
        return invalidArgument("flat field: flats " + shapeText(flats) +
                               " do not match the projections " + shapeText(projections));
    if (darks.dim(0) != 0 && (darks.dim(1) != rows || darks.dim(2) != cols))
        return invalidArgument("flat field: darks " + shapeText(darks) +
                               " do not match the projections " + shapeText(projections));
    if (!options.projectionPositions.empty() && options.projectionPositions.size() != np)
        return invalidArgument("flat field: " + std::to_string(options.projectionPositions.size()) +
                               " projection positions given for " + std::to_string(np) +
                               " projections");
    TOMO_RETURN_IF_ERROR(checkAllFinite(projections, "projections"));
    TOMO_RETURN_IF_ERROR(checkAllFinite(flats, "flats"));
    TOMO_RETURN_IF_ERROR(checkAllFinite(darks, "darks"));

    std::vector<double> projPos = options.projectionPositions;
    if (projPos.empty()) {
        projPos.resize(np);
        std::iota(projPos.begin(), projPos.end(), 0.0);
    }
    TOMO_ASSIGN_OR_RETURN(std::vector<FlatReference> refs,
                          groupFlats(flats, options.flatPositions, projPos));
    TOMO_ASSIGN_OR_RETURN(Array3<float> dark, Array3<float>::create(1, rows, cols));
    if (darks.dim(0) != 0) {
        TOMO_ASSIGN_OR_RETURN(dark, averageFrames(darks));
    }
    // References become F - D; each must be above the dark somewhere.
    const float minDen = options.minDenominator;
    for (std::size_t k = 0; k < refs.size(); ++k) {
        std::size_t good = 0;
        for (std::size_t r = 0; r < rows; ++r) {
            auto f = refs[k].image.row(0, r);
            auto d = dark.row(0, r);
            for (std::size_t c = 0; c < cols; ++c) {
                f[c] -= d[c];
                good += f[c] > minDen ? 1 : 0;
            }
        }
        if (good == 0)
            return invalidData("flat field: flat reference " + std::to_string(k) + " (position " +
                               std::to_string(refs[k].position) +
                               ") is not above the dark at any pixel: zero or missing flats");
    }

    FlatFieldSummary summary;
    summary.flatReferences = refs.size();
    std::vector<std::size_t> clamped(np, 0);
    std::vector<char> twoRefs(np, 0);
    if (ctx.progress) ctx.progress->setTotal(np);
    Status st = parallelFor(np, ctx.threads, ctx.stop, [&](std::size_t p, int) {
        // Bracketing references and the weight of the later one.
        std::size_t a = 0, b = 0;
        double w = 0;
        const double x = projPos[p];
        if (refs.size() > 1) {
            if (x <= refs.front().position) {
                a = b = 0;
            } else if (x >= refs.back().position) {
                a = b = refs.size() - 1;
            } else {
                b = 1;
                while (refs[b].position < x)
                    ++b;
                a = b - 1;
                w = (x - refs[a].position) / (refs[b].position - refs[a].position);
                twoRefs[p] = 1;
            }
        }
        const float wa = static_cast<float>(1.0 - w), wb = static_cast<float>(w);
        std::size_t count = 0;
        for (std::size_t r = 0; r < rows; ++r) {
            auto v = projections.row(p, r);
            auto fa = refs[a].image.row(0, r);
            auto fb = refs[b].image.row(0, r);
            auto d = dark.row(0, r);
            for (std::size_t c = 0; c < cols; ++c) {
                float den = wa * fa[c] + wb * fb[c];
                if (!(den > minDen)) {
                    den = minDen;
                    ++count;
                }
                v[c] = (v[c] - d[c]) / den;
            }
        }
        clamped[p] = count;
        if (ctx.progress) ctx.progress->advance();
    });
    TOMO_RETURN_IF_ERROR(st);
    for (std::size_t p = 0; p < np; ++p) {
        summary.clampedDenominators += clamped[p];
        summary.interpolated = summary.interpolated || twoRefs[p] != 0;
    }
    return summary;
}

Result<MinusLogSummary> minusLog(Array3<float>& data, float epsilon, const ExecContext& ctx) {
    if (!(epsilon > 0.f) || !std::isfinite(epsilon))
        return invalidArgument("minus-log: epsilon must be positive and finite (got " +
                               std::to_string(epsilon) + ")");
    const std::size_t planes = data.dim(0);
    std::vector<std::size_t> clamped(planes, 0);
    const float logEps = -std::log(epsilon);
    if (ctx.progress) ctx.progress->setTotal(planes);
    TOMO_RETURN_IF_ERROR(parallelFor(planes, ctx.threads, ctx.stop, [&](std::size_t i, int) {
        std::size_t count = 0;
        View2<float> plane = data.plane(i);
        for (std::size_t r = 0; r < plane.rows(); ++r)
            for (float& v : plane.row(r)) {
                if (v > epsilon && std::isfinite(v)) {
                    v = -std::log(v);
                } else {
                    v = logEps;
                    ++count;
                }
            }
        clamped[i] = count;
        if (ctx.progress) ctx.progress->advance();
    }));
    MinusLogSummary s;
    for (std::size_t c : clamped)
        s.clampedValues += c;
    return s;
}

}  // namespace tomo
