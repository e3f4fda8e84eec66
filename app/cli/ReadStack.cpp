// readStack (Commands.h): a .tif or .raw stack named on the command line (--truth, tomo compare).
#include <filesystem>

#include "app/cli/ArgParser.h"
#include "app/cli/Commands.h"
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
    return invalidArgument(path + ": unknown input format '" + ext + "' (expected .raw or .tif)");
}

}  // namespace tomo::cli
