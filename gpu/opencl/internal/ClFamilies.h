#pragma once
/// @file ClFamilies.h
/// @brief Registration hooks of the OpenCL kernel families, called by registerBackProjectors()
/// (OpenClBackProjectors.cpp) in this order: texture, then the families added later (ALU,
/// oversampling, hybrid). Each family checks what the device can run and calls addVariant().

#include <functional>
#include <memory>
#include <string>

#include "gpu/opencl/OpenClBackProjectors.h"
#include "gpu/opencl/internal/ClBackProjector.h"

namespace tomo::opencl {

using LauncherFactory = std::function<std::unique_ptr<ClKernelLauncher>()>;

/// Registers @p info (backend is set to "opencl") with a factory making a ClBackProjector on
/// @p device, or, when @p skipReason is not empty, records (id, reason) in @p report instead.
void addVariant(BackProjectorRegistry& registry, OpenClRegistration& report,
                const std::shared_ptr<ClDeviceContext>& device, BackProjectorInfo info,
                const std::string& skipReason, LauncherFactory makeLauncher);

/// opencl.texture.* (ClTextureLauncher.h).
void registerTextureFamily(BackProjectorRegistry& registry, OpenClRegistration& report,
                           const std::shared_ptr<ClDeviceContext>& device);

}  // namespace tomo::opencl
