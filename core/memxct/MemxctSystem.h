#pragma once
/// @file MemxctSystem.h
/// @brief The MemXCT system matrix of one slice: Hilbert orderings of image and sinogram,
/// Siddon-traced A (rows = rays in sinogram curve order, columns = real image pixels in image
/// curve order, values = intersection lengths; a row lists its pixels in traversal order along
/// the ray), its scan-based transpose A^T (rows sorted by ray curve index) and, optionally,
/// the multi-stage buffered forms of both (paper 000: M. Hidayetoglu et al., "MemXCT:
/// Memory-Centric X-ray CT Reconstruction with Massive Parallelization", SC'19,
/// doi:10.1145/3295500.3356220, sections 3.1-3.3 and 3.5).
///
/// The matrix depends only on the 2-D geometry (angles, detector, per-angle axis positions and
/// the slice grid), so it is built once and reused for every slice of a stack.
///
/// Memory: estimateMemxctMemory() bounds the nonzeros from the geometry alone (per ray the
/// chord through the grid, or through the reconstruction circle, times |sin|+|cos| per voxel,
/// plus 2) and turns them into resident and peak bytes for the chosen plan, in O(angles x
/// detectors) time; build() refuses to start (OutOfMemory naming both numbers) when the peak
/// exceeds the budget. Resident bytes: CSR kernel 2 x (8 B per nonzero + row pointers);
/// buffered kernel 2 x (6 B per nonzero + map + per-stage row pointers).
///
/// Threading: build() uses ctx.threads workers; a built system is immutable and its kernels may
/// be called from one thread at a time per output buffer.

#include <cstdint>
#include <string>

#include "core/base/ExecContext.h"
#include "core/base/Status.h"
#include "core/geometry/ParallelGeometry.h"
#include "core/memxct/BufferedMatrix.h"
#include "core/memxct/CsrMatrix.h"
#include "core/memxct/HilbertOrdering.h"

namespace tomo {

/// Which SpMV kernel the operator uses.
enum class MemxctKernel {
    Csr,       ///< baseline gather (paper Listing 2)
    Buffered,  ///< multi-stage input buffering with 16-bit indices (paper Listing 3)
};
const char* memxctKernelName(MemxctKernel k);
Result<MemxctKernel> parseMemxctKernel(const std::string& name);  ///< "csr" | "buffered"

struct MemxctOptions {
    MemxctKernel kernel = MemxctKernel::Buffered;
    int tileSize = 32;        ///< Hilbert tile side (power of two), image and sinogram
    bool rowMajor = false;    ///< ablation: row-major instead of Hilbert ordering
    bool circleMask = true;   ///< order only pixels whose centre is inside the inscribed circle
    int partitionRows = 256;  ///< rows per partition (the paper's partsize / block size)
    int bufferFloats = 8192;  ///< stage buffer, floats (32 KiB, inside a 48 KiB L1d)
    bool keepCsr = false;     ///< with Buffered: keep the CSR matrices too (benchmarks)
    /// Peak bytes the build may use; 0 = three quarters of the physical memory.
    std::size_t memoryBudgetBytes = 0;

    /// InvalidArgument naming the first bad field.
    Status validate() const;
};

struct MemxctMemoryEstimate {
    std::size_t nonzeros = 0;       ///< upper bound of the nonzeros of A
    std::size_t residentBytes = 0;  ///< A and A^T in the plan's formats, plus orderings
    std::size_t peakBytes = 0;      ///< during the build (CSR + transpose + buffered at once)
    std::size_t budgetBytes = 0;    ///< the budget it was compared against
    bool fits() const { return peakBytes <= budgetBytes; }
};

/// Bytes of physical memory (0 when unknown).
std::size_t physicalMemoryBytes();

/// Estimates the memory of a system for one slice of @p vol (nz is ignored) without building
/// it. InvalidArgument for an invalid grid or options.
Result<MemxctMemoryEstimate> estimateMemxctMemory(const ParallelGeometry& geom,
                                                  const VolumeGeometry& vol,
                                                  const MemxctOptions& options);

/// The image ordering (real pixels: the circle mask when options.circleMask) and the sinogram
/// ordering (detector x angle) of a system.
struct MemxctOrderings {
    HilbertOrdering image, sinogram;
};
Result<MemxctOrderings> memxctOrderings(const ParallelGeometry& geom, const VolumeGeometry& vol,
                                        const MemxctOptions& options);

/// Rows [first, first + count) of A (rays at sinogram curve positions first...) traced against
/// the image ordering (columns = image curve indices), entries in traversal order along each
/// ray: the same rows as build()'s A. ctx.progress gets one unit per 512 rays.
Result<CsrMatrix> traceMemxctRows(const ParallelGeometry& geom, const VolumeGeometry& vol,
                                  const HilbertOrdering& image, const HilbertOrdering& sino,
                                  std::size_t first, std::size_t count, const ExecContext& ctx);

/// Seconds spent in each preprocessing stage of build().
struct MemxctBuildTimes {
    double ordering = 0, tracing = 0, transpose = 0, buffering = 0;
    double total() const { return ordering + tracing + transpose + buffering; }
};

class MemxctSystem {
  public:
    /// Orders, traces, transposes and (Buffered) stages. OutOfMemory before any work when the
    /// estimate exceeds the budget (or when an allocation fails), InvalidArgument for a bad grid
    /// or options, Cancelled when ctx.stop fired (every stage checks it at least every few
    /// milliseconds of work). ctx.progress, when set, advances through the stages
    /// "MemXCT: tracing rays", "MemXCT: transposing" and (Buffered) "MemXCT: staging buffers".
    static Result<MemxctSystem> build(const ParallelGeometry& geom, const VolumeGeometry& vol,
                                      const MemxctOptions& options, const ExecContext& ctx);

    const MemxctOptions& options() const { return m_options; }
    const HilbertOrdering& imageOrdering() const { return m_image; }
    const HilbertOrdering& sinogramOrdering() const { return m_sino; }
    /// CSR forms (empty when the plan dropped them).
    const CsrMatrix& forwardCsr() const { return m_forward; }
    const CsrMatrix& adjointCsr() const { return m_adjoint; }
    /// Buffered forms (empty for the Csr kernel).
    const BufferedMatrix& forwardBuffered() const { return m_forwardBuf; }
    const BufferedMatrix& adjointBuffered() const { return m_adjointBuf; }
    std::size_t nonzeros() const { return m_nonzeros; }
    std::size_t residentBytes() const;
    const MemxctBuildTimes& buildTimes() const { return m_times; }

    /// Curve-ordered y = A x with @p kernel (which must have been built).
    Status forward(MemxctKernel kernel, std::span<const float> x, std::span<float> y,
                   const ExecContext& ctx) const;
    /// Curve-ordered x = A^T y.
    Status adjoint(MemxctKernel kernel, std::span<const float> y, std::span<float> x,
                   const ExecContext& ctx) const;

  private:
    MemxctSystem() = default;
    MemxctOptions m_options;
    HilbertOrdering m_image, m_sino;
    CsrMatrix m_forward, m_adjoint;
    BufferedMatrix m_forwardBuf, m_adjointBuf;
    std::size_t m_nonzeros = 0;
    MemxctBuildTimes m_times;
};

}  // namespace tomo
