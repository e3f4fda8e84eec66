#pragma once
/// @file CudaIcdDevice.h
/// @brief GPU-ICD (core/mbir/GpuIcd.h) on a CUDA device: the kernels of IcdKernels.cu with
/// the image, error and weight sinograms and the chunked 8-bit matrix resident on the device,
/// every call on the context's stream 1 (in order). No CUDA types here.

#include <memory>

#include "core/base/Status.h"
#include "core/mbir/GpuIcd.h"

namespace tomo::cuda {

class CudaDeviceContext;  // gpu/cuda/internal/CudaDeviceContext.h

/// A GPU-ICD device on @p context (the registry's; null: device 0). NotFound without a CUDA
/// device; OutOfMemory naming the buffer when the layout does not fit (at load).
Result<std::unique_ptr<IcdDevice>> makeCudaIcdDevice(std::shared_ptr<CudaDeviceContext> context);

}  // namespace tomo::cuda
