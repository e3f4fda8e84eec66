// Tiles and their segments of sample lines for the gather (GatherPlan.h).
#include "core/fourier/GatherPlan.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

namespace tomo {
namespace {

/// Segments of one view under one periodic shift, appended as (tile index, segment).
void addLine(const FourierPlan& plan, const GatherPlan& gp, int view, int shiftX, int shiftY,
             std::vector<std::pair<std::uint32_t, GatherSegment>>& out) {
    const GatherView v = gp.views[static_cast<std::size_t>(view)];
    const int half = plan.rowLength() / 2;
    const double reach = 0.5 * plan.kernel().width() + 1.0;
    const double cx = 0.5 * plan.gridX() - double(shiftX) * plan.gridX();
    const double cy = 0.5 * plan.gridY() - double(shiftY) * plan.gridY();
    for (int ty = 0; ty < gp.tilesY; ++ty) {
        int k0 = -half, k1 = half;
        gatherRange(ty * gp.tile - reach, (ty + 1) * gp.tile + reach, cy, v.uy, k0, k1);
        if (k0 > k1) continue;
        const double xa = cx + k0 * v.ux, xb = cx + k1 * v.ux;
        const int txFirst =
            std::max(0, static_cast<int>(std::floor((std::min(xa, xb) - reach) / gp.tile)));
        const int txLast = std::min(
            gp.tilesX - 1, static_cast<int>(std::floor((std::max(xa, xb) + reach) / gp.tile)));
        for (int tx = txFirst; tx <= txLast; ++tx) {
            int a = k0, b = k1;
            gatherRange(tx * gp.tile - reach, (tx + 1) * gp.tile + reach, cx, v.ux, a, b);
            if (a > b) continue;
            GatherSegment s;
            s.view = view;
            s.kFirst = a;
            s.kLast = b;
            s.shiftX = static_cast<short>(shiftX);
            s.shiftY = static_cast<short>(shiftY);
            out.emplace_back(static_cast<std::uint32_t>(ty * gp.tilesX + tx), s);
        }
    }
}

/// The whole-grid shifts under which a line of extent |u| L/2 around the centre can reach the
/// grid (positions periodic in @p m).
std::pair<int, int> shifts(double u, int half, int m, double reach) {
    const double extent = std::abs(u) * half + reach;
    return {static_cast<int>(std::floor((0.5 * m - extent) / m)),
            static_cast<int>(std::floor((0.5 * m + extent) / m))};
}

}  // namespace

Result<GatherPlan> GatherPlan::create(const FourierPlan& plan, int tile) {
    if (tile < 4 || tile > 64)
        return invalidArgument("gather tile of " + std::to_string(tile) +
                               " points is outside [4, 64]");
    GatherPlan gp;
    gp.tile = tile;
    gp.tilesX = (plan.gridX() + tile - 1) / tile;
    gp.tilesY = (plan.gridY() + tile - 1) / tile;
    for (const FourierPlan::View& v : plan.views())
        gp.views.push_back({v.ux, v.uy, gatherReciprocal(v.ux), gatherReciprocal(v.uy)});
    const auto c = plan.kernel().coefficients();
    gp.coefficients.assign(c.begin(), c.end());
    std::vector<std::pair<std::uint32_t, GatherSegment>> found;
    const int half = plan.rowLength() / 2;
    const double reach = 0.5 * plan.kernel().width() + 1.0;
    for (int p = 0; p < static_cast<int>(gp.views.size()); ++p) {
        const GatherView v = gp.views[static_cast<std::size_t>(p)];
        const auto [ax, bx] = shifts(v.ux, half, plan.gridX(), reach);
        const auto [ay, by] = shifts(v.uy, half, plan.gridY(), reach);
        for (int sy = ay; sy <= by; ++sy)
            for (int sx = ax; sx <= bx; ++sx)
                addLine(plan, gp, p, sx, sy, found);
    }
    // Counting sort by tile, stable: each tile's segments stay in view order.
    const std::size_t tiles = static_cast<std::size_t>(gp.tilesX) * gp.tilesY;
    gp.tileStart.assign(tiles + 1, 0);
    for (const auto& f : found)
        ++gp.tileStart[f.first + 1];
    for (std::size_t t = 0; t < tiles; ++t)
        gp.tileStart[t + 1] += gp.tileStart[t];
    gp.segments.resize(found.size());
    std::vector<std::uint32_t> next(gp.tileStart.begin(), gp.tileStart.end() - 1);
    for (const auto& f : found)
        gp.segments[next[f.first]++] = f.second;
    return gp;
}

GatherGeometry GatherPlan::geometry(const FourierPlan& plan, int kMin, int kFirst,
                                    int stride) const {
    GatherGeometry g;
    g.gridX = plan.gridX();
    g.gridY = plan.gridY();
    g.width = plan.kernel().width();
    g.degree = plan.kernel().degree();
    g.kMin = kMin;
    g.kFirst = kFirst;
    g.stride = stride;
    g.coefficients = coefficients.data();
    return g;
}

void GatherPlan::gatherAll(const FourierPlan& plan, const GatherGeometry& g, const float* samples,
                           float* grid) const {
    for (int gy = 0; gy < plan.gridY(); ++gy)
        for (int gx = 0; gx < plan.gridX(); ++gx) {
            const std::size_t t = static_cast<std::size_t>(gy / tile) * tilesX + gx / tile;
            float re = 0, im = 0;
            for (std::uint32_t s = tileStart[t]; s < tileStart[t + 1]; ++s)
                gatherSegment(g, views.data(), samples, segments[s], gx, gy, re, im);
            float* out = grid + 2 * (static_cast<std::size_t>(gy) * plan.gridX() + gx);
            out[0] = re;
            out[1] = im;
        }
}

}  // namespace tomo
