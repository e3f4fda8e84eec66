#pragma once
/// @file OpenClIcdDevice.h
/// @brief GPU-ICD (core/mbir/GpuIcd.h) on an OpenCL device: the three kernels of
/// gpu/opencl/mbir/icd.cl (SVB gather, voxel update, deferred write-back) with the image, the
/// error and weight sinograms and the chunked 8-bit matrix resident on the device. Float atomics
/// by compare-and-swap (OpenCL 1.2). No OpenCL types here.

#include <memory>
#include <string>

#include "core/base/Status.h"
#include "core/mbir/GpuIcd.h"

namespace tomo::opencl {

class ClDeviceContext;  // gpu/opencl/internal/ClDeviceContext.h

/// A GPU-ICD device on @p context (the registry's; null: the first GPU, else the first device,
/// with the program cache in @p cacheDirectory or the default one). NotFound without an OpenCL
/// device; Unsupported when its work-groups are too small for the options' group size (checked
/// at load).
Result<std::unique_ptr<IcdDevice>> makeOpenClIcdDevice(std::shared_ptr<ClDeviceContext> context,
                                                       const std::string& cacheDirectory = {});

}  // namespace tomo::opencl
