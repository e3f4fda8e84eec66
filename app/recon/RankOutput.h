#pragma once
/// @file RankOutput.h
/// @brief Where each rank of a distributed run puts its planes of the output (issue 16, item 2;
/// used by DistributedRecon.cpp and ConeDistributed.cpp). Rank 0 owns the output (SlabOutput:
/// the file, slice 0's copy and metrics, the commit). Two schemes, the same calls:
///  - parallel, where the output's format stores the planes at fixed places (raw; HDF5 with a
///    contiguous dataset: PlaneFile.h) and every rank could open rank 0's temporary file: each
///    rank writes its own planes into the file itself, all at once;
///  - ordered, otherwise (TIFF, ITK formats, a result kept in memory, a rank that cannot reach
///    the file, or TOMO_ORDERED_OUTPUT=1): the ranks send their planes to rank 0 in pieces of at
///    most 64 MiB, which puts them in plane order.
///
/// Protocol: every rank calls putMine() for its planes; rank 0 calls takeOthers() for every
/// other rank's, in the order the ranks call putMine() (ordered: the receives match the sends;
/// parallel: it records the planes as theirs). Before rank 0 commits, every rank calls sync()
/// and the ranks agree (RankAgreement::agree), so the file is committed only once every plane
/// is on disk. Rank 0 receives every piece even after a failed write, so no sender waits
/// forever; the first failure is returned at the end.

#include <cstddef>
#include <optional>

#include "app/recon/ReconSteps.h"
#include "core/dataset/PlaneFile.h"
#include "core/dist/RankAgreement.h"

namespace tomo::app::detail {

class RankOutput {
  public:
    /// Rank 0's note when the scheme is parallel.
    static constexpr const char* kParallelNote =
        "each rank writes its planes into the output file itself (in parallel)";

    /// Collective: rank 0 passes its output (opened with WriteOptions::sharedPlanes), the others
    /// null. Rank 0 sends the file's plane layout, if any, to every rank; each opens the file,
    /// and the scheme is parallel when all could (else ordered). Rank 0 says which in a note to
    /// @p report and @p callbacks (naming a rank that could not open the file). Errors are the
    /// agreement's.
    static Result<RankOutput> open(RankAgreement& agreement, SlabOutput* out, ReconReport& report,
                                   const ReconCallbacks& callbacks);

    bool parallel() const { return m_parallel; }
    /// This rank's planes [first, first + slab.dim(0)).
    Status putMine(std::size_t first, Volume&& slab);
    /// Rank 0: rank @p from's planes [first, first + count) of @p rows x @p columns.
    Status takeOthers(int from, std::size_t first, std::size_t count, std::size_t rows,
                      std::size_t columns);
    /// Makes this rank's writes durable (parallel); nothing to do in the ordered scheme.
    Status sync();

  private:
    RankOutput(Communicator& comm, SlabOutput* out) : m_comm(&comm), m_out(out) {}
    Communicator* m_comm;
    SlabOutput* m_out;                      ///< rank 0
    std::optional<PlaneFileWriter> m_file;  ///< parallel, ranks but 0
    bool m_parallel = false;
};

}  // namespace tomo::app::detail
