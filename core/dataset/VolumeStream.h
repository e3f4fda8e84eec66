#pragma once
/// @file VolumeStream.h
/// @brief Volumes written and read a slab of planes at a time, so that a reconstruction larger
/// than memory (or than `--memory-budget`) streams to its file and a viewer reads only the
/// planes it shows (issue 12). A format offers these through FileFormat::openVolumeWriter and
/// FileFormat::openVolumeReader (FormatRegistry.h); formats that cannot stream leave them
/// empty and the caller holds the whole volume (within its budget) or says why it cannot.
///
/// Writing: the writer is opened with the whole shape; slabs arrive in any order, each a
/// block of whole planes [first, first + slab.dim(0)), every plane exactly once. commit()
/// makes the file appear complete at its path (atomically where the format allows: a temporary
/// name renamed on commit); a writer destroyed without commit() removes what it wrote, so a
/// cancelled or failed reconstruction never leaves a truncated file behind.
///
/// Reading: readPlanes() returns planes [first, first + count) as an Array3 of count planes;
/// memory is the planes asked for plus the format's fixed overhead.
///
/// Several processes (the ranks of a distributed run) can write one file together where the
/// format stores the planes at a fixed place (raw; HDF5 opened with WriteOptions::sharedPlanes):
/// the writer's planeLayout() tells the others where, each writes its own planes through a
/// PlaneFileWriter (PlaneFile.h), and the writer commits once they are recorded with
/// writtenElsewhere().
///
/// Threading: one writer or reader is used by one thread at a time.

#include <array>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>

#include "core/base/Status.h"
#include "core/data/Array.h"

namespace tomo {

/// Where the planes of a volume being written lie in its (temporary) file: float32
/// little-endian planes [plane][row][column], contiguous from byte @p offset.
struct PlaneFileLayout {
    std::filesystem::path file;
    std::uint64_t offset = 0;
    std::array<std::size_t, 3> shape{};
};

/// @brief Receives a volume [plane][row][column] a slab of whole planes at a time.
class VolumeWriter {
  public:
    virtual ~VolumeWriter() = default;
    /// {planes, rows, columns} given when opened.
    virtual std::array<std::size_t, 3> shape() const = 0;
    /// Writes planes [firstPlane, firstPlane + slab.dim(0)). InvalidArgument when the slab's
    /// rows or columns differ from shape() or it runs past the last plane; IoError from the disk.
    virtual Status writeSlab(std::size_t firstPlane, const Array3<float>& slab) = 0;
    /// Finishes the file (header, metadata, rename into place). InvalidArgument when some plane
    /// was never written. After commit() the writer accepts nothing more.
    virtual Status commit() = 0;
    /// Where other processes may write planes straight into the file (PlaneFile.h); none for
    /// formats that cannot (TIFF: each page's directory) or were not asked to.
    virtual std::optional<PlaneFileLayout> planeLayout() const { return std::nullopt; }
    /// Records planes [first, first + count) as written through planeLayout() by another
    /// process, which synced them. Unsupported without a layout; InvalidArgument past the end.
    virtual Status writtenElsewhere(std::size_t first, std::size_t count) {
        (void)first, (void)count;
        return unsupported("this volume writer takes no planes from other processes");
    }
};

/// @brief Reads planes of a stored volume on demand.
class VolumeReader {
  public:
    virtual ~VolumeReader() = default;
    /// {planes, rows, columns}.
    virtual std::array<std::size_t, 3> shape() const = 0;
    /// Planes [first, first + count); InvalidArgument past the end, IoError/InvalidData from the
    /// file.
    virtual Result<Array3<float>> readPlanes(std::size_t first, std::size_t count) = 0;
};

}  // namespace tomo
