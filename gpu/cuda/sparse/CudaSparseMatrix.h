#pragma once
/// @file CudaSparseMatrix.h
/// @brief MemXCT's SpMV on a CUDA device (paper 000: M. Hidayetoglu et al., "MemXCT:
/// Memory-Centric X-ray CT Reconstruction with Massive Parallelization", SC'19,
/// doi:10.1145/3295500.3356220, sections 3.3 and 4.2): one matrix of core/memxct uploaded in one
/// of three device formats, with y = A x on device-resident vectors.
///
///  - Ell: the paper's baseline GPU kernel: transposed ELL zero-padded per CUDA block (not per
///    matrix), one thread per row, 32-bit indices (8 B per stored entry incl. padding).
///  - Buffered: the multi-stage input-buffered kernel: per block and stage the inputs are staged
///    into shared memory (__syncthreads() before and after), then a per-stage transposed ELL
///    slice with 16-bit buffer indices is walked; the accumulator stays in a register.
///  - CusparseCsr: the vendor reference, cusparseSpMV on CSR (the legacy ELL/HYB routines the
///    paper compared against were removed in CUDA 11).
///
/// No CUDA type appears here; errors are Status values (OutOfMemory for cudaMalloc failures,
/// DeviceError for anything else, Unsupported without a device). Threading: one instance per
/// thread; all work is on the instance's own stream.

#include <cstdint>
#include <memory>
#include <span>
#include <string>

#include "core/base/Status.h"
#include "core/memxct/BufferedMatrix.h"
#include "core/memxct/CsrMatrix.h"

namespace tomo::cuda {

enum class SparseFormat { Ell, Buffered, CusparseCsr };
const char* sparseFormatName(SparseFormat f);

/// True when a CUDA device is usable (tests skip otherwise).
bool cudaDeviceAvailable();

class CudaSparseMatrix {
  public:
    /// Uploads @p a as Ell (blocks of @p blockRows rows, 32..1024) or CusparseCsr (requires
    /// fewer than 2^31 nonzeros). InvalidArgument for bad parameters.
    static Result<CudaSparseMatrix> upload(const CsrMatrix& a, SparseFormat format,
                                           int blockRows = 64);
    /// Uploads a buffered matrix; its partitionRows is the CUDA block size (32..1024, multiple
    /// of 32) and bufferFloats the shared-memory stage (at most the device's opt-in maximum).
    static Result<CudaSparseMatrix> upload(const BufferedMatrix& a);

    CudaSparseMatrix(CudaSparseMatrix&&) noexcept;
    CudaSparseMatrix& operator=(CudaSparseMatrix&&) noexcept;
    ~CudaSparseMatrix();

    SparseFormat format() const;
    std::size_t rows() const;
    std::size_t cols() const;
    /// Device bytes of the matrix (incl. padding).
    std::size_t deviceBytes() const;
    /// Stored entries incl. ELL padding (equals nonzeros for CusparseCsr).
    std::size_t storedEntries() const;

    /// y = A x with host vectors (copies both ways; for tests).
    Status multiply(std::span<const float> x, std::span<float> y);
    /// Median milliseconds of one SpMV on device-resident vectors over @p repeat runs (after a
    /// warm-up), timed with CUDA events.
    Result<double> timeMultiply(int repeat);

  private:
    struct Impl;
    explicit CudaSparseMatrix(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> m_impl;
};

/// Device-to-device copy bandwidth (bytes read + written per second) of @p bytes, best of
/// @p repeat (the STREAM-like reference of the benchmark).
Result<double> cudaCopyBandwidth(std::size_t bytes, int repeat);
/// The device name ("NVIDIA H100 80GB HBM3").
Result<std::string> cudaDeviceName();

}  // namespace tomo::cuda
