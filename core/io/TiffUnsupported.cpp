// TIFF entry points of ImageIO.h for builds without libtiff (TOMO_WITH_TIFF off): every call
// reports Unsupported so that callers can fall back to raw files.
#include "core/io/ImageIO.h"
#include "core/io/TiffFormat.h"

namespace tomo {
namespace {

Status noTiff(const std::filesystem::path& path) {
    return unsupported(path.string() +
                       ": TIFF support is not built in (libtiff was not found at configure time; "
                       "use .raw files or rebuild with libtiff-dev installed)");
}

}  // namespace

bool tiffSupported() {
    return false;
}

Result<Array3<float>> readTiff(const std::filesystem::path& path) {
    return noTiff(path);
}

Status writeTiff(const std::filesystem::path& path, const Array3<float>&) {
    return noTiff(path);
}

Result<TiffInfo> probeTiff(const std::filesystem::path& path) {
    return noTiff(path);
}

Result<Array3<float>> readTiffRange(const std::filesystem::path& path, const ReadRange&) {
    return noTiff(path);
}

Status writeTiff16(const std::filesystem::path& path, const Array3<float>&, Tiff16Scale) {
    return noTiff(path);
}

Result<std::unique_ptr<TiffPageWriter>> TiffPageWriter::open(const std::filesystem::path& path,
                                                             const std::array<std::size_t, 3>&,
                                                             const Tiff16Scale*) {
    return noTiff(path);
}

}  // namespace tomo
