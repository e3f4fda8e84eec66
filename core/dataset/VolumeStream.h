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
/// Threading: one writer or reader is used by one thread at a time.

#include <array>
#include <cstddef>
#include <memory>

#include "core/base/Status.h"
#include "core/data/Array.h"

namespace tomo {

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
