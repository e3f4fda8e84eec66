#pragma once
/// @file Backends.h
/// @brief The one place where the application learns which backends this build has: it fills a
/// back-projector registry with every compiled-in variant and asks each backend for its devices.
/// (STYLE.md #10: `#if TOMO_WITH_*` appears here and in CMake only.)

#include <string>
#include <vector>

#include "core/devices/DeviceInfo.h"
#include "core/projectors/BackProjector.h"

namespace tomo::app {

/// A registry holding every back-projector variant of this build (CPU now; GPU variants register
/// here as their backends land).
BackProjectorRegistry makeRegistry();

/// The variant used when none is named: for "cpu" (or "auto" without a GPU variant) the fastest
/// exact CPU path, "cpu.simd.lin"/"cpu.simd.nn" by interpolation.
std::string defaultVariant(const BackProjectorRegistry& registry,
                           const std::string& backend = "auto",
                           Interpolation interpolation = Interpolation::Linear);

/// Device discovery for every backend: CPU first, then CUDA and OpenCL (each reports whether it
/// is compiled in and whether its runtime found devices).
std::vector<DeviceDiscovery> discoverAllDevices();

/// Backend names this build knows ("cpu", and "cuda"/"opencl" when compiled in).
std::vector<std::string> compiledBackends();

}  // namespace tomo::app
