#include "gpu/cuda/sparse/CudaSparseMatrix.h"

#include <cuda_runtime_api.h>
#include <cusparse.h>

#include <algorithm>
#include <vector>

#include "gpu/cuda/sparse/SparseKernels.h"

namespace tomo::cuda {
namespace {

Status check(cudaError_t err, const std::string& what) {
    if (err == cudaSuccess) return Status::ok();
    cudaGetLastError();  // clear a non-sticky error
    const std::string text =
        what + ": " + cudaGetErrorString(err) + " (" + cudaGetErrorName(err) + ")";
    return err == cudaErrorMemoryAllocation ? outOfMemory(text) : deviceError(text);
}

Status check(cusparseStatus_t err, const std::string& what) {
    if (err == CUSPARSE_STATUS_SUCCESS) return Status::ok();
    const std::string text = what + ": " + cusparseGetErrorString(err);
    return err == CUSPARSE_STATUS_ALLOC_FAILED ? outOfMemory(text) : deviceError(text);
}

/// Move-only device array.
template <class T>
class DeviceArray {
  public:
    DeviceArray() = default;
    DeviceArray(DeviceArray&& o) noexcept
        : m_ptr(std::exchange(o.m_ptr, nullptr)), m_size(o.m_size) {}
    DeviceArray& operator=(DeviceArray&& o) noexcept {
        std::swap(m_ptr, o.m_ptr);
        std::swap(m_size, o.m_size);
        return *this;
    }
    DeviceArray(const DeviceArray&) = delete;
    DeviceArray& operator=(const DeviceArray&) = delete;
    ~DeviceArray() {
        if (m_ptr) cudaFree(m_ptr);
    }
    Status allocate(std::size_t n, const std::string& what) {
        m_size = n;
        return check(
            cudaMalloc(reinterpret_cast<void**>(&m_ptr), std::max<std::size_t>(n, 1) * sizeof(T)),
            "cudaMalloc(" + what + ")");
    }
    Status upload(const std::vector<T>& host, const std::string& what) {
        TOMO_RETURN_IF_ERROR(allocate(host.size(), what));
        if (host.empty()) return Status::ok();
        return check(
            cudaMemcpy(m_ptr, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice),
            "cudaMemcpy(" + what + ")");
    }
    T* get() const { return m_ptr; }
    std::size_t bytes() const { return m_size * sizeof(T); }

  private:
    T* m_ptr = nullptr;
    std::size_t m_size = 0;
};

}  // namespace

struct CudaSparseMatrix::Impl {
    SparseFormat format = SparseFormat::Ell;
    std::size_t rows = 0, cols = 0, stored = 0;
    int blockRows = 64, blocks = 0;
    std::size_t sharedFloats = 0;
    cudaStream_t stream = nullptr;
    // Ell
    DeviceArray<std::uint64_t> offset;
    DeviceArray<std::uint32_t> width;
    DeviceArray<std::int32_t> index;
    DeviceArray<float> value;
    // Buffered (value shared with Ell)
    DeviceArray<std::uint32_t> stageBegin, stageWidth, map;
    DeviceArray<std::uint64_t> mapBegin, stageOffset;
    DeviceArray<std::uint16_t> local;
    // CusparseCsr (value shared)
    DeviceArray<std::int32_t> rowPtr;
    cusparseHandle_t handle = nullptr;
    cusparseSpMatDescr_t mat = nullptr;
    cusparseDnVecDescr_t vx = nullptr, vy = nullptr;
    DeviceArray<char> workspace;
    // vectors
    DeviceArray<float> x, y;

    ~Impl() {
        if (vx) cusparseDestroyDnVec(vx);
        if (vy) cusparseDestroyDnVec(vy);
        if (mat) cusparseDestroySpMat(mat);
        if (handle) cusparseDestroy(handle);
        if (stream) cudaStreamDestroy(stream);
    }

