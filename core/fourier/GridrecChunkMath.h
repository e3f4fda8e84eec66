#pragma once
/// @file GridrecChunkMath.h
/// @brief The per-element arithmetic of gridrec's CUDA kernels besides the gather
/// (gpu/cuda/fourier/GridrecKernels.cu; the gather is GatherMath.h): which sinogram rows a row
/// transform holds, each sample from the transformed rows, and where an output pixel comes
/// from. Compiled by nvcc for the kernels and by g++ for the CPU emulation of a whole chunk in
/// the tests (tests/core/fourier/GridrecChunkTest.cpp, against the CPU gridrec), so the
/// indexing the GPU runs is the indexing the CPU tests check. No CUDA types: a complex value is
/// two floats.
///
/// A chunk holds G groups: pairs of slices (2q, 2q + 1), and at most one single slice last.
/// Dense buffers: sinograms [S][views][detectors]; rows [G][views][L] (a pair's a + i b per
/// view; a single slice's views 2p, 2p + 1 in row p, rows views/2.. zero); samples
/// [G][views][sampleStride] from k = kFirst (pairs: -L/2, L + 1 values; single: 0, L/2 + 1);
/// grids [G][My][Mx]; images [S][ny][nx] (FourierPlan.h for the quantities).

#include <cmath>

#include "core/fourier/GatherMath.h"

namespace tomo {

/// The shape of one chunk.
struct GridrecChunk {
    int groups = 0;           ///< G
    bool lastSingle = false;  ///< the last group is one slice
    int views = 0, detectors = 0, rowLength = 0;
    int sampleStride = 0;  ///< complex values per view's samples
    int gridX = 0, gridY = 0, nx = 0, ny = 0;
    bool half = false;  ///< sinograms and images are binary16
};

TOMO_HOST_DEVICE inline bool gridrecSingle(const GridrecChunk& c, int q) {
    return c.lastSingle && q == c.groups - 1;
}

/// The sinogram rows of row @p p of group @p q as element offsets into the chunk's sinograms
/// (real part @p a, imaginary part @p b; -1: zeros): a pair's slices 2q and 2q + 1 at view p,
/// a single slice's views 2p and 2p + 1.
TOMO_HOST_DEVICE inline void gridrecRowSource(const GridrecChunk& c, int q, int p, long long& a,
                                              long long& b) {
    const bool single = gridrecSingle(c, q);
    const long long plane = static_cast<long long>(c.views) * c.detectors;
    const int viewA = single ? 2 * p : p, viewB = single ? 2 * p + 1 : p;
    const int sliceB = single ? 2 * q : 2 * q + 1;
    a = viewA < c.views ? 2 * q * plane + static_cast<long long>(viewA) * c.detectors : -1;
    b = viewB < c.views ? sliceB * plane + static_cast<long long>(viewB) * c.detectors : -1;
}

/// The first k sampled in group @p q and how many (k = first .. first + count - 1).
TOMO_HOST_DEVICE inline void gridrecSampleRange(const GridrecChunk& c, int q, int& first,
                                                int& count) {
    const int half = c.rowLength / 2;
    first = gridrecSingle(c, q) ? 0 : -half;
    count = gridrecSingle(c, q) ? half + 1 : c.rowLength + 1;
}

/// Sample @p i of view @p p of group @p q into (@p re, @p im): m_k w R[|k|] exp(i k phase)
/// X[k], X[k] from the group's transformed rows @p rows ([G][views][L] as float pairs),
/// separated by Hermitian symmetry for a single slice (FourierPlan.h). @p response: R (L/2 + 1),
/// @p weight: w_p, @p phaseOverPi: phase_p / pi.
TOMO_HOST_DEVICE inline void gridrecSample(const GridrecChunk& c, int q, int p, int i,
                                           const float* rows, const float* response, float weight,
                                           double phaseOverPi, float& re, float& im) {
    const bool single = gridrecSingle(c, q);
    const int l = c.rowLength, half = l / 2;
    int first = 0, count = 0;
    gridrecSampleRange(c, q, first, count);
    const int k = first + i, a = k < 0 ? -k : k;
    const float* z = rows + 2 * (static_cast<long long>(q) * c.views + (single ? p / 2 : p)) * l;
    float m = weight * response[a];
    if (a == half)
        m *= single ? 1.f : 0.5f;
    else if (single && k != 0)
        m *= 2.f;
    float xr = 0.f, xi = 0.f;
    if (!single) {
        const float* zk = z + 2 * ((k + l) % l);
        xr = zk[0];
        xi = zk[1];
    } else {  // two real rows in one transform: A = (Z + conj Z-) / 2, B = (Z - conj Z-) / 2i
        const float *zk = z + 2 * k, *zm = z + 2 * ((l - k) % l);
        xr = (p & 1) ? 0.5f * (zk[1] + zm[1]) : 0.5f * (zk[0] + zm[0]);
        xi = (p & 1) ? -0.5f * (zk[0] - zm[0]) : 0.5f * (zk[1] - zm[1]);
    }
    double t = k * phaseOverPi;  // exp(i k phase) = exp(i pi t), t reduced to [-1, 1] in double
    t -= 2.0 * rint(0.5 * t);
    float s = 0.f, co = 1.f;
#if defined(__CUDA_ARCH__)
    sincospif(static_cast<float>(t), &s, &co);
#else
    s = static_cast<float>(std::sin(3.14159265358979323846 * t));
    co = static_cast<float>(std::cos(3.14159265358979323846 * t));
#endif
    re = m * (xr * co - xi * s);
    im = m * (xr * s + xi * co);
}

/// Output pixel (@p ix, @p iy) of group @p q: the grid point of the inverse transformed grids
/// @p grids ([G][My][Mx] as float pairs) at (@p row, @p column) times the deapodisation @p d,
/// real part to slice 2q (@p first), imaginary part to slice 2q + 1 (@p second, unused for a
/// single slice); the offsets into the chunk's images.
TOMO_HOST_DEVICE inline void gridrecPixel(const GridrecChunk& c, int q, int ix, int iy, int row,
                                          int column, float d, const float* grids, float& first,
                                          float& second, long long& firstAt, long long& secondAt) {
    const float* v = grids + 2 * ((static_cast<long long>(q) * c.gridY + row) * c.gridX + column);
    const long long plane = static_cast<long long>(c.nx) * c.ny;
    const long long at = static_cast<long long>(iy) * c.nx + ix;
    first = v[0] * d;
    second = v[1] * d;
    firstAt = 2 * q * plane + at;
    secondAt = gridrecSingle(c, q) ? -1 : (2 * q + 1) * plane + at;
}

}  // namespace tomo
