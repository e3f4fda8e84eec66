#pragma once
/// @file FormatRegistry.h
/// @brief File formats by name and extension: what each can read (an acquisition, a volume),
/// write (a volume) and describe (`tomo info`). The CLI (`tomo info`, `tomo convert`,
/// `tomo recon`) looks formats up here and never branches on a format itself, so a new format
/// (the ITK ones of core/itkio) is one `add()` call in the application's registration function.
///
/// Each capability is an optional function: a format that cannot write leaves `writeVolume`
/// empty, and the registry answers Unsupported naming the format and the missing capability.
///
/// Volumes are `Array3<float>` [plane][row][column] as in ImageIO.h (a reconstruction is
/// [z][y][x], row 0 the top of the image).
///
/// Threading: build the registry once, then it is read-only; lookups may run concurrently. The
/// functions it holds follow their own format's threading rules (HDF5: one call at a time).

#include <array>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/base/Status.h"
#include "core/data/Array.h"
#include "core/dataset/ProjectionData.h"
#include "core/dataset/VolumeStream.h"
#include "core/io/TiffFormat.h"

namespace tomo {

/// @brief What a reader may need besides the path.
struct ReadOptions {
    /// Raw files: [planes][rows][columns]; for an acquisition [angles][rows][columns].
    std::optional<std::array<std::size_t, 3>> shape;
    /// Raw files: stored element type (float32 when absent).
    std::optional<SampleType> sampleType;
    /// Unit of stored angles (Auto: detected, see AngleUnit).
    AngleUnit angleUnit = AngleUnit::Auto;
    /// HDF5: the dataset to read as a volume (empty: the format's default, e.g. /reconstruction).
    std::string dataset;
};

/// A volume's frame along its index axes (x = columns, y = rows, z = planes): voxel centre
/// distances and the world position of voxel (0, 0, 0), with axes along +x, +y, +z (identity
/// direction). Cone-beam volumes and projection stacks use it (RTK's convention); parallel-beam
/// reconstructions keep their own (docs/geometry.md).
struct VolumeFrame {
    std::array<double, 3> spacing{1.0, 1.0, 1.0};
    std::array<double, 3> origin{0.0, 0.0, 0.0};
};

/// @brief What a writer may record besides the values.
struct WriteOptions {
    /// Provenance written as attributes where the format allows (HDF5): "geometry",
    /// "preprocessing", "algorithm", "parameters", "variant", "device", ... The writer adds the
    /// TomoStation version itself.
    std::map<std::string, std::string> provenance;
    double voxelSize = 1.0;  ///< length unit of the job (as the detector pitch)
    /// TIFF outputs: write 16-bit counts value = offset + scale x count instead of float32
    /// (the map is stored in the file and applied when it is read back).
    std::optional<Tiff16Scale> tiff16;
    /// Formats that store a frame (MetaImage, NRRD, NIfTI) write this one when given.
    std::optional<VolumeFrame> frame;
    /// Streamed writers (openVolumeWriter): lay the file out so that other processes can write
    /// planes into it (VolumeWriter::planeLayout; HDF5 then stores the dataset contiguous and
    /// allocated at once instead of chunked by plane). Raw files always can.
    bool sharedPlanes = false;
};

/// @brief What `tomo info` prints about a file.
struct FileDescription {
    std::string format;                           ///< "HDF5 (DXchange)", "TIFF", "raw", ...
    std::vector<DatasetInfo> datasets;            ///< datasets or image stacks inside
    std::optional<AcquisitionInfo> acquisition;   ///< when the file is an acquisition
    std::map<std::string, std::string> metadata;  ///< attributes (provenance) found
    /// Spacing and origin where the format stores them with an identity direction (MetaImage,
    /// NRRD, NIfTI as RTK writes projections); empty otherwise.
    std::optional<VolumeFrame> frame;
};

/// @brief One file format and its optional capabilities.
struct FileFormat {
    std::string name;                     ///< stable id: "hdf5", "tiff", "raw", "mha", ...
    std::string description;              ///< one line for --help
    std::vector<std::string> extensions;  ///< lower case with the dot: ".h5", ".tif"

