#pragma once
// Helpers shared by the projector tests: geometries, random inputs, exact comparison.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "TestUtil.h"
#include "core/geometry/ParallelGeometry.h"

namespace tomo::test {

/// Unwraps a Result in a test (fails the test on error).
template <class T>
T unwrap(Result<T> r) {
    EXPECT_TRUE(r.isOk()) << r.status().toString();
    return std::move(r).value();
}

/// An awkward geometry: random angles over [0, 2 pi), non-default centre of rotation with
/// per-projection corrections, detector pitch != voxel size, and an offset grid whose corners
/// project beyond the detector (so the zero padding and the edge fade are exercised).
inline ParallelGeometry awkwardGeometry(int angles, int detectors, std::uint32_t seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> angle(0.0, 2.0 * kPi), corr(-0.6, 0.6);
    ParallelGeometry::Params p;
    for (int i = 0; i < angles; ++i)
        p.angles.push_back(angle(rng));
    p.angles[0] = 0.0;  // one exactly axis-aligned projection
    p.detectorCount = detectors;
    p.detectorPitch = 1.3;
    p.centerOfRotation = 0.5 * (detectors - 1) + 1.37;
    for (int i = 0; i < angles; ++i)
        p.centerCorrection.push_back(corr(rng));
    return unwrap(ParallelGeometry::create(p));
}

inline VolumeGeometry awkwardGrid(int nx, int ny, int nz) {
    VolumeGeometry v;
    v.nx = nx;
    v.ny = ny;
    v.nz = nz;
    v.voxelSize = 1.4;
    v.offsetX = 1.7;
    v.offsetY = -2.3;
    return v;
}

inline std::vector<float> randomWeights(int count, std::uint32_t seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> dist(0.2f, 1.5f);
    std::vector<float> w(static_cast<std::size_t>(count));
    for (float& v : w)
        v = dist(rng);
    return w;
}

/// True when the logical elements of @p a and @p b are bit-identical.
inline bool bitIdentical(const Array3<float>& a, const Array3<float>& b) {
    if (a.dims() != b.dims()) return false;
    for (std::size_t r = 0; r < a.dim(0) * a.dim(1); ++r)
        if (std::memcmp(a.rows().row(r).data(), b.rows().row(r).data(), a.dim(2) * sizeof(float)))
            return false;
    return true;
}

}  // namespace tomo::test
