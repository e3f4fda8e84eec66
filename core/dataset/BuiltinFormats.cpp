// The formats of every build: TIFF stacks and raw float32 (through core/io), loaded whole.
#include <memory>

#include "core/dataset/FormatRegistry.h"
#include "core/dataset/MemoryAcquisitionReader.h"
#include "core/dataset/RawVolumeStream.h"
#include "core/dataset/TiffVolumeStream.h"
#include "core/io/ImageIO.h"
#include "core/io/TiffFormat.h"
#include "core/io/TiffStack.h"

namespace tomo {

namespace {

Result<Array3<float>> readRaw(const std::filesystem::path& path, const ReadOptions& options) {
    if (!options.shape)
        return invalidArgument(path.string() + ": a raw file needs its shape (--shape)");
    if (options.sampleType && *options.sampleType != SampleType::Float32)
        return unsupported(path.string() + ": the built-in raw reader reads float32 only, not " +
                           sampleTypeName(*options.sampleType));
    return readRawFloat32(path, *options.shape);
}

Result<Array3<float>> readTiffChecked(const std::filesystem::path& path, const ReadOptions&) {
    if (!tiffSupported())
        return unsupported(path.string() + ": this build has no TIFF support (libtiff)");
    return readTiff(path);
}

/// An acquisition from a whole stack: one plane per projection, no flats, darks or angles.
FileFormat::OpenAcquisitionFn stackAcquisition(FileFormat::ReadVolumeFn read, std::string name) {
    return [read = std::move(read), name = std::move(name)](
               const std::filesystem::path& path,
               const ReadOptions& options) -> Result<std::unique_ptr<AcquisitionReader>> {
        ProjectionData data;
        TOMO_ASSIGN_OR_RETURN(data.projections, read(path, options));
        TOMO_ASSIGN_OR_RETURN(MemoryAcquisitionReader reader,
                              MemoryAcquisitionReader::create(std::move(data), name, path.string(),
                                                              SampleType::Float32));
        return std::unique_ptr<AcquisitionReader>(
            std::make_unique<MemoryAcquisitionReader>(std::move(reader)));
    };
}

FileFormat::DescribeFn stackDescription(FileFormat::ReadVolumeFn read, std::string name,
                                        std::string dataset) {
    return [read = std::move(read), name = std::move(name), dataset = std::move(dataset)](
               const std::filesystem::path& path,
               const ReadOptions& options) -> Result<FileDescription> {
        TOMO_ASSIGN_OR_RETURN(Array3<float> stack, read(path, options));
        FileDescription d;
        d.format = name;
        d.datasets.push_back(
            {dataset, {stack.dim(0), stack.dim(1), stack.dim(2)}, SampleType::Float32, ""});
        return d;
    };
}

}  // namespace

Status registerBuiltinFormats(FormatRegistry& registry) {
    FileFormat tiff;
    tiff.name = "tiff";
    tiff.description = "TIFF stack (one page per plane; read: 8-64 bit, written: float32)";
    tiff.extensions = {".tif", ".tiff"};
    tiff.readVolume = readTiffChecked;
    tiff.openAcquisition = stackAcquisition(readTiffChecked, "TIFF");
    tiff.describe = stackDescription(readTiffChecked, "TIFF", "pages");
    tiff.writeVolume = [](const std::filesystem::path& path, const Array3<float>& v,
                          const WriteOptions& o) {
        return o.tiff16 ? writeTiff16(path, v, *o.tiff16) : writeTiff(path, v);
    };
    tiff.openVolumeWriter = [](const std::filesystem::path& path,
                               const std::array<std::size_t, 3>& shape, const WriteOptions& o) {
        return openTiffVolumeWriter(path, shape, o.tiff16);
    };
    tiff.openVolumeReader = [](const std::filesystem::path& path, const ReadOptions&) {
        return openTiffVolumeReader(path);
    };
    TOMO_RETURN_IF_ERROR(registry.add(std::move(tiff)));

    // A folder of single-page TIFFs, or a pattern such as "proj_*.tif" (one file per plane,
    // natural order). Chosen by FormatRegistry::forPath for folders and wildcard paths.
    FileFormat stack;
    stack.name = "tiff-stack";
    stack.description = "folder or pattern of single-page TIFF files, one per plane";
    auto readStack = [](const std::filesystem::path& path, const ReadOptions&) {
        return readTiffStack(path);
    };
    stack.readVolume = readStack;
    stack.openAcquisition = stackAcquisition(readStack, "TIFF stack");
    stack.describe = stackDescription(readStack, "TIFF stack", "files");
    stack.writeVolume = [](const std::filesystem::path& path, const Array3<float>& v,
                           const WriteOptions& o) {
        return writeTiffStack(path, "slice", v, o.tiff16 ? &*o.tiff16 : nullptr);
    };
    stack.openVolumeWriter = [](const std::filesystem::path& path,
                                const std::array<std::size_t, 3>& shape, const WriteOptions& o) {
        return openTiffStackWriter(path, shape, o.tiff16);
    };
    stack.openVolumeReader = [](const std::filesystem::path& path, const ReadOptions&) {
        return openTiffStackReader(path);
    };
    TOMO_RETURN_IF_ERROR(registry.add(std::move(stack)));

    FileFormat raw;
    raw.name = "raw";
    raw.description = "raw float32 little-endian, no header (shape given by the user)";
    raw.extensions = {".raw", ".bin", ".f32"};
    raw.readVolume = readRaw;
    raw.openAcquisition = stackAcquisition(readRaw, "raw");
    raw.describe = stackDescription(readRaw, "raw", "values");
    raw.writeVolume = [](const std::filesystem::path& path, const Array3<float>& v,
                         const WriteOptions&) { return writeRawFloat32(path, v); };
    raw.openVolumeWriter = [](const std::filesystem::path& path,
                              const std::array<std::size_t, 3>& shape,
                              const WriteOptions&) { return openRawVolumeWriter(path, shape); };
    raw.openVolumeReader = [](const std::filesystem::path& path,
                              const ReadOptions& options) -> Result<std::unique_ptr<VolumeReader>> {
        if (!options.shape)
            return invalidArgument(path.string() + ": a raw file needs its shape (--shape)");
        if (options.sampleType && *options.sampleType != SampleType::Float32)
            return unsupported(path.string() + ": raw files are read by planes as float32 only");
        return openRawVolumeReader(path, *options.shape);
    };
    return registry.add(std::move(raw));
}

}  // namespace tomo
