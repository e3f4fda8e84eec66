#pragma once
// A small tomography problem on the matched Joseph pair shared by the solver tests.
#include <memory>
#include <random>
#include <vector>

#include "core/locality/JosephOperator.h"

namespace tomo::test {

struct SmallProblem {
    std::unique_ptr<JosephOperator> op;
    VolumeGeometry vol;
    std::vector<float> truth;  ///< a disc with an off-centre square
    std::vector<float> data;   ///< A truth (consistent)
};

/// n x n image, @p angles over 180 degrees, ceil(1.5 n) detectors of pitch 1.
inline SmallProblem makeSmallProblem(int n, int angles) {
    SmallProblem p;
    ParallelGeometry::Params gp;
    gp.angles = uniformAngles(0, kPi, angles);
    gp.detectorCount = (3 * n + 1) / 2;
    auto geom = ParallelGeometry::create(gp);
    p.vol = VolumeGeometry{n, n, 1, 1.0};
    p.op = std::move(JosephOperator::create(*geom, p.vol)).value();
    p.truth.assign(std::size_t(n) * std::size_t(n), 0.f);
    for (int iy = 0; iy < n; ++iy)
        for (int ix = 0; ix < n; ++ix) {
            const double x = p.vol.x(ix), y = p.vol.y(iy), r = 0.4 * n;
            float v = x * x + y * y < r * r ? 0.5f : 0.f;
            if (std::abs(x - 0.1 * n) < 0.1 * n && std::abs(y + 0.1 * n) < 0.08 * n) v += 0.5f;
            p.truth[std::size_t(iy) * std::size_t(n) + std::size_t(ix)] = v;
        }
    p.data.assign(p.op->rangeSize(), 0.f);
    (void)p.op->forward(p.truth, p.data, {});
    return p;
}

inline std::vector<float> randomVector(std::size_t n, unsigned seed, float lo = 0.f,
                                       float hi = 1.f) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> dist(lo, hi);
    std::vector<float> v(n);
    for (float& e : v)
        e = dist(rng);
    return v;
}

}  // namespace tomo::test
