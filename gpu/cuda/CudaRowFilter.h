#pragma once
/// @file CudaRowFilter.h
/// @brief FBP's row-filter stage on a CUDA GPU (core/recon/Fbp.h RowFilterStage): batched cuFFT
/// ramp filtering of detector rows, host rows in, host rows out (no CUDA types in this header).
///
/// Per block of rows, on stream k mod 2 with buffer set k mod 2 (two blocks in flight: the
/// copies of one overlap the transforms of the other):
///  1. the block's rows are copied into pinned memory and uploaded;
///  2. rows are zero-padded to N (RampFilter::paddedWidth(): the smallest power of two
///     >= 2 x detectors), transformed in place by one batched cuFFT R2C plan, multiplied by
///     RampFilter::response() (the same filter definitions, windows, cutoff and scaling as the
///     CPU stage, core/filter/RampFilter.h), transformed back (C2R) and unpadded;
///  3. the filtered rows are downloaded into pinned memory and copied back into the chunk
///     when the set is next needed (or at the end).
/// The result equals RampFilter::apply to float rounding (cuFFT and FFTW/radix-2 round
/// differently: relative differences ~1e-6 of the row maximum).
/// Buffers and plans are the device context's (CudaDeviceContext: made once per context,
/// reused by every call; keys of their own, pinned.rows.k, device.rows.k, device.spectra.k, so
/// that the back-projection's staging between two filter calls does not resize them); a block is at
/// most 4096 rows (32 MiB of 2048-pixel rows: an FBP chunk of 8 such slices is 4 blocks, whose
/// copies overlap) and two blocks stay within the context's memory budget. An allocation the device
/// refuses frees the context's kept buffers and halves the block, down to one row, before
/// OutOfMemory. Progress advances per block; ctx.stop is checked between blocks. Threading:
/// synchronous on the calling thread; holds the context's scratch lock.

#include <memory>

#include "core/recon/Fbp.h"

namespace tomo::cuda {

class CudaDeviceContext;

/// The cuFFT row filter on @p device (the registry's context, shared with its back-projectors).
/// Unavailable when cuFFT could not be loaded (CufftAvailability.h: the reason).
Result<std::shared_ptr<RowFilterStage>> makeCufftRowFilter(
    std::shared_ptr<CudaDeviceContext> device);

}  // namespace tomo::cuda
