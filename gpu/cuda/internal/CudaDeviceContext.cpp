// CudaDeviceContext: device limits, streams, cuFFT plan cache, memory budget.
#include "gpu/cuda/internal/CudaDeviceContext.h"

#include <algorithm>

namespace tomo::cuda {

std::string CudaDeviceTraits::label() const {
    return name + " (sm_" + std::to_string(ccMajor) + std::to_string(ccMinor) + ")";
}

Result<std::shared_ptr<CudaDeviceContext>> CudaDeviceContext::open(int index) {
    int count = 0;
    if (cudaError_t e = cudaGetDeviceCount(&count); e != cudaSuccess)
        return notFound(cudaCheck(e, "no CUDA device: cudaGetDeviceCount").message());
    if (count == 0) return notFound("no CUDA device: the runtime reports 0 devices");
    const int device = index < 0 ? 0 : index;
    if (device >= count)
        return notFound("CUDA device " + std::to_string(device) + " requested, " +
                        std::to_string(count) + " present");
    std::shared_ptr<CudaDeviceContext> ctx(new CudaDeviceContext());
    CudaDeviceTraits& t = ctx->m_traits;
    t.index = device;
    TOMO_RETURN_IF_ERROR(cudaCheck(cudaSetDevice(device), "cudaSetDevice"));
    cudaDeviceProp prop{};
    TOMO_RETURN_IF_ERROR(
        cudaCheck(cudaGetDeviceProperties(&prop, device), "cudaGetDeviceProperties"));
    t.name = prop.name;
    t.totalMemory = prop.totalGlobalMem;
    auto attr = [&](cudaDeviceAttr a, int& v) {
        return cudaCheck(cudaDeviceGetAttribute(&v, a, device), "cudaDeviceGetAttribute");
    };
    int shm = 0, shmOptin = 0, align = 0, textureAlign = 0;
    TOMO_RETURN_IF_ERROR(attr(cudaDevAttrComputeCapabilityMajor, t.ccMajor));
    TOMO_RETURN_IF_ERROR(attr(cudaDevAttrComputeCapabilityMinor, t.ccMinor));
    TOMO_RETURN_IF_ERROR(attr(cudaDevAttrMultiProcessorCount, t.multiprocessors));
    TOMO_RETURN_IF_ERROR(attr(cudaDevAttrMaxSharedMemoryPerBlock, shm));
    TOMO_RETURN_IF_ERROR(attr(cudaDevAttrMaxSharedMemoryPerBlockOptin, shmOptin));
    TOMO_RETURN_IF_ERROR(attr(cudaDevAttrMaxTexture2DLinearWidth, t.maxTexture2dLinearWidth));
    TOMO_RETURN_IF_ERROR(attr(cudaDevAttrMaxTexture2DLinearHeight, t.maxTexture2dLinearHeight));
    TOMO_RETURN_IF_ERROR(attr(cudaDevAttrTexturePitchAlignment, align));
    TOMO_RETURN_IF_ERROR(attr(cudaDevAttrTextureAlignment, textureAlign));
    t.sharedPerBlock = static_cast<std::size_t>(shm);
    t.sharedPerBlockOptin = static_cast<std::size_t>(shmOptin);
    t.texturePitchAlignment = static_cast<std::size_t>(align);
    t.textureAlignment = static_cast<std::size_t>(std::max(textureAlign, 1));
    cudaDriverGetVersion(&t.driverVersion);
    cudaRuntimeGetVersion(&t.runtimeVersion);
    std::size_t freeBytes = 0, totalBytes = 0;
    TOMO_RETURN_IF_ERROR(cudaCheck(cudaMemGetInfo(&freeBytes, &totalBytes), "cudaMemGetInfo"));
    t.freeMemoryAtOpen = freeBytes;
    ctx->m_memory = DeviceMemoryInfo{totalBytes, freeBytes, 0, false};
    ctx->m_budget = deviceMemoryBudget(ctx->m_memory);
    for (CudaStream& s : ctx->m_streams) {
        TOMO_ASSIGN_OR_RETURN(s, createStream());
    }
    return ctx;
}

Status CudaDeviceContext::activate() const {
    return cudaCheck(cudaSetDevice(m_traits.index), "cudaSetDevice");
}

void CudaDeviceContext::synchronizeStreams() const {
    for (const CudaStream& s : m_streams)
        cudaStreamSynchronize(s.get());
}

Result<std::shared_ptr<CudaDeviceContext::FftPlans>> CudaDeviceContext::fftPlans(int n, int batch) {
    std::lock_guard lock(m_fftMutex);
    return m_fftPlans.get({n, batch}, [&]() -> Result<FftPlans> {
        cufftHandle fwd = 0, inv = 0;
        const std::string what =
            "cufftPlan1d(" + std::to_string(n) + " x " + std::to_string(batch) + " rows)";
        // In-place layout: each row holds n + 2 floats = n / 2 + 1 complex values.
        int dims[1] = {n}, realEmbed[1] = {n + 2}, complexEmbed[1] = {n / 2 + 1};
        TOMO_RETURN_IF_ERROR(cufftCheck(cufftPlanMany(&fwd, 1, dims, realEmbed, 1, n + 2,
                                                      complexEmbed, 1, n / 2 + 1, CUFFT_R2C, batch),
                                        what));
        FftPlan forward(fwd);
        TOMO_RETURN_IF_ERROR(cufftCheck(cufftPlanMany(&inv, 1, dims, complexEmbed, 1, n / 2 + 1,
                                                      realEmbed, 1, n + 2, CUFFT_C2R, batch),
                                        what));
        return FftPlans{std::move(forward), FftPlan(inv)};
    });
}

Result<std::shared_ptr<FftPlan>> CudaDeviceContext::c2cPlan(int rank, const int* n, int batch,
                                                            int user) {
    std::lock_guard lock(m_fftMutex);
    const std::array<int, 5> key{rank, n[0], rank > 1 ? n[1] : 0, batch, user};
    return m_c2cPlans.get(key, [&]() -> Result<FftPlan> {
        int dims[2] = {n[0], rank > 1 ? n[1] : 1};
        const int dist = rank > 1 ? dims[0] * dims[1] : dims[0];
        std::string what = "cufftPlanMany(" + std::to_string(dims[0]);
        if (rank > 1) what += " x " + std::to_string(dims[1]);
        what += ", batch " + std::to_string(batch) + ")";
        cufftHandle h = 0;
        TOMO_RETURN_IF_ERROR(cufftCheck(
            cufftPlanMany(&h, rank, dims, nullptr, 1, dist, nullptr, 1, dist, CUFFT_C2C, batch),
            what));
        return FftPlan(h);
    });
}

Result<PinnedBuffer*> CudaDeviceContext::pinned(const std::string& key, std::size_t bytes) {
    PinnedBuffer& b = m_pinned[key];
    if (!b || b.bytes() < bytes) {
        b = PinnedBuffer();  // free first: the old and the new one need not fit together
        TOMO_ASSIGN_OR_RETURN(b, PinnedBuffer::create(bytes, key));
        ++m_scratchAllocations;
    }
    return &b;
}

Result<DeviceBuffer*> CudaDeviceContext::device(const std::string& key, std::size_t bytes) {
    DeviceBuffer& b = m_device[key];
    if (!b || b.pitch() != b.bytes() || b.bytes() < bytes) {
        b = DeviceBuffer();
        TOMO_ASSIGN_OR_RETURN(b, DeviceBuffer::create(bytes, key, m_traits.textureAlignment));
        ++m_scratchAllocations;
    }
    return &b;
}

Result<DeviceBuffer*> CudaDeviceContext::pitched(const std::string& key, std::size_t rowBytes,
                                                 std::size_t rows) {
    DeviceBuffer& b = m_device[key];
    if (!b || b.pitch() < rowBytes || b.bytes() / b.pitch() < rows) {
        b = DeviceBuffer();
        TOMO_ASSIGN_OR_RETURN(b, DeviceBuffer::createPitched(rowBytes, rows, key));
        ++m_scratchAllocations;
    }
    return &b;
}

void CudaDeviceContext::releaseScratch() {
    m_pinned.clear();
    m_device.clear();
    m_icdLayout.forget();
}

std::size_t CudaDeviceContext::scratchBytes() const {
    std::size_t n = 0;
    for (const auto& [key, b] : m_pinned)
        n += b.bytes();
    for (const auto& [key, b] : m_device)
        n += b.bytes();
    return n;
}

std::size_t CudaDeviceContext::fftPlanCount() const {
    std::lock_guard lock(m_fftMutex);
    return m_fftPlans.size() + m_c2cPlans.size();
}

std::size_t CudaDeviceContext::fftPlansMade() const {
    std::lock_guard lock(m_fftMutex);
    return m_fftPlans.made() + m_c2cPlans.made();
}

}  // namespace tomo::cuda
