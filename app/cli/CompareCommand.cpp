// tomo compare: image quality metrics of an image against a reference.
#include <cstdio>

#include "app/cli/ArgParser.h"
#include "app/cli/CliSupport.h"
#include "app/cli/Commands.h"
#include "core/metrics/Metrics.h"

namespace tomo::cli {
namespace {

Status compareBody(const ArgParser& args) {
    TOMO_ASSIGN_OR_RETURN(auto image, readStack(*args.get("IMAGE"), args.get("shape")));
    TOMO_ASSIGN_OR_RETURN(auto reference, readStack(*args.get("REFERENCE"), args.get("shape")));
    if (image.dims() != reference.dims())
        return invalidArgument(
            "IMAGE is " + std::to_string(image.dim(0)) + "x" + std::to_string(image.dim(1)) + "x" +
            std::to_string(image.dim(2)) + " but REFERENCE is " + std::to_string(reference.dim(0)) +
            "x" + std::to_string(reference.dim(1)) + "x" + std::to_string(reference.dim(2)));
    TOMO_ASSIGN_OR_RETURN(double range, args.getDouble("range", 0.0, 0.0, 1e30));
    const bool json = args.has("json");
    if (json) std::printf("[");
    for (std::size_t z = 0; z < image.dim(0); ++z) {
        TOMO_ASSIGN_OR_RETURN(ImageMetrics m,
                              compareImages(image.plane(z), reference.plane(z), range));
        if (json)
            std::printf(
                "%s{\"slice\": %zu, \"rmse\": %s, \"psnr\": %s, \"ssim\": %s, \"max_abs_error\": "
                "%s}",
                z ? ", " : "", z, jsonNumber(m.rmse).c_str(), jsonNumber(m.psnr).c_str(),
                jsonNumber(m.ssim).c_str(), jsonNumber(m.maxAbsError).c_str());
        else
            std::printf("slice %zu: RMSE %.6g  PSNR %.2f dB  SSIM %.4f  max error %.6g\n", z,
                        m.rmse, m.psnr, m.ssim, m.maxAbsError);
    }
    if (json) std::printf("]\n");
    return Status::ok();
}

}  // namespace

int runCompare(int argc, char** argv) {
    ArgParser args("compare",
                   "Prints RMSE, PSNR, SSIM and the maximum absolute error of IMAGE against "
                   "REFERENCE,\nper slice.");
    args.positional("IMAGE", "image stack (.raw needs --shape, or .tif)");
    args.positional("REFERENCE", "reference stack of the same shape");
    args.option("shape", "HEIGHTxWIDTH[xSLICES]", "shape of .raw inputs");
    args.option("range", "L", "data range for PSNR and SSIM (default: range of the reference)");
    args.flag("json", "print a JSON array");
    return runCommand(args, argc, argv, [&] { return compareBody(args); });
}

}  // namespace tomo::cli
