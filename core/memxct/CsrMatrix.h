#pragma once
/// @file CsrMatrix.h
/// @brief Compressed sparse row matrix, the order-preserving scan-based transpose and the
/// baseline gather SpMV of MemXCT (paper 000, Listing 2: M. Hidayetoglu et al., SC'19,
/// doi:10.1145/3295500.3356220).
///
/// Layout: row r holds entries [rowPtr[r], rowPtr[r+1]) of `columns` (32-bit) and `values`
/// (float32); row pointers are 64-bit so that single-device matrices above 2^32 nonzeros work.
/// MemXCT stores A (rows = rays, columns = image pixels, values = intersection lengths) and
/// A^T explicitly, so forward and back-projection are both row-wise gathers without atomics.
///
/// Transpose: H. Wang, W. Liu, K. Hou, W. Feng, "Parallel transposition of sparse data
/// structures", ICS'16, doi:10.1145/2925426.2926291 (ScanTrans): every worker counts the columns
/// of its contiguous block of rows, an exclusive scan over (column, worker) gives each worker its
/// write offsets, and the workers scatter in row order. The result is deterministic and stable:
/// within a row of A^T the entries are in increasing row order of A, so the locality ordering of
/// A's rows carries over (an atomic-based transpose would randomise it).
///
/// Threading: spmvCsr and transposeCsr use ctx.threads workers (parallelFor); results do not
/// depend on the thread count.

#include <cstdint>
#include <span>
#include <vector>

#include "core/base/ExecContext.h"
#include "core/base/Status.h"

namespace tomo {

struct CsrMatrix {
    std::size_t rows = 0;
    std::size_t cols = 0;
    std::vector<std::uint64_t> rowPtr;   ///< rows + 1 offsets
    std::vector<std::uint32_t> columns;  ///< column of each nonzero
    std::vector<float> values;           ///< value of each nonzero

    std::size_t nonzeros() const { return columns.size(); }
    /// Bytes held by the three arrays.
    std::size_t bytes() const {
        return rowPtr.size() * sizeof(std::uint64_t) + columns.size() * sizeof(std::uint32_t) +
               values.size() * sizeof(float);
    }
    /// InvalidData unless the pointers are monotone, end at nonzeros() and columns < cols.
    Status validate() const;
};

/// Rows per dynamically scheduled work item of the CSR kernel (the paper's partsize on KNL).
inline constexpr std::size_t kCsrPartitionRows = 128;

/// y = A x (overwrites y). InvalidArgument on size mismatch, Cancelled when ctx.stop fired.
/// Each row sums its entries in storage order with four interleaved partial sums.
Status spmvCsr(const CsrMatrix& a, std::span<const float> x, std::span<float> y,
               const ExecContext& ctx);

/// A^T by the scan-based transpose (see file comment). OutOfMemory when allocation fails,
/// Cancelled when ctx.stop fired (checked every few hundred rows). ctx.progress, when set,
/// advances per row of A in each of the two passes.
Result<CsrMatrix> transposeCsr(const CsrMatrix& a, const ExecContext& ctx);

}  // namespace tomo
