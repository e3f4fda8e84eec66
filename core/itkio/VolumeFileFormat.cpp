// Extension dispatch of ItkVolumeIO.h (no ITK needed).
#include <algorithm>
#include <cctype>

#include "core/itkio/ItkVolumeIO.h"

namespace tomo {

VolumeFileFormat volumeFileFormat(const std::filesystem::path& path) {
    std::string name = path.filename().string();
    std::transform(name.begin(), name.end(), name.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (name.ends_with(".mha") || name.ends_with(".mhd")) return VolumeFileFormat::MetaImage;
    if (name.ends_with(".nrrd") || name.ends_with(".nhdr")) return VolumeFileFormat::Nrrd;
    if (name.ends_with(".nii") || name.ends_with(".nii.gz")) return VolumeFileFormat::Nifti;
    return VolumeFileFormat::None;
}

const char* volumeFileFormatName(VolumeFileFormat format) {
    switch (format) {
        case VolumeFileFormat::MetaImage:
            return "MetaImage";
        case VolumeFileFormat::Nrrd:
            return "NRRD";
        case VolumeFileFormat::Nifti:
            return "NIfTI";
        case VolumeFileFormat::None:
            break;
    }
    return "none";
}

}  // namespace tomo
