#pragma once
/// @file CufftAvailability.h
/// @brief Whether cuFFT could be loaded (gpu/cuda/internal/CufftLoader.h), without CUDA types:
/// callers outside gpu/cuda use it to decide whether FBP filters on the device or on the CPU.
#include "core/base/Status.h"

namespace tomo::cuda {

/// OK when the process-wide cuFFT opened; otherwise its reason ("cuFFT (libcufft.so.12) not
/// found: ...; FBP filters on the CPU"). CUDA back-projection works either way.
Status cufftAvailability();

}  // namespace tomo::cuda
