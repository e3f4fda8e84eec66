#include "core/cone/ConeScalingModel.h"

#include <algorithm>

namespace tomo {
namespace {

/// @p amount / @p rate, or 0 when the rate is 0 (the stage does not exist).
double over(double amount, double rate) {
    return rate > 0 ? amount / rate : 0.0;
}

}  // namespace

ConeModelTimes coneModel(const ConeProblem& p, const ConeRankGrid& grid,
                         const ConeModelConstants& k) {
    const double r = grid.rows, c = grid.columns, np = p.np;
    const double volume = 4.0 * static_cast<double>(p.voxels());
    const double view = 4.0 * static_cast<double>(p.viewPixels());
    const double perNode = std::max(1, k.ranksPerNode);
    const double links = k.pcieBytesPerSecond * std::max(1, k.pcieLinks);
    ConeModelTimes t;
    t.load = over(view * np, k.loadBytesPerSecond);
    t.filter = over(np * perNode, c * r * k.filterViewsPerSecond);
    t.allgather = over(view * (np / c) * (r - 1) / r, k.allgatherBytesPerSecond);
    t.h2d = over(view * perNode * np, c * links);
    t.backProject = t.h2d + over(static_cast<double>(p.voxels()) / r * (np / c),
                                 k.backProjectGups * 1073741824.0);
    t.transpose = over(volume / r, k.transposeBytesPerSecond);
    t.d2h = over(volume * perNode / r, links);
    t.reduce = grid.columns > 1 ? over(volume / r, k.reduceBytesPerSecond) : 0.0;
    t.store = over(volume, k.storeBytesPerSecond);
    t.compute = std::max({t.load, t.filter, t.allgather, t.backProject});
    t.post = t.transpose + t.d2h + t.reduce + t.store;
    t.runtime = t.compute + t.post;
    t.sequential = t.load + t.filter + t.allgather + t.backProject + t.post;
    t.gups = over(static_cast<double>(p.voxels()) * np, t.runtime * 1073741824.0);
    return t;
}

}  // namespace tomo
