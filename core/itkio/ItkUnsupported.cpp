// ItkVolumeIO.h for builds without ITK (TOMO_WITH_ITK off): every call reports Unsupported.
#include "core/itkio/ItkVolumeIO.h"

namespace tomo {
namespace {

Status noItk(const std::filesystem::path& path) {
    return unsupported(path.string() + ": " + volumeFileFormatName(volumeFileFormat(path)) +
                       " volumes need ITK, which was not found at configure time (install "
                       "libinsighttoolkit5-dev and rebuild, or use .tif/.raw)");
}

}  // namespace

bool itkVolumeIoSupported() {
    return false;
}

Result<VolumeFileInfo> probeVolumeFile(const std::filesystem::path& path) {
    return noItk(path);
}

Result<VolumeFile> readVolumeFile(const std::filesystem::path& path, const ReadRange&) {
    return noItk(path);
}

Status writeVolumeFile(const std::filesystem::path& path, const Array3<float>&,
                       const VolumeMetadata&, bool) {
    return noItk(path);
}

}  // namespace tomo
