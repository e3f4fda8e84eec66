// Where each rank of a distributed run puts its planes (RankOutput.h): into the output file
// itself, all ranks at once, or through rank 0 in plane order.
#include "app/recon/RankOutput.h"

#include <cstdint>
#include <cstdlib>
#include <span>
#include <string>
#include <vector>

namespace tomo::app::detail {
namespace {

/// Bytes per message of the ordered scheme (whole planes, at least one; counted without the
/// rows' padding, the same on both sides).
constexpr std::size_t kPiece = std::size_t(64) << 20;

std::size_t planesPerPiece(std::size_t planeFloats) {
    return std::max<std::size_t>(1, kPiece / (planeFloats * sizeof(float)));
}

/// What rank 0 sends of the layout before its path.
struct LayoutHeader {
    std::uint64_t has = 0, offset = 0, pathBytes = 0;
    std::uint64_t shape[3] = {0, 0, 0};
};

/// Rank 0's plane layout on every rank (none: the ordered scheme). Rank 0 offers none when
/// TOMO_ORDERED_OUTPUT=1 is set for it.
Result<std::optional<PlaneFileLayout>> shareLayout(Communicator& comm, const SlabOutput* out) {
    LayoutHeader h;
    std::string path;
    const char* ordered = std::getenv("TOMO_ORDERED_OUTPUT");
    if (comm.rank() == 0 && out && !(ordered && std::string(ordered) == "1")) {
        if (const auto layout = out->planeLayout()) {
            path = layout->file.string();
            h = {1,
                 layout->offset,
                 path.size(),
                 {layout->shape[0], layout->shape[1], layout->shape[2]}};
        }
    }
    TOMO_RETURN_IF_ERROR(comm.broadcast(std::as_writable_bytes(std::span(&h, 1)), 0));
    if (!h.has) return std::optional<PlaneFileLayout>();
    path.resize(h.pathBytes);
    TOMO_RETURN_IF_ERROR(comm.broadcast(std::as_writable_bytes(std::span(path)), 0));
    return std::optional<PlaneFileLayout>(PlaneFileLayout{
        path,
        h.offset,
        {std::size_t(h.shape[0]), std::size_t(h.shape[1]), std::size_t(h.shape[2])}});
}

}  // namespace

Result<RankOutput> RankOutput::open(RankAgreement& agreement, SlabOutput* out, ReconReport& report,
                                    const ReconCallbacks& callbacks) {
    auto note = [&](std::string text) {
        if (callbacks.onNote) callbacks.onNote(text);
        report.notes.push_back(std::move(text));
    };
    Communicator& comm = agreement.communicator();
    RankOutput r(comm, out);
    if (comm.size() == 1) return r;
    TOMO_ASSIGN_OR_RETURN(const std::optional<PlaneFileLayout> layout, shareLayout(comm, out));
    if (!layout) return r;
    bool opened = true;
    if (comm.rank() != 0) {
        Result<PlaneFileWriter> file = PlaneFileWriter::open(*layout);
        opened = file.isOk();
        if (opened) r.m_file.emplace(std::move(*file));
    }
    std::vector<double> missing(std::size_t(comm.size()), 0.0);  // ranks that could not open it
    missing[std::size_t(comm.rank())] = opened ? 0.0 : 1.0;
    agreement.sum(missing);
    if (agreement.failed()) return agreement.failure();
    for (std::size_t k = 0; k < missing.size(); ++k)
        if (missing[k] != 0.0) {
            r.m_file.reset();
            if (comm.rank() == 0)
                note("rank " + std::to_string(k) + " cannot open " + layout->file.string() +
                     " (is the output's folder on a file system every machine shares?): the "
                     "ranks send their planes to rank 0 instead");
            return r;
        }
    r.m_parallel = true;
    if (comm.rank() == 0) note(kParallelNote);
    return r;
}

Status RankOutput::putMine(std::size_t first, Volume&& slab) {
    if (m_comm->rank() == 0) return m_out->put(first, std::move(slab));
    if (m_parallel) return m_file->writeSlab(first, slab);
    const std::size_t plane = slab.dim(1) * slab.pitch();
    const std::size_t piece = planesPerPiece(slab.dim(1) * slab.dim(2));
    for (std::size_t k = 0; k < slab.dim(0); k += piece) {
        const std::size_t n = std::min(piece, slab.dim(0) - k);
        TOMO_RETURN_IF_ERROR(m_comm->send(
            0, int(Tag::Slab), std::as_bytes(std::span(slab.data() + k * plane, n * plane))));
    }
    return Status::ok();
}

Status RankOutput::takeOthers(int from, std::size_t first, std::size_t count, std::size_t rows,
                              std::size_t columns) {
    if (m_parallel) return m_out->writtenElsewhere(first, count);
    Status pending;
    for (std::size_t k = 0; k < count;) {
        const std::size_t n = std::min(planesPerPiece(rows * columns), count - k);
        TOMO_ASSIGN_OR_RETURN(Volume part, Volume::create(n, rows, columns));
        TOMO_RETURN_IF_ERROR(
            m_comm->recv(from, int(Tag::Slab),
                         std::as_writable_bytes(std::span(part.data(), n * rows * part.pitch()))));
        if (pending) pending = m_out->put(first + k, std::move(part));
        k += n;
    }
    return pending;
}

Status RankOutput::sync() {
    return m_file ? m_file->sync() : Status::ok();
}

}  // namespace tomo::app::detail
