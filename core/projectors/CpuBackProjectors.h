#pragma once
/// @file CpuBackProjectors.h
/// @brief The CPU back-projector variants and their registration.
///
/// All variants compute the pixel-driven sum of BackProjector.h. Four implementations, each
/// with linear ("lin") and nearest ("nn") interpolation:
///
///  - `cpu.reference.*` (family "reference"): the independent reference. Per pixel and
///    projection it evaluates ParallelGeometry's formula t = x cos + y sin in double precision
///    from the pixel's world coordinates and accumulates in double. Threaded over (slice, row).
///  - `cpu.scalar.*` (family "cpu"): float, one slice at a time, threaded over image rows. The
///    detector index is u = (a_p + iy cy_p) + ix cx_p from per-projection float constants, and
///    each projection's row is pre-multiplied by its weight and padded with zeros, as below.
///  - `cpu.simd.*` (family "cpu"): the fast path (the "multi-slice" layout of paper 002:
///    S. Chilingaryan et al., "Reviewing GPU architectures to build efficient back projection
///    for parallel geometries", J. Real-Time Image Proc. 17, 2020, doi:10.1007/s11554-019-00883-w,
///    transposed to CPU vectors). S slices (one SIMD vector: 8 with AVX2, 16 with AVX-512) are
///    interleaved into a compound sinogram [projection][bin][value S | difference S], so one
///    pixel-projection update is two aligned vector loads and acc += v + f d. The image is cut
///    into tiles (default 32x32 pixels) that are processed in parallel; inside a tile, groups of
///    8/16 pixels along x keep their accumulators in registers over blocks of 16 projections.
///    Projections are taken in chunks whose compound sinogram fits `chunkBytes` (64 MiB).
///    `cpu.simd.lin`/`.nn` use the best instruction set of the running CPU (chosen at run time
///    with __builtin_cpu_supports; the binary runs on any x86-64) and hand calls with few
///    slices (below `singleSliceBelow`: AVX-512 7 linear / 4 nearest, AVX2 3 / 2) to the
///    single-slice kernel; `cpu.simd.<isa>.*` pin one instruction set (generic, avx2, avx512)
///    with the same switch at that instruction set's crossover (same kernels, same behaviour:
///    a tuned choice of cpu.simd.avx512.lin never runs one slice on the 16-slice kernel), and
///    are registered when the CPU supports it. makeCpuSimdBackProjector() with the default
///    options (singleSliceBelow 0) is the multi-slice kernel alone, for tests and benchmarks.
///  - `cpu.simd1.<isa>.*` (family "cpu", AVX2 and AVX-512): the single-slice kernel
///    (SingleSliceKernels.h), vectorised across pixels in the spirit of paper 002's ALU kernel
///    with a cached bin window: 8/16 consecutive pixels of a row read one window of 16/32
///    consecutive bins (two unaligned loads) and pick their bins with register permutes, no
///    gathers (a gather only where a voxel spans more than ~2 detector pixels). Tiles of
///    64x32 (AVX-512) or 32x32 (AVX2) pixels in parallel, projection blocks of 16.
///
/// Exactness: the scalar and the SIMD variants evaluate the same float expressions in the same
/// order per pixel (projections summed in order 0..P-1), so they agree bit for bit, whatever the
/// instruction set, kernel, tile size or thread count. Against the double reference they agree
/// to ~1e-6 relative for linear interpolation; nearest interpolation can pick the other bin
/// where u is within float rounding (~1e-4 pixel) of a half-integer.
///
/// Throughput (2-core AMD EPYC Zen 5 VM shared with other jobs, 2 threads, 1024 projections x
/// 1024^2 pixels, wall clock, GU/s): multi-slice cpu.simd.avx512.lin 8.6-20 at 16 slices
/// (13.9 per core in CPU time), AVX2 5.5-6.6 at 8-16 slices, cpu.simd.avx512.nn 15.6-36 at 16
/// slices; 2048 projections x 2048^2 x 16 slices: 18. One slice: cpu.simd1.avx512 7.6-10
/// linear, 11-14.6 nearest (the multi-slice kernel: 1.7 / 2.8), cpu.simd1.avx2 4.1-4.8 / 5.7-6.4;
/// 2048 x 2048^2 x 1: 9.6-10 / 12-14 (was 1.8 / 2.7). cpu.scalar.lin 0.5-0.7. For the
/// multi-slice pinned variants use a multiple of slicesPerPass slices: a partial pass costs
/// as much as a full one.
///
/// Threading and cancellation: every variant uses ctx.threads workers (parallelFor), results
/// never depend on the thread count, ctx.stop is checked per work item (a row, or a tile x
/// projection chunk: well under 50 ms) and ctx.progress advances per item (setTotal is called
/// by the variant). Instances keep scratch buffers between calls; use one per job.

#include <cstddef>
#include <memory>

#include "core/projectors/BackProjector.h"

namespace tomo {

/// Instruction sets of the SIMD back-projector.
enum class CpuIsa { Generic, Avx2, Avx512 };

/// Whether the running CPU can execute the kernels of @p isa (Generic: always).
bool cpuIsaSupported(CpuIsa isa);
/// The fastest supported instruction set (AVX-512, then AVX2, then Generic).
CpuIsa bestCpuIsa();
/// "generic", "avx2", "avx512".
const char* cpuIsaName(CpuIsa isa);
/// Slices per pass of the SIMD kernels: 16 for AVX-512, 8 otherwise.
int cpuIsaSlices(CpuIsa isa);

/// Tunables of the SIMD back-projector (the registered variants use the defaults).
struct CpuSimdOptions {
    int tileSize = 32;    ///< tile edge in pixels; rounded up to a multiple of the pixel group
    int angleBlock = 16;  ///< projections accumulated in registers before the tile is revisited
    std::size_t chunkBytes = std::size_t{64} << 20;  ///< compound-sinogram budget per chunk
    /// Calls with fewer slices than this go to the single-slice kernel (cpu.simd1.*; AVX2 and
    /// AVX-512 only). 0 = never; the registered cpu.simd.lin/.nn use the measured crossover.
    int singleSliceBelow = 0;
    /// InvalidArgument unless tileSize in [1, 1024], angleBlock in [1, 4096], chunkBytes > 0,
    /// singleSliceBelow in [0, 4096].
    Status validate() const;
};

/// The double-precision reference back-projector (`cpu.reference.*`).
std::unique_ptr<BackProjector> makeCpuReferenceBackProjector(Interpolation interpolation);
/// The float scalar back-projector (`cpu.scalar.*`).
std::unique_ptr<BackProjector> makeCpuScalarBackProjector(Interpolation interpolation);
/// The SIMD back-projector for one instruction set. Unsupported when the CPU lacks @p isa,
/// InvalidArgument for bad options.
Result<std::unique_ptr<BackProjector>> makeCpuSimdBackProjector(Interpolation interpolation,
                                                                CpuIsa isa,
                                                                CpuSimdOptions options = {});

/// Registers cpu.reference.{lin,nn}, cpu.scalar.{lin,nn}, cpu.simd.{lin,nn} (best ISA),
/// cpu.simd.<isa>.{lin,nn} for every supported instruction set (both with the single-slice
/// switch) and cpu.simd1.<isa>.{lin,nn}
/// for AVX2 and AVX-512 where supported, in that order.
void registerCpuBackProjectors(BackProjectorRegistry& registry);

}  // namespace tomo
