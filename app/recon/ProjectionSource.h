#pragma once
/// @file ProjectionSource.h
/// @brief What a cone-beam reconstruction reads: projections [view][v][u] (RTK's stack order),
/// handed out a range of views at a time, from memory or from a file of any format the project
/// reads (raw with --shape, TIFF stacks, MetaImage/NRRD with spacing and origin, HDF5 stacks),
/// by planes where the format streams. Acquisitions (HDF5 DXchange/NXtomo) are normalised
/// with their flats and darks and turned into line integrals (-log), as for parallel beam
/// (app/data/AcquisitionLoader.h), and bring their angles.
///
/// Threading: one source is read by one thread at a time.

#include <array>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/base/ExecContext.h"
#include "core/base/Status.h"
#include "core/data/Array.h"
#include "core/dataset/FormatRegistry.h"

namespace tomo::app {

class ProjectionSource {
  public:
    virtual ~ProjectionSource() = default;
    /// {views, rows (v), columns (u)}.
    virtual std::array<std::size_t, 3> shape() const = 0;
    /// Views [first, first + count).
    virtual Result<Array3<float>> read(std::size_t first, std::size_t count) const = 0;
    /// Views [first, first + count) into @p out (ConeViewReader's layout: count x rows of
    /// columns, the caller's memory) on @p threads; sources that hold their views copy them
    /// straight there, the others read() and copy.
    virtual Status readInto(std::size_t first, std::size_t count, View2<float> out,
                            int threads) const;
    /// The file's pixel spacing and origin (MetaImage, NRRD: the detector pitch and position as
    /// RTK writes them), when it stores them.
    virtual std::optional<VolumeFrame> frame() const { return std::nullopt; }
    /// The file's projection angles (radians), empty when it stores none.
    virtual std::vector<double> angles() const { return {}; }
    /// What was done to the data on the way (flat/dark, -log), for provenance and notes.
    virtual std::string preprocessing() const { return "none"; }
};

/// A stack held in memory (shared, never copied whole).
std::unique_ptr<ProjectionSource> memoryProjections(std::shared_ptr<const Array3<float>> views);

/// Opens a projection stack file. NotFound, InvalidArgument (raw without a shape) and the
/// readers' errors, naming the file.
Result<std::unique_ptr<ProjectionSource>> openProjections(const FormatRegistry& registry,
                                                          const std::filesystem::path& path,
                                                          const ReadOptions& read);

}  // namespace tomo::app
