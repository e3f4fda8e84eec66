#pragma once
/// @file BufferedMatrix.h
/// @brief The multi-stage input-buffered sparse matrix of MemXCT (paper 000, section 3.3 and
/// Listing 3: M. Hidayetoglu et al., SC'19, doi:10.1145/3295500.3356220).
///
/// Rows are cut into partitions of `partitionRows` consecutive rows. For each partition the
/// sorted set of input (column) indices its rows touch is cut into stages of at most
/// `bufferFloats` entries; `map` lists them. The kernel, per partition and stage, first gathers
/// x[map[...]] into a small buffer (sized to stay in L1/L2 on a CPU, shared memory on a GPU),
/// then every row of the partition reads the buffer through 16-bit local indices. With Hilbert-
/// ordered rows and columns a partition touches a compact 2-D region, so the stage count stays
/// small, the irregular accesses hit the buffer, and the regular stream per nonzero shrinks from
/// 8 bytes (32-bit index + value) to 6 bytes (16-bit index + value) plus the amortised map.
///
/// Layout (names of the paper's listing):
///  - stageBegin[p] .. stageBegin[p+1]: the stages of partition p;
///  - mapBegin[s] .. mapBegin[s+1]: the input indices of stage s in `map` (32-bit);
///  - rowPtr[s * partitionRows + j] .. [+1]: nonzeros of local row j in stage s (64-bit),
///    stored contiguously stage by stage; `local` (16-bit) and `values` (float32).
/// Within a row and stage the entries keep the CSR order, and the stages follow increasing
/// column order, so a row whose CSR entries are sorted by column sums the same terms in the same
/// sequence as spmvCsr; only the grouping into partial sums differs (float rounding).
///
/// Threading: spmvBuffered runs partitions on ctx.threads workers with per-worker scratch;
/// results do not depend on the thread count.

#include <cstdint>
#include <span>
#include <vector>

#include "core/base/ExecContext.h"
#include "core/base/Status.h"
#include "core/memxct/CsrMatrix.h"

namespace tomo {

struct BufferedMatrix {
    std::size_t rows = 0;
    std::size_t cols = 0;
    std::size_t partitionRows = 128;
    std::size_t bufferFloats = 4096;
    std::vector<std::uint32_t> stageBegin;  ///< partitions + 1
    std::vector<std::uint64_t> mapBegin;    ///< stages + 1
    std::vector<std::uint32_t> map;         ///< input index per buffer slot
    std::vector<std::uint64_t> rowPtr;      ///< stages * partitionRows + 1
    std::vector<std::uint16_t> local;       ///< buffer index per nonzero
    std::vector<float> values;              ///< value per nonzero

    std::size_t partitions() const { return stageBegin.empty() ? 0 : stageBegin.size() - 1; }
    std::size_t stages() const { return mapBegin.empty() ? 0 : mapBegin.size() - 1; }
    std::size_t nonzeros() const { return values.size(); }
    std::size_t bytes() const {
        return stageBegin.size() * 4 + mapBegin.size() * 8 + map.size() * 4 + rowPtr.size() * 8 +
               local.size() * 2 + values.size() * 4;
    }
};

/// Upper bound of the bytes buildBuffered() allocates for a matrix with @p nonzeros entries and
/// @p rows rows when no partition needs more than @p stagesPerPartition stages.
std::size_t bufferedBytesEstimate(std::size_t rows, std::size_t nonzeros, std::size_t partitionRows,
                                  std::size_t stagesPerPartition);

/// Builds the buffered form of @p a. @p partitionRows in [1, 65536], @p bufferFloats in
/// [1, 65536] (16-bit local indices). InvalidArgument on bad parameters, OutOfMemory when
/// allocation fails, Cancelled when ctx.stop fired (checked per partition). ctx.progress, when
/// set, advances per partition in each of the two passes.
Result<BufferedMatrix> buildBuffered(const CsrMatrix& a, std::size_t partitionRows,
                                     std::size_t bufferFloats, const ExecContext& ctx);

/// y = A x with the staged kernel (overwrites y). InvalidArgument on size mismatch, Cancelled
/// when ctx.stop fired.
Status spmvBuffered(const BufferedMatrix& a, std::span<const float> x, std::span<float> y,
                    const ExecContext& ctx);

}  // namespace tomo
