// MemXCT's SpMV partitioned over ranks (PartitionedMemxct.h).
#include "core/memxct/PartitionedMemxct.h"

#include <algorithm>
#include <cstdint>

#include "core/base/Parallel.h"

namespace tomo {
namespace {

/// Tile (row, column) of curve position @p pos.
std::pair<std::uint32_t, std::uint32_t> tileOf(const HilbertOrdering& o, std::size_t pos) {
    const std::uint32_t pixel = o.pixelAt(pos), w = std::uint32_t(o.width());
    const auto t = std::uint32_t(o.tileSize());
    return {pixel / w / t, pixel % w / t};
}

std::span<const std::byte> floatBytes(const std::vector<float>& v) {
    return std::as_bytes(std::span<const float>(v));
}

Status checkSizes(const LinearOperator& op, std::span<const float> x, std::span<const float> y) {
    if (x.size() != op.domainSize() || y.size() != op.rangeSize())
        return invalidArgument("MemXCT (partitioned): vectors of " + std::to_string(x.size()) +
                               " and " + std::to_string(y.size()) + " values for an operator of " +
                               std::to_string(op.domainSize()) + " x " +
                               std::to_string(op.rangeSize()));
    return Status::ok();
}

}  // namespace

std::vector<std::size_t> curvePartition(const HilbertOrdering& ordering, int parts) {
    const std::size_t n = ordering.size(), p = std::size_t(std::max(parts, 1));
    std::vector<std::size_t> cuts(p + 1, n);
    cuts[0] = 0;
    const std::size_t tile = std::size_t(std::max(ordering.tileSize(), 0));
    const std::size_t reach = std::max<std::size_t>(1, 2 * tile * tile);  // a tile or two
    for (std::size_t k = 1; k < p; ++k) {
        const std::size_t target = n * k / p;
        std::size_t cut = target;
        if (tile > 0 && target > 0 && target < n) {
            auto isStart = [&](std::size_t pos) {
                return pos == 0 || pos >= n || tileOf(ordering, pos) != tileOf(ordering, pos - 1);
            };
            for (std::size_t d = 0; d <= reach; ++d) {
                if (target >= d && isStart(target - d)) {
                    cut = target - d;
                    break;
                }
                if (target + d <= n && isStart(target + d)) {
                    cut = target + d;
                    break;
                }
            }
        }
        cuts[k] = std::clamp(cut, cuts[k - 1], n);
    }
    return cuts;
}

std::size_t PartitionedMemxctOperator::ownedPixels() const {
    const auto r = std::size_t(m_comm.rank());
    return m_pixelCuts[r + 1] - m_pixelCuts[r];
}

std::size_t PartitionedMemxctOperator::ownedRays() const {
    const auto r = std::size_t(m_comm.rank());
    return m_rayCuts[r + 1] - m_rayCuts[r];
}

std::string PartitionedMemxctOperator::name() const {
    return "memxct.partitioned (" + std::to_string(m_comm.size()) + " ranks, csr)";
}

Result<std::unique_ptr<PartitionedMemxctOperator>> PartitionedMemxctOperator::create(
    const ParallelGeometry& geom, const VolumeGeometry& vol, const MemxctOptions& options,
    Communicator& comm, const ExecContext& ctx) {
    TOMO_RETURN_IF_ERROR(vol.validate());
    TOMO_RETURN_IF_ERROR(options.validate());
    if (vol.nz != geom.rows())
        return invalidArgument("MemXCT: the grid has " + std::to_string(vol.nz) +
                               " slices but the geometry " + std::to_string(geom.rows()));
    std::unique_ptr<PartitionedMemxctOperator> op(new PartitionedMemxctOperator(comm));
    op->m_slices = std::size_t(vol.nz);
    TOMO_ASSIGN_OR_RETURN(op->m_orderings, memxctOrderings(geom, vol, options));
    op->m_pixelCuts = curvePartition(op->m_orderings.image, comm.size());
    op->m_rayCuts = curvePartition(op->m_orderings.sinogram, comm.size());
    const auto me = std::size_t(comm.rank());
    TOMO_ASSIGN_OR_RETURN(op->m_rows, traceMemxctRows(geom, vol, op->m_orderings.image,
                                                      op->m_orderings.sinogram,
                                                      op->m_rayCuts[me], op->ownedRays(), ctx));
    // The halo: every column the rows touch, ascending; columns renumbered into it.
    CsrMatrix& a = op->m_rows;
    op->m_halo.assign(a.columns.begin(), a.columns.end());
    std::sort(op->m_halo.begin(), op->m_halo.end());
    op->m_halo.erase(std::unique(op->m_halo.begin(), op->m_halo.end()), op->m_halo.end());
    const std::vector<std::uint32_t>& halo = op->m_halo;
    TOMO_RETURN_IF_ERROR(parallelFor(a.rows, ctx.threads, ctx.stop, [&](std::size_t r, int) {
        for (std::uint64_t e = a.rowPtr[r]; e < a.rowPtr[r + 1]; ++e)
            a.columns[e] = std::uint32_t(std::lower_bound(halo.begin(), halo.end(),
                                                          a.columns[e]) -
                                         halo.begin());
    }));
    a.cols = halo.size();
    TOMO_ASSIGN_OR_RETURN(op->m_rowsT, transposeCsr(a, ExecContext{ctx.threads, ctx.stop}));
    return op;
}

Status PartitionedMemxctOperator::connect() {
    const auto n = std::size_t(m_comm.size()), me = std::size_t(m_comm.rank());
    // The halo is ascending and the owners' runs are ascending: one block per owner.
    std::vector<std::size_t> start(n + 1, m_halo.size());
    for (std::size_t s = 0; s < n; ++s)
        start[s] = std::size_t(std::lower_bound(m_halo.begin(), m_halo.end(), m_pixelCuts[s]) -
                               m_halo.begin());
    std::vector<std::uint64_t> want(n), asked(n);
    m_haloFrom.assign(n, 0);
    for (std::size_t s = 0; s < n; ++s) {
        want[s] = start[s + 1] - start[s];
        m_haloFrom[s] = want[s] * sizeof(float);
    }
    const std::vector<std::size_t> eight(n, sizeof(std::uint64_t));
    TOMO_RETURN_IF_ERROR(m_comm.alltoallv(std::as_bytes(std::span<const std::uint64_t>(want)),
                                          eight,
                                          std::as_writable_bytes(std::span<std::uint64_t>(asked)),
                                          eight));
    std::vector<std::size_t> sendBytes(n), recvBytes(n);
    std::size_t total = 0;
    for (std::size_t s = 0; s < n; ++s) {
        sendBytes[s] = want[s] * sizeof(std::uint32_t);
        recvBytes[s] = std::size_t(asked[s]) * sizeof(std::uint32_t);
        total += std::size_t(asked[s]);
    }
    std::vector<std::uint32_t> lists(total);
    TOMO_RETURN_IF_ERROR(m_comm.alltoallv(std::as_bytes(std::span<const std::uint32_t>(m_halo)),
                                          sendBytes,
                                          std::as_writable_bytes(std::span<std::uint32_t>(lists)),
                                          recvBytes));
    m_needed.assign(n, {});
    std::size_t at = 0;
    for (std::size_t r = 0; r < n; ++r)
        for (std::size_t k = 0; k < std::size_t(asked[r]); ++k, ++at) {
            if (lists[at] < m_pixelCuts[me] || lists[at] >= m_pixelCuts[me + 1])
                return internalError("MemXCT: rank " + std::to_string(r) +
                                     " asked for a pixel this rank does not own");
            m_needed[r].push_back(std::uint32_t(lists[at] - m_pixelCuts[me]));
        }
    return Status::ok();
}

Status PartitionedMemxctOperator::forward(std::span<const float> x, std::span<float> y,
                                          const ExecContext& ctx) {
    TOMO_RETURN_IF_ERROR(checkSizes(*this, x, y));
    const std::size_t owned = ownedPixels(), rays = ownedRays(), n = m_needed.size();
    std::vector<std::size_t> sendBytes(n);
    for (std::size_t z = 0; z < m_slices; ++z) {
        const std::span<const float> xz = x.subspan(z * owned, owned);
        m_send.clear();
        for (std::size_t r = 0; r < n; ++r) {
            for (std::uint32_t i : m_needed[r])
                m_send.push_back(xz[i]);
            sendBytes[r] = m_needed[r].size() * sizeof(float);
        }
        m_recv.resize(m_halo.size());
        TOMO_RETURN_IF_ERROR(m_comm.alltoallv(floatBytes(m_send), sendBytes,
                                              std::as_writable_bytes(std::span<float>(m_recv)),
                                              m_haloFrom));
        TOMO_RETURN_IF_ERROR(spmvCsr(m_rows, m_recv, y.subspan(z * rays, rays), ctx));
    }
    return Status::ok();
}

Status PartitionedMemxctOperator::adjoint(std::span<const float> y, std::span<float> x,
                                          const ExecContext& ctx) {
    TOMO_RETURN_IF_ERROR(checkSizes(*this, x, y));
    const std::size_t owned = ownedPixels(), rays = ownedRays(), n = m_needed.size();
    std::vector<std::size_t> recvBytes(n);
    std::size_t total = 0;
    for (std::size_t r = 0; r < n; ++r) {
        recvBytes[r] = m_needed[r].size() * sizeof(float);
        total += m_needed[r].size();
    }
    for (std::size_t z = 0; z < m_slices; ++z) {
        m_send.resize(m_halo.size());
        TOMO_RETURN_IF_ERROR(spmvCsr(m_rowsT, y.subspan(z * rays, rays), m_send, ctx));
        m_recv.resize(total);
        TOMO_RETURN_IF_ERROR(m_comm.alltoallv(floatBytes(m_send), m_haloFrom,
                                              std::as_writable_bytes(std::span<float>(m_recv)),
                                              recvBytes));
        const std::span<float> xz = x.subspan(z * owned, owned);
        std::fill(xz.begin(), xz.end(), 0.f);
        std::size_t at = 0;
        for (std::size_t r = 0; r < n; ++r)  // rank order: the same bits in every run
            for (std::uint32_t i : m_needed[r])
                xz[i] += m_recv[at++];
    }
    return Status::ok();
}

}  // namespace tomo