    using OpenAcquisitionFn = std::function<Result<std::unique_ptr<AcquisitionReader>>(
        const std::filesystem::path&, const ReadOptions&)>;
    using ReadVolumeFn =
        std::function<Result<Array3<float>>(const std::filesystem::path&, const ReadOptions&)>;
    using WriteVolumeFn = std::function<Status(const std::filesystem::path&, const Array3<float>&,
                                               const WriteOptions&)>;
    using DescribeFn =
        std::function<Result<FileDescription>(const std::filesystem::path&, const ReadOptions&)>;
    /// Opens a writer for a volume of {planes, rows, columns} (VolumeStream.h).
    using OpenVolumeWriterFn = std::function<Result<std::unique_ptr<VolumeWriter>>(
        const std::filesystem::path&, const std::array<std::size_t, 3>&, const WriteOptions&)>;
    /// Opens a stored volume for reading planes on demand (VolumeStream.h).
    using OpenVolumeReaderFn = std::function<Result<std::unique_ptr<VolumeReader>>(
        const std::filesystem::path&, const ReadOptions&)>;

    OpenAcquisitionFn openAcquisition;    ///< projections + flats/darks/angles, by blocks
    ReadVolumeFn readVolume;              ///< a whole float stack
    WriteVolumeFn writeVolume;            ///< a float stack, atomically
    DescribeFn describe;                  ///< shapes, types, metadata, without bulk reads
    OpenVolumeWriterFn openVolumeWriter;  ///< a float stack by slabs of planes (streaming)
    OpenVolumeReaderFn openVolumeReader;  ///< planes of a stored stack on demand
};

/// @brief The formats of a build, looked up by name or by a path's extension.
class FormatRegistry {
  public:
    /// Adds @p format; a format with the same name is replaced (a better reader for ".tif" may
    /// supersede the built-in one). InvalidArgument for an empty name or no extension.
    Status add(FileFormat format);

    /// The format named @p name, or NotFound listing the known names.
    Result<const FileFormat*> byName(const std::string& name) const;
    /// The format whose extension matches @p path's (case-insensitive; the last added wins), or
    /// InvalidArgument naming the suffix and listing the known extensions.
    Result<const FileFormat*> forPath(const std::filesystem::path& path) const;
    const std::vector<FileFormat>& formats() const { return m_formats; }

    /// Convenience wrappers: look up by extension, check the file exists (NotFound) and that the
    /// format has the capability (Unsupported naming format and capability), then call it.
    Result<std::unique_ptr<AcquisitionReader>> openAcquisition(const std::filesystem::path& path,
                                                               const ReadOptions& options) const;
    Result<Array3<float>> readVolume(const std::filesystem::path& path,
                                     const ReadOptions& options) const;
    Status writeVolume(const std::filesystem::path& path, const Array3<float>& volume,
                       const WriteOptions& options) const;
    Result<FileDescription> describe(const std::filesystem::path& path,
                                     const ReadOptions& options) const;
    Result<std::unique_ptr<VolumeWriter>> openVolumeWriter(const std::filesystem::path& path,
                                                           const std::array<std::size_t, 3>& shape,
                                                           const WriteOptions& options) const;
    Result<std::unique_ptr<VolumeReader>> openVolumeReader(const std::filesystem::path& path,
                                                           const ReadOptions& options) const;

  private:
    std::vector<FileFormat> m_formats;
};

/// Registers the formats every build has: "tiff" (.tif/.tiff, through core/io; Unsupported at
/// run time without libtiff) and "raw" (.raw/.bin/.f32 float32 little-endian, needs
/// ReadOptions::shape). Both read acquisitions held in memory (a TIFF page or raw plane per
/// projection; no angles: the caller states them) and volumes, and write volumes.
Status registerBuiltinFormats(FormatRegistry& registry);

}  // namespace tomo
