#pragma once
/// @file ProjectionData.h
/// @brief The format-neutral model of an acquisition (projections, flats, darks, angles) and the
/// `AcquisitionReader` interface every acquisition format implements (DXchange and NXtomo HDF5,
/// TIFF stacks, raw). Preprocessing and reconstruction work on these types only, never on a
/// file format.
///
/// Layout and units:
///  - projections are detector frames as acquired, `Array3<float>` indexed
///    [angle][row][column] (column fastest): `plane(p)` is the frame of projection p, row 0 the
///    first detector row stored in the file; detector row r images volume slice z = r
///    (ParallelGeometry.h), column j is detector pixel j;
///  - flats (open beam, "white") and darks (beam off) are [frame][row][column] with the same
///    rows and columns as the projections; either may be empty (0 frames);
///  - angles are radians, one per projection, in acquisition order (not sorted), in the
///    convention of ParallelGeometry.h (counter-clockwise from +x). Readers convert the file's
///    unit (degrees or radians, detected or stated by the caller, see AngleUnit);
///  - values are raw detector counts converted to float32 without scaling (uint8/16/32 exactly
///    up to 2^24; float64 rounded). Normalisation (flat/dark, -log) is core/preprocess's job.
///
/// Sinograms: reconstruction wants [slice][angle][detector]; `toSinograms()` transposes a block
/// of frames into that layout, one sinogram per detector row.
///
/// Chunking: `AcquisitionReader::readProjections(angles, rows)` reads any block of projections
/// and detector rows without loading the rest of the file, so data larger than memory is
/// processed a block of rows (= slices) at a time: for rows [r0, r0+n) read all angles and those
/// rows, convert with `toSinograms`, reconstruct slices r0..r0+n-1.

#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/base/Status.h"
#include "core/data/Array.h"

namespace tomo {

/// @brief A half-open block [first, first + count) of indices along one axis.
/// `IndexRange::all()` (count = kAll) means "every index from first on".
struct IndexRange {
    static constexpr std::size_t kAll = std::numeric_limits<std::size_t>::max();
    std::size_t first = 0;
    std::size_t count = kAll;

    static IndexRange all() { return {0, kAll}; }
    std::size_t end() const { return first + count; }

    /// Resolves kAll against an axis of @p size elements and checks bounds: InvalidArgument
    /// naming @p axis ("angles", "rows"), the range and the size when the range is empty or does
    /// not lie within [0, size).
    Result<IndexRange> resolve(std::size_t size, const std::string& axis) const;
};

/// Element type of a dataset as stored in the file (before conversion to float32).
enum class SampleType { UInt8, UInt16, UInt32, Int8, Int16, Int32, Float32, Float64, Other };
/// "uint8", "uint16", ..., "float32", "float64", "other".
const char* sampleTypeName(SampleType type);

/// Unit of stored angles. Auto: a reader uses the file's unit attribute when it has one
/// ("deg", "degree(s)", "rad", "radian(s)"); without one, degrees when any |angle| exceeds
/// 2*pi + 1e-6, else radians.
enum class AngleUnit { Auto, Radians, Degrees };
/// "auto", "radians", "degrees".
const char* angleUnitName(AngleUnit unit);
/// Parses "auto", "rad"/"radians", "deg"/"degrees"; InvalidArgument otherwise.
Result<AngleUnit> parseAngleUnit(const std::string& text);

/// @brief One dataset of a file as `tomo info` lists it (HDF5 path, or "pages" of a TIFF).
struct DatasetInfo {
    std::string path;                ///< "/exchange/data", "/entry/data/data", "stack"
    std::vector<std::size_t> shape;  ///< as stored, slowest axis first
    SampleType type = SampleType::Other;
    std::string role;  ///< "projections", "flats", "darks", "angles", "image_key", "" (other)
};

/// @brief What an acquisition file holds, known after opening it (no bulk data read).
struct AcquisitionInfo {
    std::string format;                               ///< "DXchange", "NXtomo", "TIFF", "raw", ...
    std::string file;                                 ///< the path it was opened from
    std::size_t angleCount = 0;                       ///< projections (frames) in the file
    std::size_t rows = 0;                             ///< detector rows per frame
    std::size_t columns = 0;                          ///< detector columns (pixels per row)
    std::size_t flatCount = 0;                        ///< flat (white) frames
    std::size_t darkCount = 0;                        ///< dark frames
    SampleType projectionType = SampleType::Float32;  ///< stored type of the projections
    /// Angles in radians, one per projection; empty when the file has none (TIFF, raw), in which
    /// case the caller must state them (e.g. the CLI's --angles).
    std::vector<double> angles;
    AngleUnit storedAngleUnit = AngleUnit::Auto;  ///< the unit found in the file (or stated)
    bool angleUnitFromAttribute = false;          ///< true when a unit attribute said so
    std::vector<DatasetInfo> datasets;            ///< every dataset the reader looked at
    std::map<std::string, std::string> metadata;  ///< free-form key/value (provenance, notes)
};

/// @brief An acquisition held in memory (or a block of one, see AcquisitionReader).
struct ProjectionData {
    Array3<float> projections;                    ///< [angle][row][column]
    Array3<float> flats;                          ///< [frame][row][column], possibly empty
    Array3<float> darks;                          ///< [frame][row][column], possibly empty
    std::vector<double> angles;                   ///< radians, one per projection
    std::map<std::string, std::string> metadata;  ///< provenance and notes, free form

