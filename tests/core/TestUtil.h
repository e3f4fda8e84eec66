#pragma once
// Small helpers shared by the core tests.
#include <cstdint>
#include <random>

#include "core/data/Array.h"

namespace tomo::test {

/// Fills an array with uniform random values in [lo, hi) from a fixed seed.
inline void fillRandom(Array3<float>& a, std::uint32_t seed, float lo = -1.f, float hi = 1.f) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> dist(lo, hi);
    for (std::size_t r = 0; r < a.dim(0) * a.dim(1); ++r)
        for (float& v : a.rows().row(r))
            v = dist(rng);
}

/// Sum over logical elements of a*b in double.
double dot(const Array3<float>& a, const Array3<float>& b);

/// max |a-b| / max |b| over logical elements.
double maxRelDiff(const Array3<float>& a, const Array3<float>& b);

}  // namespace tomo::test
