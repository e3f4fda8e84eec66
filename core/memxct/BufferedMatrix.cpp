#include "core/memxct/BufferedMatrix.h"

#include <algorithm>
#include <new>
#include <string>

#include "core/base/Parallel.h"

namespace tomo {
namespace {

constexpr std::uint32_t kNoSlot = 0xffffffffu;

/// Distinct columns of rows [r0, r1) in increasing order (the curve order of the input), with
/// slot[c] set to the position of c. @p slot (a.cols entries) is all kNoSlot on entry;
/// releaseSlots() restores that.
void distinctColumns(const CsrMatrix& a, std::size_t r0, std::size_t r1,
                     std::vector<std::uint32_t>& slot, std::vector<std::uint32_t>& cols) {
    cols.clear();
    for (std::uint64_t j = a.rowPtr[r0]; j < a.rowPtr[r1]; ++j)
        if (slot[a.columns[j]] == kNoSlot) {
            slot[a.columns[j]] = 0;
            cols.push_back(a.columns[j]);
        }
    std::sort(cols.begin(), cols.end());
    for (std::size_t i = 0; i < cols.size(); ++i)
        slot[cols[i]] = static_cast<std::uint32_t>(i);
}

void releaseSlots(const std::vector<std::uint32_t>& cols, std::vector<std::uint32_t>& slot) {
    for (std::uint32_t c : cols)
        slot[c] = kNoSlot;
}

/// Per-worker scratch of the two passes.
struct Scratch {
    std::vector<std::uint32_t> slot;
    /// Pass 2: per column of the current partition (stage * partitionRows) << 16 | buffer
    /// index, so the hot loops need no division. Entries of other columns are stale, never read.
    std::vector<std::uint64_t> place;
};

}  // namespace

std::size_t bufferedBytesEstimate(std::size_t rows, std::size_t nonzeros, std::size_t partitionRows,
                                  std::size_t stagesPerPartition) {
    const std::size_t parts = (rows + partitionRows - 1) / partitionRows;
    const std::size_t stages = parts * stagesPerPartition;
    // map holds at most one entry per nonzero; typically far fewer.
    const std::size_t mapEntries = std::min(nonzeros, stages * 65536);
    return parts * 4 + stages * 8 + mapEntries * 4 + stages * partitionRows * 8 + nonzeros * 6;
}

Result<BufferedMatrix> buildBuffered(const CsrMatrix& a, std::size_t partitionRows,
                                     std::size_t bufferFloats, const ExecContext& ctx) {
    if (partitionRows < 1 || partitionRows > 65536 || bufferFloats < 1 || bufferFloats > 65536)
        return invalidArgument("buffered SpMV: partition rows " + std::to_string(partitionRows) +
                               " and buffer size " + std::to_string(bufferFloats) +
                               " must lie in [1, 65536]");
    const std::size_t parts = (a.rows + partitionRows - 1) / partitionRows;
    const std::size_t pr = partitionRows, buf = bufferFloats;
    BufferedMatrix b;
    b.rows = a.rows;
    b.cols = a.cols;
    b.partitionRows = pr;
    b.bufferFloats = buf;
    try {
        const int workers = std::max(1, resolveThreads(ctx.threads));
        std::vector<Scratch> scratch(static_cast<std::size_t>(workers));
        auto prepare = [&](int w) -> Scratch& {
            Scratch& s = scratch[static_cast<std::size_t>(w)];
            if (s.slot.empty()) {
                s.slot.assign(a.cols, kNoSlot);
                s.place.resize(a.cols);
            }
            return s;
        };
        // Pass 1: the distinct inputs of every partition (its map, about 0.1 per nonzero).
        std::vector<std::vector<std::uint32_t>> partCols(parts);
        std::vector<std::uint64_t> distinct(parts, 0);
        if (ctx.progress) ctx.progress->setTotal(2 * std::max<std::size_t>(parts, 1));
        TOMO_RETURN_IF_ERROR(parallelFor(parts, workers, ctx.stop, [&](std::size_t p, int w) {
            Scratch& s = prepare(w);
            distinctColumns(a, p * pr, std::min(a.rows, (p + 1) * pr), s.slot, partCols[p]);
            distinct[p] = partCols[p].size();
            releaseSlots(partCols[p], s.slot);
            if (ctx.progress) ctx.progress->advance();
        }));
        b.stageBegin.resize(parts + 1);
        std::uint64_t stages = 0, mapSize = 0;
        for (std::size_t p = 0; p < parts; ++p) {
            b.stageBegin[p] = static_cast<std::uint32_t>(stages);
            stages += (distinct[p] + buf - 1) / buf;
            mapSize += distinct[p];
        }
        b.stageBegin[parts] = static_cast<std::uint32_t>(stages);
        b.mapBegin.resize(stages + 1);
        b.map.resize(mapSize);
        b.rowPtr.assign(stages * pr + 1, 0);
        b.local.resize(a.nonzeros());
        b.values.resize(a.nonzeros());
        std::uint64_t m = 0;
        for (std::size_t p = 0; p < parts; ++p)
            for (std::uint32_t s = b.stageBegin[p]; s < b.stageBegin[p + 1]; ++s) {
                b.mapBegin[s] = m;
                m += std::min<std::uint64_t>(buf, distinct[p] - (s - b.stageBegin[p]) * buf);
            }
        b.mapBegin[stages] = m;
        // Pass 2a: per (stage, row) counts; the nonzeros of partition p start at
        // a.rowPtr[p * pr] in both layouts.
        TOMO_RETURN_IF_ERROR(parallelFor(parts, workers, ctx.stop, [&](std::size_t p, int w) {
            Scratch& s = prepare(w);
            const std::size_t r0 = p * pr, r1 = std::min(a.rows, r0 + pr);
            const std::vector<std::uint32_t>& cols = partCols[p];
            for (std::size_t i = 0; i < cols.size(); ++i)
                s.place[cols[i]] = (std::uint64_t((i / buf) * pr) << 16) | (i % buf);
            std::copy(cols.begin(), cols.end(),
                      b.map.begin() + static_cast<std::ptrdiff_t>(b.mapBegin[b.stageBegin[p]]));
            const std::size_t first = std::size_t(b.stageBegin[p]) * pr;
            for (std::size_t r = r0; r < r1; ++r)
                for (std::uint64_t j = a.rowPtr[r]; j < a.rowPtr[r + 1]; ++j)
                    ++b.rowPtr[first + (s.place[a.columns[j]] >> 16) + (r - r0) + 1];
            // Prefix sum into absolute ends; entry `first` starts at the partition's first
            // nonzero (rowPtr[first] is the previous partition's last end).
            const std::size_t last = std::size_t(b.stageBegin[p + 1]) * pr;
            std::uint64_t run = a.rowPtr[r0];
            for (std::size_t k = first; k < last; ++k) {
                const std::uint64_t c = b.rowPtr[k + 1];
                b.rowPtr[k + 1] = run + c;  // end of (stage, row) k
                run += c;
            }
            // Pass 2b: place the entries (cursor = start of each (stage, row)).
            std::vector<std::uint64_t> cursor(last - first);
            for (std::size_t k = first; k < last; ++k)
                cursor[k - first] = k == first ? a.rowPtr[r0] : b.rowPtr[k];
            for (std::size_t r = r0; r < r1; ++r)
                for (std::uint64_t j = a.rowPtr[r]; j < a.rowPtr[r + 1]; ++j) {
                    const std::uint64_t place = s.place[a.columns[j]];
                    const std::uint64_t dst = cursor[(place >> 16) + (r - r0)]++;
                    b.local[dst] = static_cast<std::uint16_t>(place & 0xffffu);
                    b.values[dst] = a.values[j];
                }
            partCols[p] = {};
            if (ctx.progress) ctx.progress->advance();
        }));
        b.rowPtr[0] = 0;
    } catch (const std::bad_alloc&) {
        return outOfMemory("buffered SpMV: cannot allocate the staged matrix for " +
                           std::to_string(a.nonzeros()) + " nonzeros");
    }
    return b;
}

Status spmvBuffered(const BufferedMatrix& a, std::span<const float> x, std::span<float> y,
                    const ExecContext& ctx) {
    if (x.size() != a.cols || y.size() != a.rows)
        return invalidArgument("buffered SpMV: x has " + std::to_string(x.size()) + " and y " +
                               std::to_string(y.size()) + " elements for a " +
                               std::to_string(a.rows) + "x" + std::to_string(a.cols) + " matrix");
    const std::size_t parts = a.partitions();
    const int workers = std::max(1, std::min(resolveThreads(ctx.threads),
                                             static_cast<int>(std::max<std::size_t>(parts, 1))));
    const std::size_t pr = a.partitionRows;
    std::vector<float> scratch(static_cast<std::size_t>(workers) * (a.bufferFloats + pr));
    const float* in = x.data();
    return parallelFor(parts, workers, ctx.stop, [&](std::size_t p, int worker) {
        float* buffer = scratch.data() + static_cast<std::size_t>(worker) * (a.bufferFloats + pr);
        float* acc = buffer + a.bufferFloats;
        std::fill_n(acc, pr, 0.0f);
        for (std::size_t s = a.stageBegin[p]; s < a.stageBegin[p + 1]; ++s) {
            const std::uint32_t* m = a.map.data() + a.mapBegin[s];
            const std::size_t count = a.mapBegin[s + 1] - a.mapBegin[s];
            for (std::size_t i = 0; i < count; ++i)
                buffer[i] = in[m[i]];
            const std::uint64_t* ptr = a.rowPtr.data() + s * pr;
            const std::uint16_t* ind = a.local.data();
            const float* val = a.values.data();
            for (std::size_t j = 0; j < pr; ++j) {
                std::uint64_t k = ptr[j];
                const std::uint64_t end = ptr[j + 1];
                float s0 = 0, s1 = 0, s2 = 0, s3 = 0;
                for (; k + 4 <= end; k += 4) {
                    s0 += buffer[ind[k]] * val[k];
                    s1 += buffer[ind[k + 1]] * val[k + 1];
                    s2 += buffer[ind[k + 2]] * val[k + 2];
                    s3 += buffer[ind[k + 3]] * val[k + 3];
                }
                for (; k < end; ++k)
                    s0 += buffer[ind[k]] * val[k];
                acc[j] += (s0 + s1) + (s2 + s3);
            }
        }
        const std::size_t r0 = p * pr;
        const std::size_t n = std::min(pr, a.rows - r0);
        std::copy_n(acc, n, y.data() + r0);
    });
}

}  // namespace tomo
