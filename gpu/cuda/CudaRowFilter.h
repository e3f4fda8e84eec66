#pragma once
/// @file CudaRowFilter.h
/// @brief FBP's row-filter stage on a CUDA GPU (core/recon/Fbp.h RowFilterStage): batched cuFFT
/// ramp filtering of detector rows, as a stage of core's pipeline (no CUDA types in this header).
///
/// deviceStage(): on a CUDA back-projector's queues (CudaQueues.h), the filter runs in place on
/// the chunk's rows the pipeline uploaded, on the compute stream, before the back-projection
/// stage reads them: the rows never leave the device between the two (issue 27 item 1). Per
/// block of at most 4096 rows (one step): zero padding to N (RampFilter::paddedWidth(): the
/// smallest power of two >= 2 x detectors), one batched in-place cuFFT R2C, multiplication by
/// RampFilter::response() (the same filter definitions, windows, cutoff and scaling as the CPU
/// stage, core/filter/RampFilter.h), C2R, unpadding into the rows (their pitch kept).
/// apply() (host rows in and out) runs the same stage alone through core's pipeline
/// (filterRowsOnDevice): uploads, transforms and downloads of successive chunks overlap.
/// The result equals RampFilter::apply to float rounding (cuFFT and FFTW/radix-2 round
/// differently: relative differences ~1e-6 of the row maximum).
/// Plans, response and work buffers are the device context's (CudaDeviceContext: made once per
/// shape and kept, so a second call of the same shape creates nothing); the block fits the
/// budget the pipeline leaves. Not yet run on a GPU in this form.

#include <memory>

#include "core/recon/Fbp.h"

namespace tomo::cuda {

class CudaDeviceContext;

/// The cuFFT row filter on @p device (the registry's context, shared with its back-projectors).
/// Unavailable when cuFFT could not be loaded (CufftAvailability.h: the reason).
Result<std::shared_ptr<RowFilterStage>> makeCufftRowFilter(
    std::shared_ptr<CudaDeviceContext> device);

}  // namespace tomo::cuda
