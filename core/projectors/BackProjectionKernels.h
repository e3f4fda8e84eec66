#pragma once
/// @file BackProjectionKernels.h
/// @brief Internal building blocks shared by the float CPU back-projectors (cpu.scalar.* and
/// cpu.simd.*). Not part of the public API: include only from core/projectors sources.
///
/// Both float paths evaluate, for pixel (ix, iy) and projection p, the same float expression
///   u    = (a_p + iy * cy_p) + ix * cx_p            (ProjectionConstants, one mul/add each)
///   lin: i = clamp(floor(u), -2, n), f = u - floor(u), term = v_p[i] + f * d_p[i]
///   nn:  i = clamp(floor(u + 0.5f), -2, n),            term = v_p[i]
///   out  = ((0 + term_0) + term_1) + ... + term_{P-1}  (projections in order)
/// on the same padded, pre-weighted rows (PaddedRow), with floating-point contraction disabled
/// for these sources (see CMakeLists.txt). So the scalar and the SIMD paths give bit-identical
/// results; the tests still only assume agreement within 1e-6 relative.
///
/// Padded row layout (n detector pixels, kPadLeft = 2 zero bins on the left, 1 on the right):
///   bin b = k + 2 holds v = w * s[k] for k in [0, n), bins 0, 1 and n + 2 hold v = 0, and
///   d[b] = v[b + 1] - v[b] (d[n + 2] = 0). Clamping i into [-2, n] therefore reads zeros for
///   any u <= -1 or u >= n, and linear interpolation fades to zero between the edge pixel
///   centre and the next (virtual, zero) pixel centre, exactly like the double reference,
///   which treats samples outside [0, n-1] as zero.

#include <algorithm>
#include <cstddef>
#include <memory>
#include <vector>

#include "core/geometry/ParallelGeometry.h"
#include "core/projectors/CpuBackProjectors.h"

namespace tomo::detail {

/// Zero bins left of detector pixel 0 in a padded row.
inline constexpr int kPadLeft = 2;
/// Bins of a padded row for @p detectors pixels (2 zero bins left, 1 right).
inline constexpr int paddedBins(int detectors) {
    return detectors + kPadLeft + 1;
}

/// Per-projection float constants of the fractional detector index u(ix, iy) (see file docs).
struct ProjectionConstants {
    float a = 0.f;   ///< u at pixel (0, 0)
    float cx = 0.f;  ///< du / d(ix) = voxelSize * cos(theta) / pitch
    float cy = 0.f;  ///< du / d(iy) = -voxelSize * sin(theta) / pitch
};

/// Constants for every projection, computed in double and rounded once to float.
std::vector<ProjectionConstants> projectionConstants(const ParallelGeometry& geom,
                                                     const VolumeGeometry& vol);

/// Fills the padded, weighted row of one projection: @p v and @p d get paddedBins(n) values
/// each from @p src (n detector values) and weight @p w.
void buildPaddedRow(const float* src, int n, float w, float* v, float* d);

/// Pixels along x processed together by the kernel of @p isa (8, or 16 for AVX-512); the
/// computed tile width must be a multiple of it.
int simdGroup(CpuIsa isa);

/// @brief One tile x angle-chunk work item of the tiled kernel.
///
/// The compound sinogram holds, per projection of the chunk, paddedBins(n) bins of
/// `binFloats` floats: linear = S values then S differences (2S), nearest = S values (S).
/// The accumulator holds [height][tileStride][S] floats and is added to (not overwritten).
struct TileTask {
    const float* compound = nullptr;                 ///< first projection of the chunk
    std::size_t angleStride = 0;                     ///< floats from one projection to the next
    const ProjectionConstants* constants = nullptr;  ///< one per projection of the chunk
    int angles = 0;                                  ///< projections in the chunk
    int angleBlock = 16;   ///< projections accumulated in registers per pass
    float maxIndex = 0.f;  ///< n (float): upper clamp of the bin index
    int x0 = 0, y0 = 0;    ///< global index of the tile's first pixel
    int width = 0;         ///< pixels per row to compute (multiple of simdGroup)
    int height = 0;        ///< rows to compute
    int tileStride = 0;    ///< pixels per accumulator row (>= width)
    float* acc = nullptr;  ///< [height][tileStride][S], 32/64-byte aligned
};

/// Runs the tiled kernel of @p isa (which must be supported: cpuIsaSupported) for one task.
void backProjectTile(CpuIsa isa, bool linear, const TileTask& task);

/// Metadata of the SIMD back-projector (id cpu.simd.<isa>.<lin|nn>) and a factory taking
/// any metadata (the registry's cpu.simd.lin/.nn alias the best ISA). @p isa must be supported.
BackProjectorInfo simdBackProjectorInfo(CpuIsa isa, Interpolation interpolation,
                                        const CpuSimdOptions& options);
std::unique_ptr<BackProjector> makeSimdBackProjector(BackProjectorInfo info, CpuIsa isa,
                                                     Interpolation interpolation,
                                                     const CpuSimdOptions& options);

inline int ceilDiv(int a, int b) {
    return (a + b - 1) / b;
}

/// Projections split into chunks of balanced size whose per-projection buffers
/// (@p bytesPerAngle each) fit @p budgetBytes: `count` chunks of at most `angles` projections.
struct AngleChunks {
    int count = 1;
    int angles = 1;
};
inline AngleChunks angleChunks(int angles, std::size_t bytesPerAngle, std::size_t budgetBytes) {
    const int maxChunk = static_cast<int>(
        std::clamp<std::size_t>(budgetBytes / std::max<std::size_t>(bytesPerAngle, 1), 1,
                                static_cast<std::size_t>(angles)));
    const int count = ceilDiv(angles, maxChunk);
    return {count, ceilDiv(angles, count)};
}

/// The kernels of SimdTileKernels.cpp (called through backProjectTile).
void backProjectTileAvx2(bool linear, const TileTask& task);
void backProjectTileAvx512(bool linear, const TileTask& task);

}  // namespace tomo::detail
