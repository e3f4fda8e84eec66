#pragma once
/// @file Gridrec.h
/// @brief Gridrec on the CPU: the Fourier-domain reconstruction of FourierPlan.h with the CPU's
/// FFT (FFTW, else the built-in radix-2: core/filter ComplexRowFft), threads and SIMD.
///
/// Per group of two slices (or the last slice of an odd count, FourierPlan.h), one chunk of
/// core's pipeline driver in host mode (ChunkPipeline.h), four stages, each a parallelFor over
/// fixed work items (so results are bit-identical for any thread count):
///  1. spectra: the views' rows, packed two per complex transform and zero-padded to L, are
///     transformed, multiplied by the filter, the axis phase and the angular weight, and stored
///     as the group's samples (blocks of 16 views);
///  2. spreading: bands of 32 grid rows each clear their rows and add the samples' kernel
///     terms (GridSpreading.h);
///  3. grid rows: inverse transforms of the Mx-point rows (blocks of 16 rows);
///  4. columns: blocks of 16 output columns are gathered from the grid, inverse transformed
///     along y, and the image's rows of them deapodised into the output (real part: slice a,
///     imaginary part: slice b).
/// Progress advances per stage (weights 1, 4, 2, 3 per group) in a child scope named "gridrec";
/// the timeline records the plan as Host, spectra as Filter, stages 2-4 as Kernels;
/// ctx.stop is checked between work items (Cancelled within one item: milliseconds). Memory: the
/// samples (views x (L + 1) complex; (L/2 + 1) for one slice), the grid (My x (Mx + 16) complex)
/// and per thread two blocks of 16 rows; no copy of the sinograms.

#include <array>

#include "core/base/ExecContext.h"
#include "core/base/Status.h"
#include "core/data/Array.h"
#include "core/fourier/FourierPlan.h"
#include "core/pipeline/Timeline.h"

namespace tomo {

/// What a run took, from its timeline (core/pipeline/Timeline.h) on every backend: the plan
/// (with working memory and a device's constants), the busy seconds of the spectra (the
/// timeline's Filter stage) and of the gridding (spreading or gather, the grid's transforms
/// and the images: its Kernels stage), the whole call and the timeline itself.
struct GridrecTimings {
    double plan = 0, spectra = 0, gridding = 0, total = 0;
    TimelineReport timeline;
};

/// The timeline's parts (TimelinePart) of the CPU gridrec, host seconds summed over the groups:
/// the spectra (packing, the rows' transforms and the samples, done per block of views), the
/// spreading, the grid's row transforms and the columns (gathered, transformed, deapodised).
inline constexpr std::array<const char*, 4> kCpuGridrecParts{"spectra", "spreading", "grid rows",
                                                             "columns"};

/// The CPU's FFT size rule (powers of two with the built-in FFT, else even 2-3-5 lengths).
FftSizeRule cpuFftSizeRule();
/// The CPU's cost model, measured on the development machine (docs/performance.md).
FourierCostModel cpuFourierCost();

/// Bytes of working memory reconstructGridrec allocates for @p plan with @p workers threads
/// (samples, grid, per-thread blocks), for memory budgets.
std::size_t gridrecWorkBytes(const FourierPlan& plan, int workers);

/// Reconstructs @p sino ([slice][angle][detector], vol.nz slices) on @p vol into @p out
/// ([vol.nz][vol.ny][vol.nx]). Slices are paired 0-1, 2-3, ...; an odd last slice runs alone.
/// Errors: InvalidArgument (shapes, options), OutOfMemory (naming the sizes), Cancelled.
/// @p describe (optional) receives FourierPlan::describe().
Status reconstructGridrec(const Sinograms& sino, const ParallelGeometry& geom,
                          const VolumeGeometry& vol, const GridrecOptions& options, Volume& out,
                          const ExecContext& ctx, GridrecTimings* timings = nullptr,
                          std::string* describe = nullptr);

}  // namespace tomo
