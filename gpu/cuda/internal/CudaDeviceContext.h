#pragma once
/// @file CudaDeviceContext.h
/// @brief One CUDA GPU as the back-projectors and the FBP pipeline use it: its limits, a set of
/// streams, a cuFFT plan cache and a memory budget. Internal to tomo_gpu_cuda (CUDA types).
///
/// open(index) selects the device (cudaSetDevice), reads the limits the launchers need (compute
/// capability, SMs, shared memory per block incl. the opt-in maximum, texture limits for
/// pitch-linear 2-D textures, texture pitch alignment) and creates kStreams non-blocking
/// streams. memoryBudget() is 85% of the free memory at open() (the rest for the CUDA context,
/// cuFFT work areas and other processes): callers size their chunks against it and fall back
/// to smaller chunks when an allocation still fails.
/// Threading: the context is shared (shared_ptr) by every back-projector made by the registry.
/// fftPlan() is thread-safe (mutex); streams are handed out by index and owned here; callers
/// that run concurrently should use distinct stream indices or their own streams
/// (createStream()). activate() must be called on each host thread before CUDA calls.

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>

#include "gpu/cuda/internal/CudaHandles.h"

namespace tomo::cuda {

/// Device limits read at open().
struct CudaDeviceTraits {
    int index = 0;
    std::string name;
    int ccMajor = 0, ccMinor = 0;
    int multiprocessors = 0;
    std::size_t sharedPerBlock = 0;       ///< default per-block shared memory (48 KiB)
    std::size_t sharedPerBlockOptin = 0;  ///< opt-in maximum (cudaFuncAttributeMaxDynamic...)
    int maxTexture2dLinearWidth = 0;      ///< texels
    int maxTexture2dLinearHeight = 0;
    std::size_t texturePitchAlignment = 0;
    std::size_t totalMemory = 0;
    std::size_t freeMemoryAtOpen = 0;
    int driverVersion = 0, runtimeVersion = 0;
    std::string label() const;  ///< "NVIDIA H100 80GB HBM3 (sm_90)"
};

class CudaDeviceContext {
  public:
    static constexpr int kStreams = 2;

    /// Opens device @p index (-1 = device 0). NotFound when there is no CUDA device (the
    /// runtime's reason in the message), DeviceError for other failures.
    static Result<std::shared_ptr<CudaDeviceContext>> open(int index = -1);

    const CudaDeviceTraits& traits() const { return m_traits; }
    /// cudaSetDevice for the calling thread.
    Status activate() const;
    cudaStream_t stream(int i) const { return m_streams[i % kStreams].get(); }
    std::size_t memoryBudget() const { return m_budget; }
    /// A batched in-place real-to-complex and complex-to-real plan pair for @p batch rows of
    /// @p n real samples stored n + 2 floats apart (n / 2 + 1 complex values after the forward
    /// transform), made once per (n, batch) and kept. OutOfMemory when cuFFT cannot allocate.
    struct FftPlans {
        cufftHandle forward = 0;  ///< R2C, n real -> n/2 + 1 complex per row
        cufftHandle inverse = 0;  ///< C2R
    };
    Result<FftPlans> fftPlans(int n, int batch);
    /// Plans made so far (for tests of the cache).
    std::size_t fftPlanCount() const;

  private:
    CudaDeviceContext() = default;
    CudaDeviceTraits m_traits;
    CudaStream m_streams[kStreams];
    std::size_t m_budget = 0;
    mutable std::mutex m_fftMutex;
    std::map<std::pair<int, int>, std::pair<FftPlan, FftPlan>> m_fftPlans;
};

}  // namespace tomo::cuda