    std::size_t bytes() const {
        return offset.bytes() + width.bytes() + index.bytes() + value.bytes() + stageBegin.bytes() +
               stageWidth.bytes() + map.bytes() + mapBegin.bytes() + stageOffset.bytes() +
               local.bytes() + rowPtr.bytes() + workspace.bytes();
    }

    Status prepareVectors() {
        TOMO_RETURN_IF_ERROR(
            check(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "cudaStreamCreate"));
        TOMO_RETURN_IF_ERROR(x.allocate(cols, "x"));
        TOMO_RETURN_IF_ERROR(y.allocate(rows, "y"));
        TOMO_RETURN_IF_ERROR(check(cudaMemset(x.get(), 0, x.bytes()), "cudaMemset(x)"));
        // The memset and the pageable uploads run on the legacy default stream, which the
        // non-blocking stream does not wait for (the upload of x could be overwritten).
        return check(cudaDeviceSynchronize(), "upload of the matrix");
    }

    Status run() {
        switch (format) {
            case SparseFormat::Ell:
                return check(launchEllSpmv(blocks, blockRows, rows, offset.get(), width.get(),
                                           index.get(), value.get(), x.get(), y.get(), stream),
                             "ELL SpMV kernel");
            case SparseFormat::Buffered:
                return check(launchBufferedSpmv(blocks, blockRows, rows, sharedFloats,
                                                stageBegin.get(), mapBegin.get(), map.get(),
                                                stageOffset.get(), stageWidth.get(), local.get(),
                                                value.get(), x.get(), y.get(), stream),
                             "buffered SpMV kernel");
            case SparseFormat::CusparseCsr: {
                const float one = 1.0f, zero = 0.0f;
                return check(
                    cusparseSpMV(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, mat, vx, &zero, vy,
                                 CUDA_R_32F, CUSPARSE_SPMV_CSR_ALG1, workspace.get()),
                    "cusparseSpMV");
            }
        }
        return internalError("unknown sparse format");
    }
};

const char* sparseFormatName(SparseFormat f) {
    switch (f) {
        case SparseFormat::Ell:
            return "ell";
        case SparseFormat::Buffered:
            return "buffered";
        case SparseFormat::CusparseCsr:
            return "cusparse-csr";
    }
    return "?";
}

bool cudaDeviceAvailable() {
    int count = 0;
    const bool ok = cudaGetDeviceCount(&count) == cudaSuccess && count > 0;
    cudaGetLastError();
    return ok;
}

CudaSparseMatrix::CudaSparseMatrix(std::unique_ptr<Impl> impl) : m_impl(std::move(impl)) {}
CudaSparseMatrix::CudaSparseMatrix(CudaSparseMatrix&&) noexcept = default;
CudaSparseMatrix& CudaSparseMatrix::operator=(CudaSparseMatrix&&) noexcept = default;
CudaSparseMatrix::~CudaSparseMatrix() = default;
SparseFormat CudaSparseMatrix::format() const {
    return m_impl->format;
}
std::size_t CudaSparseMatrix::rows() const {
    return m_impl->rows;
}
std::size_t CudaSparseMatrix::cols() const {
    return m_impl->cols;
}
std::size_t CudaSparseMatrix::deviceBytes() const {
    return m_impl->bytes();
}
std::size_t CudaSparseMatrix::storedEntries() const {
    return m_impl->stored;
}

Result<CudaSparseMatrix> CudaSparseMatrix::upload(const CsrMatrix& a, SparseFormat format,
                                                  int blockRows) {
    if (!cudaDeviceAvailable()) return unsupported("no CUDA device");
    auto impl = std::make_unique<Impl>();
    impl->format = format;
    impl->rows = a.rows;
    impl->cols = a.cols;
    if (format == SparseFormat::Ell) {
        if (blockRows < 32 || blockRows > 1024)
            return invalidArgument("ELL SpMV: block of " + std::to_string(blockRows) +
                                   " rows outside [32, 1024]");
        const std::size_t br = static_cast<std::size_t>(blockRows);
        const std::size_t blocks = (a.rows + br - 1) / br;
        std::vector<std::uint64_t> offset(blocks + 1, 0);
        std::vector<std::uint32_t> width(blocks, 0);
        for (std::size_t b = 0; b < blocks; ++b) {
            for (std::size_t r = b * br; r < std::min(a.rows, (b + 1) * br); ++r)
                width[b] = std::max<std::uint32_t>(
                    width[b], static_cast<std::uint32_t>(a.rowPtr[r + 1] - a.rowPtr[r]));
            offset[b + 1] = offset[b] + std::uint64_t(width[b]) * br;
        }
        std::vector<std::int32_t> index(offset[blocks], 0);  // padding: index 0, value 0
        std::vector<float> value(offset[blocks], 0.0f);
        for (std::size_t r = 0; r < a.rows; ++r) {
            const std::size_t b = r / br, t = r % br;
            for (std::uint64_t j = a.rowPtr[r]; j < a.rowPtr[r + 1]; ++j) {
                const std::uint64_t e = offset[b] + (j - a.rowPtr[r]) * br + t;
                index[e] = static_cast<std::int32_t>(a.columns[j]);
                value[e] = a.values[j];
            }
        }
        impl->blockRows = blockRows;
        impl->blocks = static_cast<int>(blocks);
        impl->stored = offset[blocks];
        TOMO_RETURN_IF_ERROR(impl->offset.upload(offset, "ELL offsets"));
        TOMO_RETURN_IF_ERROR(impl->width.upload(width, "ELL widths"));
        TOMO_RETURN_IF_ERROR(impl->index.upload(index, "ELL indices"));
        TOMO_RETURN_IF_ERROR(impl->value.upload(value, "ELL values"));
        TOMO_RETURN_IF_ERROR(impl->prepareVectors());
    } else if (format == SparseFormat::CusparseCsr) {
        if (a.nonzeros() >= (std::size_t(1) << 31))
            return unsupported("cuSPARSE CSR comparison: more than 2^31 nonzeros");
        std::vector<std::int32_t> ptr(a.rowPtr.begin(), a.rowPtr.end());
        std::vector<std::int32_t> col(a.columns.begin(), a.columns.end());
        impl->stored = a.nonzeros();
        TOMO_RETURN_IF_ERROR(impl->rowPtr.upload(ptr, "CSR row pointers"));
        TOMO_RETURN_IF_ERROR(impl->index.upload(col, "CSR columns"));
        TOMO_RETURN_IF_ERROR(impl->value.upload(a.values, "CSR values"));
        TOMO_RETURN_IF_ERROR(impl->prepareVectors());
        Impl& m = *impl;
        TOMO_RETURN_IF_ERROR(check(cusparseCreate(&m.handle), "cusparseCreate"));
        TOMO_RETURN_IF_ERROR(check(cusparseSetStream(m.handle, m.stream), "cusparseSetStream"));
        TOMO_RETURN_IF_ERROR(check(
            cusparseCreateCsr(&m.mat, static_cast<int64_t>(a.rows), static_cast<int64_t>(a.cols),
                              static_cast<int64_t>(a.nonzeros()), m.rowPtr.get(), m.index.get(),
                              m.value.get(), CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                              CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F),
            "cusparseCreateCsr"));
        TOMO_RETURN_IF_ERROR(
            check(cusparseCreateDnVec(&m.vx, static_cast<int64_t>(a.cols), m.x.get(), CUDA_R_32F),
                  "cusparseCreateDnVec(x)"));
        TOMO_RETURN_IF_ERROR(
            check(cusparseCreateDnVec(&m.vy, static_cast<int64_t>(a.rows), m.y.get(), CUDA_R_32F),
                  "cusparseCreateDnVec(y)"));
        const float one = 1.0f, zero = 0.0f;
        std::size_t size = 0;
        TOMO_RETURN_IF_ERROR(check(
            cusparseSpMV_bufferSize(m.handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, m.mat, m.vx,
                                    &zero, m.vy, CUDA_R_32F, CUSPARSE_SPMV_CSR_ALG1, &size),
            "cusparseSpMV_bufferSize"));
        TOMO_RETURN_IF_ERROR(m.workspace.allocate(size, "cuSPARSE workspace"));
    } else {
        return invalidArgument(
            "a CSR matrix uploads as ell or cusparse-csr; build a "
            "BufferedMatrix for the buffered format");
    }
    return CudaSparseMatrix(std::move(impl));
}

Result<CudaSparseMatrix> CudaSparseMatrix::upload(const BufferedMatrix& a) {
    if (!cudaDeviceAvailable()) return unsupported("no CUDA device");
    const std::size_t br = a.partitionRows;
    if (br < 32 || br > 1024 || br % 32 != 0)
        return invalidArgument("buffered SpMV on CUDA: partition of " + std::to_string(br) +
                               " rows must be a multiple of 32 in [32, 1024] (the block size)");
    int device = 0, maxShared = 0;
    TOMO_RETURN_IF_ERROR(check(cudaGetDevice(&device), "cudaGetDevice"));
    TOMO_RETURN_IF_ERROR(
        check(cudaDeviceGetAttribute(&maxShared, cudaDevAttrMaxSharedMemoryPerBlockOptin, device),
              "cudaDeviceGetAttribute"));
    if (a.bufferFloats * sizeof(float) > static_cast<std::size_t>(maxShared))
        return invalidArgument("buffered SpMV on CUDA: a stage of " +
                               std::to_string(a.bufferFloats * 4) + " bytes exceeds the " +
                               std::to_string(maxShared) + " bytes of shared memory per block");
    auto impl = std::make_unique<Impl>();
    impl->format = SparseFormat::Buffered;
    impl->rows = a.rows;
    impl->cols = a.cols;
    impl->blockRows = static_cast<int>(br);
    impl->blocks = static_cast<int>(a.partitions());
    impl->sharedFloats = a.bufferFloats;
    const std::size_t stages = a.stages();
    std::vector<std::uint64_t> offset(stages + 1, 0);
    std::vector<std::uint32_t> width(stages, 0);
    for (std::size_t s = 0; s < stages; ++s) {
        for (std::size_t j = 0; j < br; ++j)
            width[s] = std::max<std::uint32_t>(
                width[s],
                static_cast<std::uint32_t>(a.rowPtr[s * br + j + 1] - a.rowPtr[s * br + j]));
        offset[s + 1] = offset[s] + std::uint64_t(width[s]) * br;
    }
    std::vector<std::uint16_t> local(offset[stages], 0);
    std::vector<float> value(offset[stages], 0.0f);
    for (std::size_t s = 0; s < stages; ++s)
        for (std::size_t j = 0; j < br; ++j)
            for (std::uint64_t k = a.rowPtr[s * br + j]; k < a.rowPtr[s * br + j + 1]; ++k) {
                const std::uint64_t e = offset[s] + (k - a.rowPtr[s * br + j]) * br + j;
                local[e] = a.local[k];
                value[e] = a.values[k];
            }
    impl->stored = offset[stages];
    TOMO_RETURN_IF_ERROR(impl->stageBegin.upload(a.stageBegin, "stage ranges"));
    TOMO_RETURN_IF_ERROR(impl->mapBegin.upload(a.mapBegin, "map ranges"));
    TOMO_RETURN_IF_ERROR(impl->map.upload(a.map, "map"));
    TOMO_RETURN_IF_ERROR(impl->stageOffset.upload(offset, "stage offsets"));
    TOMO_RETURN_IF_ERROR(impl->stageWidth.upload(width, "stage widths"));
    TOMO_RETURN_IF_ERROR(impl->local.upload(local, "buffer indices"));
    TOMO_RETURN_IF_ERROR(impl->value.upload(value, "values"));
    TOMO_RETURN_IF_ERROR(impl->prepareVectors());
    return CudaSparseMatrix(std::move(impl));
}

Status CudaSparseMatrix::multiply(std::span<const float> x, std::span<float> y) {
    Impl& m = *m_impl;
    if (x.size() != m.cols || y.size() != m.rows)
        return invalidArgument("CUDA SpMV: x has " + std::to_string(x.size()) + " and y " +
                               std::to_string(y.size()) + " elements for a " +
                               std::to_string(m.rows) + "x" + std::to_string(m.cols) + " matrix");
    TOMO_RETURN_IF_ERROR(check(
        cudaMemcpyAsync(m.x.get(), x.data(), x.size_bytes(), cudaMemcpyHostToDevice, m.stream),
        "cudaMemcpyAsync(x)"));
    TOMO_RETURN_IF_ERROR(m.run());
    TOMO_RETURN_IF_ERROR(check(
        cudaMemcpyAsync(y.data(), m.y.get(), y.size_bytes(), cudaMemcpyDeviceToHost, m.stream),
        "cudaMemcpyAsync(y)"));
    return check(cudaStreamSynchronize(m.stream), "cudaStreamSynchronize");
}

Result<double> CudaSparseMatrix::timeMultiply(int repeat) {
    Impl& m = *m_impl;
    cudaEvent_t start = nullptr, stop = nullptr;
    TOMO_RETURN_IF_ERROR(check(cudaEventCreate(&start), "cudaEventCreate"));
    Status st = check(cudaEventCreate(&stop), "cudaEventCreate");
    std::vector<double> ms;
    if (st.isOk()) st = m.run();  // warm-up
    for (int r = 0; st.isOk() && r < std::max(1, repeat); ++r) {
        st = check(cudaEventRecord(start, m.stream), "cudaEventRecord");
        if (st.isOk()) st = m.run();
        if (st.isOk()) st = check(cudaEventRecord(stop, m.stream), "cudaEventRecord");
        if (st.isOk()) st = check(cudaEventSynchronize(stop), "cudaEventSynchronize");
        float t = 0;
        if (st.isOk()) st = check(cudaEventElapsedTime(&t, start, stop), "cudaEventElapsedTime");
        ms.push_back(t);
    }
    cudaEventDestroy(start);
    if (stop) cudaEventDestroy(stop);
    if (!st.isOk()) return st;
    std::sort(ms.begin(), ms.end());
    return ms[ms.size() / 2];
}

Result<double> cudaCopyBandwidth(std::size_t bytes, int repeat) {
    if (!cudaDeviceAvailable()) return unsupported("no CUDA device");
    DeviceArray<char> a, b;
    TOMO_RETURN_IF_ERROR(a.allocate(bytes, "copy source"));
    TOMO_RETURN_IF_ERROR(b.allocate(bytes, "copy destination"));
    TOMO_RETURN_IF_ERROR(check(cudaMemset(a.get(), 1, bytes), "cudaMemset"));
    double best = 1e30;
    for (int r = 0; r <= std::max(1, repeat); ++r) {
        cudaEvent_t start = nullptr, stop = nullptr;
        TOMO_RETURN_IF_ERROR(check(cudaEventCreate(&start), "cudaEventCreate"));
        TOMO_RETURN_IF_ERROR(check(cudaEventCreate(&stop), "cudaEventCreate"));
        cudaEventRecord(start);
        Status st = check(cudaMemcpy(b.get(), a.get(), bytes, cudaMemcpyDeviceToDevice),
                          "cudaMemcpy(device to device)");
        cudaEventRecord(stop);
        cudaEventSynchronize(stop);
        float ms = 0;
        cudaEventElapsedTime(&ms, start, stop);
        cudaEventDestroy(start);
        cudaEventDestroy(stop);
        TOMO_RETURN_IF_ERROR(st);
        if (r > 0) best = std::min(best, double(ms) * 1e-3);
    }
    return 2.0 * double(bytes) / best;
}

Result<std::string> cudaDeviceName() {
    int device = 0;
    TOMO_RETURN_IF_ERROR(check(cudaGetDevice(&device), "cudaGetDevice"));
    cudaDeviceProp prop{};
    TOMO_RETURN_IF_ERROR(check(cudaGetDeviceProperties(&prop, device), "cudaGetDeviceProperties"));
    return std::string(prop.name);
}

}  // namespace tomo::cuda
