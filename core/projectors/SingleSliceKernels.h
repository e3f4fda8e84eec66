#pragma once
/// @file SingleSliceKernels.h
/// @brief Internal: the single-slice SIMD back-projector (`cpu.simd1.<isa>.*`), vectorised
/// across pixels instead of slices. Not part of the public API: include only from
/// core/projectors sources.
///
/// The multi-slice kernel (SimdTileKernels.cpp) fills one vector with S slices, so a call with
/// fewer slices than S wastes lanes (one slice uses 1/16 of an AVX-512 vector). This kernel
/// instead puts G consecutive pixels of one image row in a vector (G = 16 for AVX-512, 8 for
/// AVX2), in the spirit of the ALU kernel of paper 002 with its cached window of detector bins
/// (S. Chilingaryan et al., J. Real-Time Image Proc. 17, 2020, doi:10.1007/s11554-019-00883-w,
/// section 6): for one projection the fractional indices of the G pixels,
///   u_k = base + (x0 + k) * cx,  |cx| = |cos(theta)| * voxelSize / pitch,
/// are monotonic in k and span at most floor((G - 1) |cx|) + 2 bins. The kernel loads a
/// window of W = 2G consecutive bins of the padded row starting at the smallest clamped index
/// (two unaligned vector loads; the same for the differences of linear interpolation) and
/// picks each lane's bin with a register permute (AVX-512: vpermt2ps over 32 floats; AVX2: two
/// vpermps over 8 floats and a blend), so no gather is needed. A group whose span exceeds the
/// window (voxels larger than about 2 detector pixels) falls back to a gather for that
/// projection, with the same arithmetic.
///
/// Arithmetic: exactly the float expressions of BackProjectionKernels.h (same order, same
/// clamping, same padded weighted rows), so the result is bit-identical to cpu.scalar.* and
/// cpu.simd.*.

#include <cstddef>
#include <memory>

#include "core/projectors/BackProjectionKernels.h"

namespace tomo::detail {

/// Below this many slices per call, cpu.simd.lin/.nn with the AVX-512 or AVX2 kernel hand the
/// call to the single-slice kernel (measured crossover, see CpuBackProjectors.h); 0 for Generic.
int singleSliceCrossover(CpuIsa isa, Interpolation interpolation);

/// Floats per padded row in the single-slice layout: paddedBins(n) plus room for a window
/// load starting at the last bin (2 x 16 floats), rounded up to a multiple of 16.
inline std::size_t singleSliceRowStride(int detectors) {
    return (static_cast<std::size_t>(paddedBins(detectors)) + 32 + 15) / 16 * 16;
}

/// @brief One tile x projection-chunk work item of the single-slice kernel.
///
/// Per projection of the chunk the row block holds the padded weighted values (rowStride
/// floats) followed, for linear interpolation, by their forward differences (rowStride
/// floats). The accumulator holds [height][accStride] floats and is added to.
struct SliceTileTask {
    const float* rows = nullptr;                     ///< first projection of the chunk
    std::size_t rowStride = 0;                       ///< floats from v to d of one projection
    std::size_t angleStride = 0;                     ///< floats from one projection to the next
    const ProjectionConstants* constants = nullptr;  ///< one per projection of the chunk
    int angles = 0;                                  ///< projections in the chunk
    int angleBlock = 16;   ///< projections accumulated in registers per pass
    float maxIndex = 0.f;  ///< n (float): upper clamp of the bin index
    int x0 = 0, y0 = 0;    ///< global index of the tile's first pixel
    int width = 0;         ///< pixels per row to compute (multiple of the group)
    int height = 0;        ///< rows to compute
    int accStride = 0;     ///< floats per accumulator row (>= width)
    float* acc = nullptr;  ///< [height][accStride], 64-byte aligned rows
};

/// The kernels of SingleSliceKernels.cpp; the CPU must support the instruction set.
void backProjectSliceTileAvx512(bool linear, const SliceTileTask& task);
void backProjectSliceTileAvx2(bool linear, const SliceTileTask& task);

/// Metadata (id cpu.simd1.<isa>.<lin|nn>, slicesPerPass 1) and factory of the single-slice
/// back-projector. @p isa must be Avx512 or Avx2 and supported by the CPU.
BackProjectorInfo singleSliceBackProjectorInfo(CpuIsa isa, Interpolation interpolation);
std::unique_ptr<BackProjector> makeSingleSliceBackProjector(BackProjectorInfo info, CpuIsa isa,
                                                            Interpolation interpolation,
                                                            const CpuSimdOptions& options);

}  // namespace tomo::detail
