// Format dispatch of AnyVolume.h.
#include "core/itkio/AnyVolume.h"

#include <algorithm>
#include <cctype>

#include "core/io/ImageIO.h"
#include "core/io/TiffStack.h"
#include "core/itkio/ItkVolumeIO.h"

namespace tomo {
namespace {

std::string lowerExtension(const std::filesystem::path& path) {
    std::string ext = path.extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return ext;
}

}  // namespace

Result<Array3<float>> readVolumeAny(const std::filesystem::path& path, const RawSpec* raw,
                                    const ReadRange& range) {
    const std::string ext = lowerExtension(path);
    if (raw) return readRaw(path, *raw, range);
    if (isTiffStackPath(path)) return readTiffStack(path, range);
    if (ext == ".tif" || ext == ".tiff") return readTiffRange(path, range);
    if (volumeFileFormat(path) != VolumeFileFormat::None) {
        TOMO_ASSIGN_OR_RETURN(VolumeFile v, readVolumeFile(path, range));
        return std::move(v.data);
    }
    if (ext == ".raw" || ext == ".bin" || ext == ".dat")
        return invalidArgument(path.string() +
                               ": a raw file needs its shape and element type "
                               "(e.g. --raw 90x64x128:u16)");
    return invalidArgument(path.string() + ": unknown input format '" + ext +
                           "' (expected a TIFF stack folder or pattern, .tif, .tiff, .mha, .mhd, "
                           ".nrrd, .nhdr, .nii, .nii.gz, or a raw file with its spec)");
}

Status writeVolumeAny(const std::filesystem::path& path, const Array3<float>& data,
                      const VolumeMetadata* metadata, const Tiff16Scale* scale16) {
    const std::string ext = lowerExtension(path);
    std::error_code ec;
    const std::string text = path.string();
    if (!text.empty() && (text.back() == '/' || std::filesystem::is_directory(path, ec)))
        return writeTiffStack(path, "slice", data, scale16);
    if (ext == ".tif" || ext == ".tiff")
        return scale16 ? writeTiff16(path, data, *scale16) : writeTiff(path, data);
    if (scale16) return invalidArgument(text + ": a 16-bit scale applies to TIFF outputs only");
    if (ext == ".raw") return writeRawFloat32(path, data);
    if (volumeFileFormat(path) != VolumeFileFormat::None)
        return writeVolumeFile(path, data, metadata ? *metadata : VolumeMetadata{});
    return invalidArgument(text + ": unknown output format '" + ext +
                           "' (expected a folder/, .tif, .tiff, .raw, .mha, .mhd, .nrrd, .nhdr, "
                           ".nii or .nii.gz)");
}

}  // namespace tomo
