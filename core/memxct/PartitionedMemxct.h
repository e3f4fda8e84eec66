#pragma once
/// @file PartitionedMemxct.h
/// @brief MemXCT's distributed SpMV (paper 000, section 3.1: both domains partitioned by
/// Hilbert tiles; M. Hidayetoglu et al., SC'19, doi:10.1145/3295500.3356220): the projector
/// pair of one slice (or a stack of slices sharing it) split over the ranks of a communicator,
/// so that CGLS on a slice whose system matrix does not fit one machine runs across several.
///
/// Partition: the image curve and the sinogram curve (MemxctSystem's orderings) are each cut
/// into one contiguous run per rank of about equal length, the cuts moved to the nearest tile
/// boundary, so each rank owns compact 2-D regions of both domains. Rank r traces only the
/// rays it owns (rows of A, MemxctSystem's traceMemxctRows: the same rows as one process) and
/// holds the pixels those rays cross beyond its own (its halo) as compressed columns.
///
/// forward: each rank sends the owners' values of the other ranks' halo pixels (one
/// all-to-all, Communicator::alltoallv, which handles counts past 2^31), then multiplies its
/// rows: y = A x row by row exactly as one process (the same entries in the same order, so the
/// same bits). adjoint: each rank multiplies by the transpose of its rows into its halo, sends
/// the partial sums to their owners (the reverse all-to-all), and each owner adds the partial
/// sums of its pixels in rank order: A^T y up to the order of those sums, deterministic for a
/// given number of ranks, and the exact transpose of forward (matchedAdjoint).
///
/// Vectors: a rank's part of x is its image curve run per slice ([slice][owned pixels], curve
/// order), its part of y its sinogram curve run per slice ([slice][owned rays]). The caller
/// maps to and from images and sinograms with the orderings and ranges below.
///
/// Threading: the SpMVs use ctx.threads workers; every rank calls forward/adjoint together
/// (collective). The CSR kernel is used (the buffered one is a single-process option).

#include <memory>
#include <vector>

#include "core/dist/Communicator.h"
#include "core/memxct/MemxctSystem.h"
#include "core/solvers/LinearOperator.h"

namespace tomo {

/// Cuts of a curve ordering into @p parts runs: parts + 1 ascending positions from 0 to
/// ordering.size(), each inner cut at the tile start nearest to an equal share (the equal share
/// itself for a row-major ordering).
std::vector<std::size_t> curvePartition(const HilbertOrdering& ordering, int parts);

class PartitionedMemxctOperator final : public LinearOperator {
  public:
    /// Orders both domains, partitions them over @p comm and traces this rank's rays: local
    /// work, so a rank that fails here can tell the others before any exchange. Errors as
    /// MemxctSystem::build. connect() must follow on every rank.
    static Result<std::unique_ptr<PartitionedMemxctOperator>> create(const ParallelGeometry& geom,
                                                                     const VolumeGeometry& vol,
                                                                     const MemxctOptions& options,
                                                                     Communicator& comm,
                                                                     const ExecContext& ctx);

    /// Exchanges the halo lists (collective); after it forward and adjoint work.
    Status connect();

    std::size_t domainSize() const override { return ownedPixels() * m_slices; }
    std::size_t rangeSize() const override { return ownedRays() * m_slices; }
    bool matchedAdjoint() const override { return true; }
    std::string name() const override;
    Status forward(std::span<const float> x, std::span<float> y, const ExecContext& ctx) override;
    Status adjoint(std::span<const float> y, std::span<float> x, const ExecContext& ctx) override;

    const HilbertOrdering& imageOrdering() const { return m_orderings.image; }
    const HilbertOrdering& sinogramOrdering() const { return m_orderings.sinogram; }
    /// Image and sinogram curve cuts (ranks + 1 positions each).
    const std::vector<std::size_t>& pixelCuts() const { return m_pixelCuts; }
    const std::vector<std::size_t>& rayCuts() const { return m_rayCuts; }
    std::size_t ownedPixels() const;
    std::size_t ownedRays() const;
    /// Nonzeros of this rank's rows and pixels in its halo (for reports).
    std::size_t nonzeros() const { return m_rows.nonzeros(); }
    std::size_t haloPixels() const { return m_halo.size(); }

  private:
    PartitionedMemxctOperator(Communicator& comm) : m_comm(comm) {}

    Communicator& m_comm;
    MemxctOrderings m_orderings;
    std::vector<std::size_t> m_pixelCuts, m_rayCuts;
    CsrMatrix m_rows;       ///< owned rays x halo (columns: positions in m_halo)
    CsrMatrix m_rowsT;      ///< its transpose: halo x owned rays
    std::vector<std::uint32_t> m_halo;  ///< image curve indices the rows touch, ascending
    std::vector<std::size_t> m_haloFrom;  ///< per rank: bytes of halo values it owns
    /// Per rank: the owned pixels (positions in this rank's run) it needs, in its halo order.
    std::vector<std::vector<std::uint32_t>> m_needed;
    std::size_t m_slices = 1;
    std::vector<float> m_send, m_recv;  ///< scratch of the exchanges
};

}  // namespace tomo
