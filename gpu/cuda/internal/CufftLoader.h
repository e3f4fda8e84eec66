#pragma once
/// @file CufftLoader.h
/// @brief cuFFT loaded at run time, so that `tomo` and `tomostation` start on machines without
/// the CUDA toolkit. Internal to tomo_gpu_cuda (CUDA types).
///
/// No TomoStation binary links libcufft.so (its SONAME would be a hard dependency that no Debian
/// package provides). Instead CufftShim.cpp defines the few cufft* entry points the CUDA backend
/// calls (cufftPlanMany, cufftExecR2C, cufftExecC2R, cufftExecC2C, cufftSetStream,
/// cufftDestroy, cufftGetVersion) under their own names, as extern "C" functions forwarding to the
/// library that processCufft() opened; call sites are unchanged. A cufft* function the backend
/// starts to call and the shim lacks is an "undefined reference" at link time: add it to Api and
/// the shim.
///
/// When no cuFFT library can be opened, every shim entry point returns CUFFT_SETUP_FAILED and
/// cufftCheck() (CudaHandles.h) turns that into processCufft()'s status: "cuFFT
/// (libcufft.so.12) not found: ... FBP filters on the CPU". CUDA back-projection, which needs no
/// FFT, keeps working; `tomo devices` shows the reason (CudaDiscovery.cpp).
///
/// Search order (defaultCandidates()): $TOMO_CUFFT_LIBRARY alone when set (a path or a file
/// name; for non-standard installs, and to exercise the "missing" path in tests); otherwise
/// libcufft.so.<major of the toolkit built against> through the dynamic loader (LD_LIBRARY_PATH,
/// the ldconfig cache), then in the build's toolkit folder, /usr/local/cuda/lib64 and
/// /usr/local/cuda-<version>/lib64, then the unversioned libcufft.so.

#include <cufft.h>

#include <memory>
#include <string>
#include <vector>

#include "core/base/Status.h"

namespace tomo::cuda {

/// One opened cuFFT library (RAII: dlclose on destruction) and its resolved entry points.
class CufftLibrary {
  public:
    /// The entry points TomoStation uses, resolved with dlsym from this library.
    struct Api {
        decltype(&::cufftPlanMany) planMany = nullptr;
        decltype(&::cufftExecR2C) execR2C = nullptr;
        decltype(&::cufftExecC2R) execC2R = nullptr;
        decltype(&::cufftExecC2C) execC2C = nullptr;  ///< gridrec (gpu/cuda/fourier)
        decltype(&::cufftSetStream) setStream = nullptr;
        decltype(&::cufftDestroy) destroy = nullptr;
        decltype(&::cufftGetVersion) getVersion = nullptr;
    };

    /// Opens the first of @p candidates that dlopen accepts and resolves every Api entry point.
    /// NotFound naming the library and every attempt when none opens; Unsupported naming the
    /// missing symbol when the opened file lacks one (a library that is not cuFFT, or too old).
    static Result<CufftLibrary> open(const std::vector<std::string>& candidates);
    /// The search order described in the file comment.
    static std::vector<std::string> defaultCandidates();
    /// "libcufft.so.12": the library name the build expects (for messages).
    static std::string expectedName();

    const Api& api() const { return m_api; }
    /// The candidate that opened ("libcufft.so.12" or a full path).
    const std::string& source() const { return m_source; }

  private:
    struct Closer {
        void operator()(void* handle) const;
    };
    std::unique_ptr<void, Closer> m_handle;
    Api m_api;
    std::string m_source;
};

/// The process-wide cuFFT, opened with defaultCandidates() on the first call (thread-safe) and
/// kept until exit. The error, when there is one, reads "cuFFT (libcufft.so.12) not found:
/// <attempts>; install cuFFT from the CUDA toolkit (e.g. NVIDIA's libcufft-13-0 package) or set
/// TOMO_CUFFT_LIBRARY; FBP filters on the CPU".
const Result<CufftLibrary>& processCufft();

}  // namespace tomo::cuda
