#pragma once
/// @file CudaHandles.h
/// @brief Move-only RAII owners of CUDA runtime objects and the error mapping every CUDA call
/// goes through. Internal to tomo_gpu_cuda (CUDA types); tests/gpu include it too.
///
/// cudaCheck(err, what): cudaSuccess -> ok; cudaErrorMemoryAllocation -> OutOfMemory; anything
/// else -> DeviceError. The message names the call and carries the runtime's text and error
/// name ("cudaMalloc(sinogram, 64 MiB): out of memory (cudaErrorMemoryAllocation)"). The
/// runtime's non-sticky "last error" is cleared so that later calls are not blamed for it.
/// Threading: handles are plain owners; use each from one thread at a time.

#include <cuda_runtime_api.h>
#include <cufft.h>

#include <cstddef>
#include <string>
#include <utility>

#include "core/base/Status.h"

namespace tomo::cuda {

/// Maps a runtime error to a Status naming @p what.
Status cudaCheck(cudaError_t err, const std::string& what);
/// Maps a cuFFT result to a Status naming @p what (CUFFT_ALLOC_FAILED -> OutOfMemory; when
/// cuFFT could not be loaded at run time, CufftLoader.h's NotFound with its reason).
Status cufftCheck(cufftResult err, const std::string& what);
/// "12 MiB" for messages.
std::string mebibytes(std::size_t bytes);

/// Generic owner: T is a raw handle, Deleter a stateless functor releasing it.
template <typename T, typename Deleter>
class CudaHandle {
  public:
    CudaHandle() = default;
    explicit CudaHandle(T h) : m_h(h) {}
    CudaHandle(CudaHandle&& o) noexcept : m_h(std::exchange(o.m_h, T{})) {}
    CudaHandle& operator=(CudaHandle&& o) noexcept {
        if (this != &o) {
            reset();
            m_h = std::exchange(o.m_h, T{});
        }
        return *this;
    }
    CudaHandle(const CudaHandle&) = delete;
    CudaHandle& operator=(const CudaHandle&) = delete;
    ~CudaHandle() { reset(); }
    T get() const { return m_h; }
    explicit operator bool() const { return m_h != T{}; }
    void reset() {
        if (m_h != T{}) Deleter{}(m_h);
        m_h = T{};
    }

  private:
    T m_h{};
};

struct StreamDeleter {
    void operator()(cudaStream_t s) const { cudaStreamDestroy(s); }
};
struct EventDeleter {
    void operator()(cudaEvent_t e) const { cudaEventDestroy(e); }
};
struct TextureDeleter {
    void operator()(cudaTextureObject_t t) const { cudaDestroyTextureObject(t); }
};
struct DeviceDeleter {
    void operator()(void* p) const { cudaFree(p); }
};
struct PinnedDeleter {
    void operator()(void* p) const { cudaFreeHost(p); }
};
struct FftDeleter {
    void operator()(cufftHandle h) const { cufftDestroy(h); }
};

using CudaStream = CudaHandle<cudaStream_t, StreamDeleter>;
using CudaEvent = CudaHandle<cudaEvent_t, EventDeleter>;
using TextureObject = CudaHandle<cudaTextureObject_t, TextureDeleter>;
using FftPlan = CudaHandle<cufftHandle, FftDeleter>;

/// Device memory of a known size (cudaMalloc) or a pitched 2-D block (cudaMallocPitch).
class DeviceBuffer {
  public:
    DeviceBuffer() = default;
    /// @p bytes of device memory whose start is a multiple of @p align bytes (cudaMalloc
    /// guarantees only 256; a texture over the buffer needs the device's texture alignment, 512
    /// on many GPUs); OutOfMemory names @p what and the size.
    static Result<DeviceBuffer> create(std::size_t bytes, const std::string& what,
                                       std::size_t align = 1);
    /// @p rows rows of @p rowBytes bytes each, rows pitch() bytes apart (texture-compatible).
    static Result<DeviceBuffer> createPitched(std::size_t rowBytes, std::size_t rows,
                                              const std::string& what);
    void* get() const { return static_cast<char*>(m_ptr.get()) + m_offset; }
    template <typename T>
    T* as() const {
        return static_cast<T*>(get());
    }
    std::size_t bytes() const { return m_bytes; }
    std::size_t pitch() const { return m_pitch; }
    explicit operator bool() const { return static_cast<bool>(m_ptr); }

  private:
    CudaHandle<void*, DeviceDeleter> m_ptr;  ///< what cudaMalloc returned (freed as such)
    std::size_t m_offset = 0;                ///< bytes from m_ptr to the aligned start
    std::size_t m_bytes = 0;
    std::size_t m_pitch = 0;
};

/// Page-locked host memory (cudaHostAlloc), so that asynchronous copies overlap with kernels.
class PinnedBuffer {
  public:
    PinnedBuffer() = default;
    static Result<PinnedBuffer> create(std::size_t bytes, const std::string& what);
    void* get() const { return m_ptr.get(); }
    template <typename T>
    T* as() const {
        return static_cast<T*>(m_ptr.get());
    }
    std::size_t bytes() const { return m_bytes; }
    explicit operator bool() const { return static_cast<bool>(m_ptr); }

  private:
    CudaHandle<void*, PinnedDeleter> m_ptr;
    std::size_t m_bytes = 0;
};

/// A new non-blocking stream / timing-capable event.
Result<CudaStream> createStream();
Result<CudaEvent> createEvent(bool timing = false);

}  // namespace tomo::cuda
