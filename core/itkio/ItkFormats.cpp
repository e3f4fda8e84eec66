// Registry entries of ItkFormats.h.
#include "core/itkio/ItkFormats.h"

#include <cmath>

#include <memory>

#include "core/dataset/MemoryAcquisitionReader.h"
#include "core/itkio/ItkVolumeIO.h"

namespace tomo {
namespace {

Result<Array3<float>> readVolume(const std::filesystem::path& path, const ReadOptions&) {
    TOMO_ASSIGN_OR_RETURN(VolumeFile v, readVolumeFile(path));
    return std::move(v.data);
}

Result<std::unique_ptr<AcquisitionReader>> openAcquisition(const std::filesystem::path& path,
                                                           const ReadOptions& options) {
    ProjectionData data;
    TOMO_ASSIGN_OR_RETURN(data.projections, readVolume(path, options));
    TOMO_ASSIGN_OR_RETURN(MemoryAcquisitionReader reader,
                          MemoryAcquisitionReader::create(
                              std::move(data), volumeFileFormatName(volumeFileFormat(path)),
                              path.string(), SampleType::Float32));
    return std::unique_ptr<AcquisitionReader>(
        std::make_unique<MemoryAcquisitionReader>(std::move(reader)));
}

SampleType sampleTypeOf(const std::string& itkName) {
    if (itkName == "unsigned_char") return SampleType::UInt8;
    if (itkName == "char") return SampleType::Int8;
    if (itkName == "unsigned_short") return SampleType::UInt16;
    if (itkName == "short") return SampleType::Int16;
    if (itkName == "unsigned_int") return SampleType::UInt32;
    if (itkName == "int") return SampleType::Int32;
    if (itkName == "float") return SampleType::Float32;
    if (itkName == "double") return SampleType::Float64;
    return SampleType::Other;
}

Result<FileDescription> describe(const std::filesystem::path& path, const ReadOptions&) {
    TOMO_ASSIGN_OR_RETURN(VolumeFileInfo info, probeVolumeFile(path));
    FileDescription d;
    d.format = volumeFileFormatName(info.format);
    d.datasets.push_back({"volume", {info.nz, info.ny, info.nx}, sampleTypeOf(info.pixelType), ""});
    d.metadata["geometry"] = info.metadata.toString();
    d.metadata["pixel type"] = info.pixelType;
    d.metadata["streamed range reads"] = info.streamable ? "yes" : "no";
    static constexpr std::array<double, 9> kIdentity{1, 0, 0, 0, 1, 0, 0, 0, 1};
    bool identity = true;
    for (std::size_t k = 0; k < 9; ++k)
        identity &= std::abs(info.metadata.direction[k] - kIdentity[k]) < 1e-9;
    if (identity) d.frame = VolumeFrame{info.metadata.spacing, info.metadata.origin};
    return d;
}

Status writeVolume(const std::filesystem::path& path, const Array3<float>& volume,
                   const WriteOptions& options) {
    VolumeGeometry g;
    g.nx = static_cast<int>(volume.dim(2));
    g.ny = static_cast<int>(volume.dim(1));
    g.nz = static_cast<int>(volume.dim(0));
    g.voxelSize = options.voxelSize;
    VolumeMetadata metadata = VolumeMetadata::forGrid(g);
    if (options.frame) {
        metadata.spacing = options.frame->spacing;
        metadata.origin = options.frame->origin;
        metadata.direction = {1, 0, 0, 0, 1, 0, 0, 0, 1};
    }
    return writeVolumeFile(path, volume, metadata);
}

FileFormat format(std::string name, std::string description, std::vector<std::string> ext) {
    FileFormat f;
    f.name = std::move(name);
    f.description = std::move(description);
    f.extensions = std::move(ext);
    f.readVolume = readVolume;
    f.openAcquisition = openAcquisition;
    f.describe = describe;
    f.writeVolume = writeVolume;
    return f;
}

}  // namespace

Status registerItkFormats(FormatRegistry& registry) {
    TOMO_RETURN_IF_ERROR(registry.add(
        format("mha", "MetaImage volume through ITK (any scalar type read, float32 written)",
               {".mha", ".mhd"})));
    TOMO_RETURN_IF_ERROR(registry.add(
        format("nrrd", "NRRD volume through ITK (any scalar type read, float32 written)",
               {".nrrd", ".nhdr"})));
    return registry.add(format("nifti",
                               "NIfTI-1 volume through ITK (any scalar type read, float32 written)",
                               {".nii", ".nii.gz"}));
}

}  // namespace tomo
