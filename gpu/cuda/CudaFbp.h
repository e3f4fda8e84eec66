#pragma once
/// @file CudaFbp.h
/// @brief Filtered back-projection entirely on a CUDA GPU: batched cuFFT ramp filtering and a
/// CUDA back-projector, pipelined over two streams (no CUDA types in this header).
///
/// Per pass of slicesPerPass slices (the variant's), on stream k mod 2 with buffer set k mod 2
/// (paper 002 §4, doi:10.1007/s11554-019-00883-w: upload || filter -> back-project ->
/// download with double buffering and pinned memory):
///  1. the pass's raw sinogram rows are copied into pinned memory and uploaded;
///  2. rows are zero-padded to N (RampFilter::paddedWidth(): the smallest power of two
///     >= 2 x detectors), transformed in place by one batched cuFFT R2C plan, multiplied by
///     RampFilter::response() (the same filter definitions, windows, cutoff and scaling as the
///     CPU path, core/filter/RampFilter.h), transformed back (C2R);
///  3. the filtered rows are packed into the variant's texel layout (interleaved slices, or
///     binary16) and back-projected with the angular weights (ParallelGeometry::angularWeights);
///  4. the slices are downloaded into pinned memory and copied into the volume while the other
///     stream works on the next pass.
/// The result equals core's reconstructFbp with the same variant to float rounding (cuFFT and
/// FFTW/radix-2 round differently: relative differences ~1e-6 of the image maximum).
/// Memory per buffer set: raw + padded rows + packed sinogram + output slices; when two sets
/// do not fit the budget one set is used (no overlap); when one does not fit: OutOfMemory
/// naming the sizes. The buffers, pinned staging and the cuFFT plans are the device context's
/// (CudaDeviceContext: made once per context, reused by every call, shared with the
/// back-projector's own calls); an allocation the device refuses frees the kept buffers and the
/// pipeline is set up once more before OutOfMemory is returned.
/// Progress advances per pass; ctx.stop is checked between passes.
/// Threading: synchronous on the calling thread; holds the context's scratch lock (jobs on one
/// device run one after the other).

#include <string>

#include "core/base/ExecContext.h"
#include "core/base/Status.h"
#include "core/data/Array.h"
#include "core/geometry/ParallelGeometry.h"
#include "core/recon/Fbp.h"

namespace tomo::cuda {

struct CudaFbpTimings {
    double total = 0;      ///< wall clock, host memory to host memory
    double kernels = 0;    ///< device time of the back-projection kernels (events)
    double filtering = 0;  ///< device time of padding, FFTs, multiply and packing (events)
    double updates = 0;    ///< nx * ny * angles * slices
};

/// Reconstructs @p sino on @p vol with @p backProjector, a `cuda.*` back-projector of the
/// registry (registerBackProjectors()), on its device context and with its kernel family.
/// options.filter selects the window and cutoff; options.chunkSlices is ignored (passes follow
/// the variant). InvalidArgument when @p backProjector is not a CUDA back-projector or for
/// mismatched shapes; Unsupported when the projections exceed the texture height limit;
/// OutOfMemory as above; Cancelled on ctx.stop.
Status reconstructFbp(const Sinograms& sino, const ParallelGeometry& geom,
                      const VolumeGeometry& vol, BackProjector& backProjector,
                      const FbpOptions& options, Volume& out, const ExecContext& ctx,
                      CudaFbpTimings* timings = nullptr);

}  // namespace tomo::cuda
