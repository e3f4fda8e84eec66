#pragma once
/// @file CudaDeviceContext.h
/// @brief One CUDA GPU as the back-projectors and the FBP pipeline use it: its limits, a set of
/// streams, a bounded cuFFT plan cache and a memory budget. Internal to tomo_gpu_cuda (CUDA types).
///
/// open(index) selects the device (cudaSetDevice), reads the limits the launchers need (compute
/// capability, SMs, shared memory per block incl. the opt-in maximum, texture limits for
/// pitch-linear 2-D textures, texture pitch alignment) and creates kStreams non-blocking
/// streams: stream(0) uploads, stream(1) kernels, stream(2) downloads (the roles of core's
/// queue operations, CudaQueues.h). memoryBudget() is core's policy (core/pipeline/DeviceMemory.h)
/// on cudaMemGetInfo at open(): the free memory less a tenth of the device, at least 256 MiB (for
/// the CUDA context, cuFFT work areas and other processes); callers size their chunks against
/// it and fall back to smaller chunks when an allocation still fails. Scratch memory: pinned
/// staging, device buffers (plain and pitched) and cuFFT plans are made once per context and reused
/// by every back-projection and FBP on it, grown on demand (a buffer too small is freed before its
/// larger replacement is allocated) and kept until the context goes or releaseScratch() is called
/// (after an allocation failure, before the caller retries with smaller chunks). Buffers are named
/// by role and stream slot ("pinned.in.0"), so a back-projection and an FBP on the same context
/// share them. Threading: the context is shared (shared_ptr) by every back-projector made by the
/// registry and by the FBP pipeline. A job takes lockScratch() for its whole run: jobs on one
/// device run one after the other (they share the two streams and the scratch buffers); the scratch
/// accessors require that lock. fftPlans() is thread-safe (its own mutex). activate() must be
/// called on each host thread before CUDA calls.

#include <array>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>

#include "core/mbir/GpuIcd.h"
#include "core/pipeline/DeviceMemory.h"
#include "core/pipeline/PlanCache.h"
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
    std::size_t textureAlignment = 512;  ///< bytes a 1-D texture's start must be a multiple of
    std::size_t totalMemory = 0;
    std::size_t freeMemoryAtOpen = 0;
    int driverVersion = 0, runtimeVersion = 0;
    std::string label() const;  ///< "NVIDIA H100 80GB HBM3 (sm_90)"
};

class CudaDeviceContext {
  public:
    static constexpr int kStreams = 3;

    /// Opens device @p index (-1 = device 0). NotFound when there is no CUDA device (the
    /// runtime's reason in the message), DeviceError for other failures.
    static Result<std::shared_ptr<CudaDeviceContext>> open(int index = -1);

    const CudaDeviceTraits& traits() const { return m_traits; }
    /// cudaSetDevice for the calling thread.
    Status activate() const;
    cudaStream_t stream(int i) const { return m_streams[i % kStreams].get(); }
    /// Waits for everything enqueued on every stream (a job's end, whatever its outcome: nothing
    /// it enqueued may outlive its use of the scratch buffers).
    void synchronizeStreams() const;
    std::size_t memoryBudget() const { return m_budget; }
    /// cudaMemGetInfo at open().
    const DeviceMemoryInfo& memoryInfo() const { return m_memory; }
    /// A batched in-place real-to-complex and complex-to-real plan pair for @p batch rows of
    /// @p n real samples stored n + 2 floats apart (n / 2 + 1 complex values after the forward
    /// transform), made once per (n, batch) and kept among the kRowPlans used last (the batch
    /// follows the chunk, so the shapes of a session are many; core/pipeline/PlanCache.h).
    /// The caller holds the returned pair while it enqueues work with it. OutOfMemory when cuFFT
    /// cannot allocate.
    struct FftPlans {
        FftPlan forward;  ///< R2C, n real -> n/2 + 1 complex per row
        FftPlan inverse;  ///< C2R
    };
    static constexpr std::size_t kRowPlans = 4;
    Result<std::shared_ptr<FftPlans>> fftPlans(int n, int batch);
    /// A batched complex-to-complex plan of @p rank (1 or 2) contiguous dimensions @p n (rows
    /// first) for @p batch transforms, made once per (rank, n, batch, @p user) and kept among the
    /// kC2cPlans used last, so a second run of the same shape plans nothing (issue 27 item 4).
    /// Callers that run at once on other streams pass other @p user numbers: a plan's work area
    /// is its own. The caller holds the returned plan while it enqueues work with it.
    static constexpr std::size_t kC2cPlans = 8;
    Result<std::shared_ptr<FftPlan>> c2cPlan(int rank, const int* n, int batch, int user);
    /// Plans kept now (at most kRowPlans + kC2cPlans) and made so far (tests of the cache).
    std::size_t fftPlanCount() const;
    std::size_t fftPlansMade() const;

    /// Held by a job for its whole run (see the file comment).
    [[nodiscard]] std::unique_lock<std::mutex> lockScratch() {
        return std::unique_lock(m_scratchMutex);
    }
    /// The scratch buffer @p key with at least @p bytes (lockScratch() held). OutOfMemory names
    /// the key and size; the old buffer is gone then too.
    Result<PinnedBuffer*> pinned(const std::string& key, std::size_t bytes);
    Result<DeviceBuffer*> device(const std::string& key, std::size_t bytes);
    /// At least @p rows rows of pitch() >= @p rowBytes (texture-compatible pitch).
    Result<DeviceBuffer*> pitched(const std::string& key, std::size_t rowBytes, std::size_t rows);
    /// Frees every scratch buffer (lockScratch() held); cuFFT plans stay.
    void releaseScratch();
    /// The GPU-ICD layout whose buffers the scratch holds (lockScratch() held): kept between
    /// solves, so the slices of a stack upload their layout once (CudaIcdDevice).
    IcdResidentLayout& icdLayout() { return m_icdLayout; }
    /// Allocations made by the scratch accessors so far, and the bytes held now (tests).
    std::size_t scratchAllocations() const { return m_scratchAllocations; }
    std::size_t scratchBytes() const;

  private:
    CudaDeviceContext() = default;
    CudaDeviceTraits m_traits;
    CudaStream m_streams[kStreams];
    std::size_t m_budget = 0;
    DeviceMemoryInfo m_memory;
    mutable std::mutex m_fftMutex;
    PlanCache<std::array<int, 2>, FftPlans> m_fftPlans{kRowPlans};  ///< (n, batch)
    PlanCache<std::array<int, 5>, FftPlan> m_c2cPlans{kC2cPlans};   ///< (rank, n0, n1, batch, user)
    std::mutex m_scratchMutex;
    std::map<std::string, PinnedBuffer> m_pinned;  // released before the streams
    std::map<std::string, DeviceBuffer> m_device;
    IcdResidentLayout m_icdLayout;
    std::size_t m_scratchAllocations = 0;
};

}  // namespace tomo::cuda
