#pragma once
/// @file OpenClRowFilter.h
/// @brief FBP's row-filter stage on an OpenCL device (core/recon/Fbp.h RowFilterStage) with
/// VkFFT's OpenCL backend (libvkfft-dev, header-only; built when found, TOMO_WITH_VKFFT), as a
/// stage of core's pipeline: deviceStage() filters the chunk's rows in place on the compute queue
/// of an OpenCL back-projector's queues (gpu/opencl/internal/ClQueues.h) before the
/// back-projection stage reads them, so the rows stay on the device (issue 27 items 1 and 3).
/// Per block of at most 4096 rows (one step): zero padding to N (RampFilter::paddedWidth()),
/// VkFFT's in-place R2C, multiplication by RampFilter::response() (the CPU stage's filter
/// definitions and scaling), C2R, unpadding into the rows (kernels/filter.cl). apply() runs the
/// stage alone through the pipeline on host rows. The result equals RampFilter::apply to float
/// rounding. VkFFT applications are made once per (N, block) and kept by the device context
/// (PoCL compiles their kernels on the first use: seconds, then cached on disk by PoCL).
/// No OpenCL types in this header.

#include <memory>

#include "core/recon/Fbp.h"

namespace tomo::opencl {

class ClDeviceContext;

/// The VkFFT row filter on @p device (the registry's context, shared with its back-projectors).
Result<std::shared_ptr<RowFilterStage>> makeOpenClRowFilter(
    std::shared_ptr<ClDeviceContext> device);

}  // namespace tomo::opencl