    /// InvalidData naming the mismatch when angles, flats or darks do not fit the projections
    /// (angle count, rows, columns) or when a value is NaN or infinite. Empty angles are allowed
    /// (formats without angles: the caller states them later).
    Status validate() const;
};

/// Transposes rows [rows.first, rows.end()) of @p frames ([angle][row][column]) into a sinogram
/// stack [row - rows.first][angle][column]. InvalidArgument for a range outside the frames,
/// OutOfMemory when the stack cannot be allocated.
Result<Sinograms> toSinograms(const Array3<float>& frames, IndexRange rows = IndexRange::all());

/// @brief Reads an acquisition by blocks. Implementations: DXchange and NXtomo (core/hdf5io),
/// TIFF stacks and raw (core/dataset, and ITK formats in core/itkio).
///
/// Errors are Status values naming the file, the dataset and the cause (missing dataset, wrong
/// rank, shapes of flats/darks not matching the projections, angle count not matching, NaN/Inf
/// in the block read, truncated or corrupt file). `open` functions check shapes and angles so
/// that `info()` is consistent; bulk values are checked when read.
///
/// Threading: a reader is used by one thread at a time. HDF5 readers share the HDF5 library:
/// thread-safe builds of it (Debian's) serialise calls internally, so concurrent HDF5 reads are
/// correct but not parallel; with a non-thread-safe build do not read two HDF5 files at once.
/// Other readers are independent.
class AcquisitionReader {
  public:
    virtual ~AcquisitionReader() = default;

    /// Shapes, types, angles and units, known after opening.
    virtual const AcquisitionInfo& info() const = 0;

    /// Projections @p angles x detector rows @p rows, all columns, as float32
    /// [angle - angles.first][row - rows.first][column]. Only that block is read from the file.
    virtual Result<Array3<float>> readProjections(IndexRange angles, IndexRange rows) const = 0;
    /// All flat frames, detector rows @p rows; an empty array (0 frames) when there are none.
    virtual Result<Array3<float>> readFlats(IndexRange rows) const = 0;
    /// All dark frames, detector rows @p rows; an empty array (0 frames) when there are none.
    virtual Result<Array3<float>> readDarks(IndexRange rows) const = 0;

    /// Projections, flats and darks of detector rows @p rows with the angles (empty when the
    /// format has none) and metadata, in one ProjectionData (validated).
    Result<ProjectionData> read(IndexRange rows = IndexRange::all()) const;
};

}  // namespace tomo
