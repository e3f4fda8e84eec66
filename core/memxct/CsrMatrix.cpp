#include "core/memxct/CsrMatrix.h"

#include <algorithm>
#include <new>
#include <string>

#include "core/base/Parallel.h"

namespace tomo {
namespace {

/// Rows of A between two stop checks in transposeCsr (a few thousand nonzeros: well under 1 ms).
constexpr std::size_t kTransposeStepRows = 256;

}  // namespace

Status CsrMatrix::validate() const {
    if (rowPtr.size() != rows + 1 || rowPtr.front() != 0 || rowPtr.back() != columns.size() ||
        values.size() != columns.size())
        return invalidData("CSR matrix: " + std::to_string(rowPtr.size()) + " row pointers for " +
                           std::to_string(rows) + " rows, " + std::to_string(columns.size()) +
                           " columns, " + std::to_string(values.size()) + " values");
    for (std::size_t r = 0; r < rows; ++r)
        if (rowPtr[r] > rowPtr[r + 1])
            return invalidData("CSR matrix: row pointers decrease at row " + std::to_string(r));
    for (std::uint32_t c : columns)
        if (c >= cols)
            return invalidData("CSR matrix: column " + std::to_string(c) +
                               " >= " + std::to_string(cols));
    return Status::ok();
}

Status spmvCsr(const CsrMatrix& a, std::span<const float> x, std::span<float> y,
               const ExecContext& ctx) {
    if (x.size() != a.cols || y.size() != a.rows)
        return invalidArgument("CSR SpMV: x has " + std::to_string(x.size()) + " and y " +
                               std::to_string(y.size()) + " elements for a " +
                               std::to_string(a.rows) + "x" + std::to_string(a.cols) + " matrix");
    const std::uint64_t* ptr = a.rowPtr.data();
    const std::uint32_t* ind = a.columns.data();
    const float* val = a.values.data();
    const float* in = x.data();
    float* out = y.data();
    const std::size_t parts = (a.rows + kCsrPartitionRows - 1) / kCsrPartitionRows;
    return parallelFor(parts, ctx.threads, ctx.stop, [&](std::size_t part, int) {
        const std::size_t r0 = part * kCsrPartitionRows;
        const std::size_t r1 = std::min(a.rows, r0 + kCsrPartitionRows);
        for (std::size_t r = r0; r < r1; ++r) {
            std::uint64_t j = ptr[r];
            const std::uint64_t end = ptr[r + 1];
            float s0 = 0, s1 = 0, s2 = 0, s3 = 0;
            for (; j + 4 <= end; j += 4) {
                s0 += in[ind[j]] * val[j];
                s1 += in[ind[j + 1]] * val[j + 1];
                s2 += in[ind[j + 2]] * val[j + 2];
                s3 += in[ind[j + 3]] * val[j + 3];
            }
            for (; j < end; ++j)
                s0 += in[ind[j]] * val[j];
            out[r] = (s0 + s1) + (s2 + s3);
        }
    });
}

Result<CsrMatrix> transposeCsr(const CsrMatrix& a, const ExecContext& ctx) {
    if (a.rows > 0xffffffffu)
        return invalidArgument("transpose: " + std::to_string(a.rows) +
                               " rows do not fit the 32-bit column indices of A^T");
    const std::size_t workers = static_cast<std::size_t>(
        std::max(1, std::min(resolveThreads(ctx.threads),
                             static_cast<int>(std::max<std::size_t>(1, a.rows / 64)))));
    CsrMatrix t;
    t.rows = a.cols;
    t.cols = a.rows;
    std::vector<std::uint64_t> offsets;  // [worker][column], then write cursors
    try {
        t.rowPtr.assign(a.cols + 1, 0);
        t.columns.resize(a.nonzeros());
        t.values.resize(a.nonzeros());
        offsets.assign(workers * a.cols, 0);
    } catch (const std::bad_alloc&) {
        return outOfMemory("transpose: cannot allocate " +
                           std::to_string((a.bytes() + workers * a.cols * 8) >> 20) + " MiB");
    }
    auto rowBlock = [&](std::size_t w, std::size_t& r0, std::size_t& r1) {
        r0 = a.rows * w / workers;
        r1 = a.rows * (w + 1) / workers;
    };
    // Each worker owns one contiguous block of rows (that keeps the result stable); it walks
    // its block in steps of kTransposeStepRows, checking the stop token and advancing the
    // progress (2 x rows units: histogram, then scatter) between steps, so that a cancel
    // lands within one step (~1 ms) even when a block holds seconds of work.
    if (ctx.progress) ctx.progress->setTotal(2 * std::max<std::size_t>(a.rows, 1));
    auto inSteps = [&](std::size_t w, auto&& rowFn) {
        std::size_t r0 = 0, r1 = 0;
        rowBlock(w, r0, r1);
        for (std::size_t s0 = r0; s0 < r1; s0 += kTransposeStepRows) {
            if (ctx.stop.stop_requested()) return;
            const std::size_t s1 = std::min(r1, s0 + kTransposeStepRows);
            for (std::size_t r = s0; r < s1; ++r)
                rowFn(r);
            if (ctx.progress) ctx.progress->advance(s1 - s0);
        }
    };
    // 1. per-worker column histograms
    TOMO_RETURN_IF_ERROR(
        parallelFor(workers, static_cast<int>(workers), ctx.stop, [&](std::size_t w, int) {
            std::uint64_t* count = offsets.data() + w * a.cols;
            inSteps(w, [&](std::size_t r) {
                for (std::uint64_t j = a.rowPtr[r]; j < a.rowPtr[r + 1]; ++j)
                    ++count[a.columns[j]];
            });
        }));
    // 2. exclusive scan in (column, worker) order
    std::uint64_t running = 0;
    for (std::size_t c = 0; c < a.cols; ++c) {
        t.rowPtr[c] = running;
        for (std::size_t w = 0; w < workers; ++w) {
            std::uint64_t& o = offsets[w * a.cols + c];
            const std::uint64_t n = o;
            o = running;
            running += n;
        }
    }
    t.rowPtr[a.cols] = running;
    // 3. stable scatter: worker w writes its rows in order after the workers before it
    return parallelFor(
               workers, static_cast<int>(workers), ctx.stop,
               [&](std::size_t w, int) {
                   std::uint64_t* cursor = offsets.data() + w * a.cols;
                   inSteps(w, [&](std::size_t r) {
                       for (std::uint64_t j = a.rowPtr[r]; j < a.rowPtr[r + 1]; ++j) {
                           const std::uint64_t dst = cursor[a.columns[j]]++;
                           t.columns[dst] = static_cast<std::uint32_t>(r);
                           t.values[dst] = a.values[j];
                       }
                   });
               }).isOk()
               ? Result<CsrMatrix>(std::move(t))
               : Result<CsrMatrix>(cancelled("transpose cancelled"));
}

}  // namespace tomo
