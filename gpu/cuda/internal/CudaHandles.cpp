// Error mapping and allocation helpers of CudaHandles.h.
#include "gpu/cuda/internal/CudaHandles.h"

#include <cstdint>

#include "gpu/cuda/internal/CufftLoader.h"

namespace tomo::cuda {

std::string mebibytes(std::size_t bytes) {
    return std::to_string((bytes + (1u << 20) - 1) >> 20) + " MiB";
}

Status cudaCheck(cudaError_t err, const std::string& what) {
    if (err == cudaSuccess) return Status::ok();
    cudaGetLastError();  // clear the non-sticky error state
    const std::string text =
        what + ": " + cudaGetErrorString(err) + " (" + cudaGetErrorName(err) + ")";
    if (err == cudaErrorMemoryAllocation) return outOfMemory(text);
    if (err == cudaErrorNoDevice || err == cudaErrorInsufficientDriver) return notFound(text);
    return deviceError(text);
}

Status cufftCheck(cufftResult err, const std::string& what) {
    if (err == CUFFT_SUCCESS) return Status::ok();
    // The shim's answer when no cuFFT library could be loaded: report why, not the number.
    if (err == CUFFT_SETUP_FAILED) {
        if (const auto& lib = processCufft(); !lib.isOk()) return lib.status().withContext(what);
    }
    const std::string text = what + ": cuFFT error " + std::to_string(static_cast<int>(err));
    if (err == CUFFT_ALLOC_FAILED) return outOfMemory(text + " (CUFFT_ALLOC_FAILED)");
    return deviceError(text);
}

Result<DeviceBuffer> DeviceBuffer::create(std::size_t bytes, const std::string& what,
                                          std::size_t align) {
    DeviceBuffer b;
    void* p = nullptr;
    const std::size_t slack = align > 256 ? align - 256 : 0;  // cudaMalloc's 256 guaranteed
    TOMO_RETURN_IF_ERROR(cudaCheck(cudaMalloc(&p, (bytes == 0 ? 1 : bytes) + slack),
                                   "cudaMalloc(" + what + ", " + mebibytes(bytes) + ")"));
    b.m_ptr = CudaHandle<void*, DeviceDeleter>(p);
    if (align > 1) {
        const auto address = reinterpret_cast<std::uintptr_t>(p);
        b.m_offset = static_cast<std::size_t>((align - address % align) % align);
    }
    b.m_bytes = bytes;
    b.m_pitch = bytes;
    return b;
}

Result<DeviceBuffer> DeviceBuffer::createPitched(std::size_t rowBytes, std::size_t rows,
                                                 const std::string& what) {
    DeviceBuffer b;
    void* p = nullptr;
    std::size_t pitch = 0;
    TOMO_RETURN_IF_ERROR(
        cudaCheck(cudaMallocPitch(&p, &pitch, rowBytes, rows),
                  "cudaMallocPitch(" + what + ", " + mebibytes(rowBytes * rows) + ")"));
    b.m_ptr = CudaHandle<void*, DeviceDeleter>(p);
    b.m_bytes = pitch * rows;
    b.m_pitch = pitch;
    return b;
}

Result<PinnedBuffer> PinnedBuffer::create(std::size_t bytes, const std::string& what) {
    PinnedBuffer b;
    void* p = nullptr;
    TOMO_RETURN_IF_ERROR(cudaCheck(cudaHostAlloc(&p, bytes == 0 ? 1 : bytes, cudaHostAllocDefault),
                                   "cudaHostAlloc(" + what + ", " + mebibytes(bytes) + ")"));
    b.m_ptr = CudaHandle<void*, PinnedDeleter>(p);
    b.m_bytes = bytes;
    return b;
}

Result<CudaStream> createStream() {
    cudaStream_t s = nullptr;
    TOMO_RETURN_IF_ERROR(
        cudaCheck(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "cudaStreamCreate"));
    return CudaStream(s);
}

Result<CudaEvent> createEvent(bool timing) {
    cudaEvent_t e = nullptr;
    TOMO_RETURN_IF_ERROR(
        cudaCheck(cudaEventCreateWithFlags(&e, timing ? cudaEventDefault : cudaEventDisableTiming),
                  "cudaEventCreate"));
    return CudaEvent(e);
}

}  // namespace tomo::cuda
