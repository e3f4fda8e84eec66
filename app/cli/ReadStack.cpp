// readStack (Commands.h): a stack named on the command line (--truth, tomo compare): .tif and
// .raw (with its shape option) directly, any other registered format through the registry.
#include <filesystem>

#include "app/cli/ArgParser.h"
#include "app/cli/Commands.h"
#include "app/data/DataFormats.h"
#include "core/io/ImageIO.h"

namespace tomo::cli {

Result<Array3<float>> readStack(const std::string& path, const std::optional<std::string>& rawShape,
                                const std::string& shapeOption) {
    namespace fs = std::filesystem;
    std::error_code ec;
    if (!fs::exists(path, ec)) return notFound(path + ": no such file");
    std::string ext = fs::path(path).extension().string();
    for (char& c : ext)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (ext == ".tif" || ext == ".tiff") {
        if (!tiffSupported())
            return unsupported(path + ": this build has no TIFF support (libtiff)");
        return readTiff(path);
    }
    if (ext == ".raw" || ext == ".bin" || ext == ".f32") {
        if (!rawShape) return invalidArgument(path + ": raw input needs " + shapeOption);
        TOMO_ASSIGN_OR_RETURN(auto dims, parseShape(*rawShape));
        std::size_t planes = dims.size() == 3 ? dims[2] : 1;
        return readRawFloat32(path, {planes, dims[0], dims[1]});
    }
    // Every other registered format (MetaImage, NRRD, NIfTI, HDF5 volumes) as stored.
    TOMO_ASSIGN_OR_RETURN(FormatRegistry formats, app::makeFormatRegistry());
    return formats.readVolume(path, {});
}

}  // namespace tomo::cli
