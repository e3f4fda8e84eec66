#pragma once
/// @file CudaDiscovery.h
/// @brief Lists the CUDA devices visible to this process through the CUDA runtime API.
/// The header is free of CUDA types; only CudaDiscovery.cpp includes the runtime headers.

#include "core/devices/DeviceInfo.h"

namespace tomo::cuda {

/// Asks the CUDA runtime for its devices. Never throws or aborts:
/// - when cudaGetDeviceCount fails (no GPU, no or too old a driver) the result has
///   `available == false` and a message with the runtime's own text, e.g.
///   "no CUDA device: no CUDA-capable device is detected (cudaErrorNoDevice)";
/// - otherwise one DeviceInfo per device: name, "<family> (sm_XY)" architecture (see
///   CudaArchitecture.h), SMs as computeUnits, peak SM clock (MHz), global memory, shared memory
///   per block (localMemoryBytes); properties give the compute capability, shared memory per SM
///   and opt-in per block, L2, registers per SM, memory clock and bus width, warp size, PCI
///   address, ECC, driver and runtime versions, and the run-time loaded cuFFT ("cuFFT 12.0.0
///   (libcufft.so.12)"). A device whose queries fail keeps its index and carries the error in
///   `note`; so does every device when cuFFT could not be loaded (FBP then filters on the CPU, see
///   internal/CufftLoader.h). The "no CUDA device" message ends with the cuFFT state too.
/// Does not create a CUDA context (only attribute queries), so it is cheap and leaves device
/// memory untouched. Reentrant; the CUDA runtime serialises its own initialisation.
DeviceDiscovery discoverDevices();

}  // namespace tomo::cuda
