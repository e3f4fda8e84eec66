#pragma once
/// @file Backends.h
/// @brief The one place where the application learns which backends this build has: it fills a
/// back-projector registry with every compiled-in variant and asks each backend for its devices.
/// (STYLE.md #10: `#if TOMO_WITH_*` appears here and in CMake only.)

#include <memory>
#include <string>
#include <vector>

#include "core/cone/ConeBackProjector.h"
#include "core/devices/DeviceInfo.h"
#include "core/fourier/FourierMethod.h"
#include "core/iterative/IterativeReconstruction.h"
#include "core/projectors/BackProjector.h"
#include "core/recon/Fbp.h"
#include "core/selection/Selector.h"

namespace tomo::app {

/// The device contexts of the GPU backends opened by registerBackends(): one per device,
/// shared by that device's back-projectors, FBP filter and iterative operators (opaque: no
/// GPU types here).
struct DeviceContexts;

/// A device context held open, for `tomo devices` and the tests of its sharing.
struct OpenDevice {
    std::string backend;  ///< "opencl", "cuda"
    std::string name;     ///< the device
    long users = 0;       ///< objects sharing the context besides its owner (use count - 1)
};

/// Adds every back-projector variant of this build to @p registry (the CPU's, and each GPU
/// backend's when its device opens) and returns the device contexts they share.
std::shared_ptr<DeviceContexts> registerBackends(BackProjectorRegistry& registry);

/// Adds every cone-beam (FDK) back-projector of this build to @p registry: the CPU's, and each
/// GPU backend's on the device contexts of @p devices (registerBackends()).
void registerConeBackends(ConeBackProjectorRegistry& registry, const DeviceContexts& devices);
/// The contexts of @p devices held open now.
std::vector<OpenDevice> openDevices(const DeviceContexts& devices);

/// Adds the Fourier-domain (gridrec) implementations of this build to @p registry: the CPU's,
/// and CUDA's on the context of @p devices when it has a device and cuFFT loads
/// (gpu/cuda/fourier/CudaGridrec.h).
void registerFourierBackends(FourierRegistry& registry, const DeviceContexts& devices);

/// A registry of every variant (registerBackends() whose contexts live as long as the
/// registry's variants): for tools and tests; a process or GUI session uses app::Engine.
BackProjectorRegistry makeRegistry();

/// The backend "auto" stands for: CUDA when its variants are registered (a usable device), else
/// OpenCL when its first device is a GPU, else the CPU (PoCL's CPU device is slower than the
/// CPU's own kernels, docs/performance.md).
std::string autoBackend(const BackProjectorRegistry& registry);

/// The variant used when none is named, for a job of @p shape (default: one 1024^2 slice, the
/// GUI's main case) on @p backend ("auto": autoBackend()): `tomo tune`'s cached measured choice
/// for the device and the job's workload class when there is one (of the requested
/// interpolation, never another class's); else the model's default for the job's slices
/// (core/selection modelDefault(): on the CPU "cpu.simd.lin"/".nn", 16 slices per pass, below
/// their measured crossover running the single-slice kernel; on a GPU backend the variant the
/// performance model (paper 002) predicts fastest on its first device for that many slices).
std::string defaultVariant(const BackProjectorRegistry& registry,
                           const std::string& backend = "auto",
                           Interpolation interpolation = Interpolation::Linear,
                           const JobShape& shape = {});

/// Device discovery for every backend: CPU first, then CUDA and OpenCL (each reports whether it
/// is compiled in and whether its runtime found devices).
std::vector<DeviceDiscovery> discoverAllDevices();

/// Backend names this build knows ("cpu", and "cuda"/"opencl" when compiled in).
std::vector<std::string> compiledBackends();

/// The variants compiled into this build for @p backend whether or not a device is present
/// (CUDA: every kernel instantiation; other backends: the registered ones, OpenCL compiles its
/// kernels at run time), for saying "N compiled, no device" rather than "none".
std::vector<BackProjectorInfo> compiledVariants(const std::string& backend,
                                                const BackProjectorRegistry& registry);

/// FBP's row-filter stage for the back-projectors of @p backend (core/recon/Fbp.h
/// RowFilterStage), the one place that knows which backend filters on its device: on "cuda" with
/// cuFFT loaded, the cuFFT stage on the CUDA context of @p devices (gpu/cuda/CudaRowFilter.h);
/// on "opencl" with VkFFT in the build and a GPU device, VkFFT's (gpu/opencl/OpenClRowFilter.h);
/// null otherwise, which reconstructFbp reads as the CPU's FFTW stage (for a GPU back-projector
/// run on the pipeline's packing thread, beside the device's work).
std::shared_ptr<RowFilterStage> rowFilterStage(const std::string& backend,
                                               const DeviceContexts& devices);

/// The operator factory for IterativeRequest::makeOperator on @p backend: for "cuda" or
/// "opencl" (when compiled in) that backend's locality pair of paper 001 (gpu/cuda/locality,
/// gpu/opencl/locality, with the request's "ordering" parameter; the factory answers NotFound
/// without a device); empty otherwise (the CPU projectors of core/locality).
decltype(IterativeRequest::makeOperator) iterativeOperatorFactory(
    const std::string& backend, std::shared_ptr<const DeviceContexts> devices = nullptr);

/// MBIR's GPU-ICD device factory for IterativeRequest::makeIcdDevice on @p backend: "cuda" or
/// "opencl" (when compiled in) on that backend's context of @p devices (gpu/cuda/mbir,
/// gpu/opencl/mbir; the factory answers NotFound without a device); empty otherwise.
IcdDeviceFactory icdDeviceFactory(const std::string& backend,
                                  std::shared_ptr<const DeviceContexts> devices = nullptr);

}  // namespace tomo::app
