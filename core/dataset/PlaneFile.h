#pragma once
/// @file PlaneFile.h
/// @brief A volume's float32 planes at a fixed place in a file, written by one process or by
/// several at once (the ranks of a distributed run, issue 16): the raw format's writer, the
/// HDF5 writer opened with WriteOptions::sharedPlanes (a contiguous dataset allocated when the
/// file is made, whose bytes the library never touches again), and the PlaneFileWriter every
/// other rank opens on the same temporary file from the layout rank 0 sends it. Each process
/// writes its own planes with pwrite; the planes of one volume never share bytes, so no locks.
///
/// Layout: planes [plane][row][column], float32 little-endian, contiguous from byte `offset`.
/// The writer that made the file commits it (fsync, rename into place: AtomicFile.h) once
/// every process that wrote planes through the layout has synced them (the caller's protocol:
/// app/recon's agreement between the ranks) and they are recorded with writtenElsewhere().

#include <array>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>

#include "core/data/Array.h"
#include "core/dataset/VolumeStream.h"
#include "core/io/AtomicFile.h"

namespace tomo {

/// Reads planes [first, first + slab.dim(0)) of a @p shape volume stored from byte @p offset of
/// @p fd into @p slab (preadv: up to 1024 rows per call, the slab's row padding skipped).
Status readPlaneRows(int fd, Array3<float>& slab, std::size_t first,
                     const std::array<std::size_t, 3>& shape, std::uint64_t offset,
                     const std::string& name);
/// Writes @p slab as planes [first, first + slab.dim(0)) (pwritev, as readPlaneRows).
Status writePlaneRows(int fd, const Array3<float>& slab, std::size_t first,
                      const std::array<std::size_t, 3>& shape, std::uint64_t offset,
                      const std::string& name);

/// InvalidArgument naming @p name when @p slab is not whole planes of @p shape from @p first.
Status checkPlaneSlab(const std::array<std::size_t, 3>& shape, std::size_t first,
                      const Array3<float>& slab, const std::string& name);

/// The VolumeWriter over @p file (its temporary file, laid out already: e.g. HDF5's metadata
/// written and closed) whose planes lie from byte @p offset: writeSlab with pwrite,
/// planeLayout() for other processes, writtenElsewhere() for their planes, commit() checks
/// every plane was written, then fsyncs and renames. IoError when the file cannot be opened.
Result<std::unique_ptr<VolumeWriter>> openPlaneFileVolumeWriter(
    AtomicFile file, std::uint64_t offset, const std::array<std::size_t, 3>& shape);

/// Writes planes into a file laid out by another process's writer (its planeLayout()).
class PlaneFileWriter {
  public:
    /// IoError when the file cannot be opened for writing (e.g. not on a shared file system:
    /// the path is that of the process that made it).
    static Result<PlaneFileWriter> open(const PlaneFileLayout& layout);
    PlaneFileWriter(PlaneFileWriter&& other) noexcept;
    PlaneFileWriter& operator=(PlaneFileWriter&& other) noexcept;
    PlaneFileWriter(const PlaneFileWriter&) = delete;
    PlaneFileWriter& operator=(const PlaneFileWriter&) = delete;
    ~PlaneFileWriter();

    const PlaneFileLayout& layout() const { return m_layout; }
    /// Planes [first, first + slab.dim(0)); InvalidArgument when they do not fit the layout.
    Status writeSlab(std::size_t first, const Array3<float>& slab);
    /// Makes what was written durable (fsync), before the file's writer commits it.
    Status sync();

  private:
    PlaneFileWriter(PlaneFileLayout layout, int fd) : m_layout(std::move(layout)), m_fd(fd) {}
    PlaneFileLayout m_layout;
    int m_fd = -1;
};

}  // namespace tomo
