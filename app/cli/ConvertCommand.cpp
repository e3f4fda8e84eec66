// tomo convert: a float stack from one file format to another (HDF5, TIFF, raw, ...).
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "app/cli/ArgParser.h"
#include "app/cli/CliSupport.h"
#include "app/cli/Commands.h"
#include "app/cli/ReadOptionsArgs.h"

namespace tomo::cli {

ArgParser convertParser() {
    ArgParser args("convert",
                   "Converts a float stack (volume or projections) between file formats chosen "
                   "by extension; the output is written atomically.");
    args.positional("INPUT", "input file (.h5/.nxs, .tif, .raw with --shape, ...)");
    args.positional("OUTPUT",
                    "output file (.h5: /reconstruction/data with provenance, .tif, "
                    ".raw)");
    args.option("shape", "ROWSxCOLUMNS[xPLANES]", "shape of a raw input");
    args.option("dataset", "PATH",
                "HDF5 dataset to read (default /reconstruction/data, else /exchange/data)");
    args.option("voxel-size", "S", "voxel size recorded in an HDF5 output", "1");
    args.option(
        "uint16", "SCALE[,OFFSET]|auto",
        "TIFF output as 16-bit counts: value = OFFSET + SCALE x count (stored in the file); "
        "auto spreads the data's range over 0..65535");
    args.epilog(
        "example:\n  tomo convert rec.tif rec.h5\n  tomo convert scan.h5 frames.tif "
        "--dataset /exchange/data");
    return args;
}

Result<WriteOptions> writeOptionsFromArgs(const ArgParser& args, const Array3<float>& stack,
                                          const FileFormat& outFormat) {
    WriteOptions write;
    TOMO_ASSIGN_OR_RETURN(write.voxelSize, args.getDouble("voxel-size", 1.0, 1e-12, 1e12));
    if (auto map = args.get("uint16")) {
        // "SCALE,OFFSET", or "auto" to spread the data's range over 0..65535.
        if (*map == "auto") {
            float lo = stack.empty() ? 0.f : stack(0, 0, 0), hi = lo;
            for (std::size_t r = 0; r < stack.dim(0) * stack.dim(1); ++r)
                for (float v : stack.rows().row(r)) {
                    lo = std::min(lo, v);
                    hi = std::max(hi, v);
                }
            write.tiff16 = Tiff16Scale::forRange(lo, hi);
        } else {
            const auto comma = map->find(',');
            double scale = 0, offset = 0;
            try {
                scale = std::stod(map->substr(0, comma));
                offset = comma == std::string::npos ? 0.0 : std::stod(map->substr(comma + 1));
            } catch (...) {
                scale = 0;
            }
            if (!(scale > 0) || !std::isfinite(scale) || !std::isfinite(offset))
                return invalidArgument(
                    "--uint16 expects SCALE[,OFFSET] with SCALE > 0, or auto; got '" + *map + "'");
            write.tiff16 = Tiff16Scale{scale, offset};
        }
        if (outFormat.name != "tiff" && outFormat.name != "tiff-stack")
            return invalidArgument("--uint16 applies to TIFF outputs only");
    }
    return write;
}

int runConvert(int argc, char** argv) {
    ArgParser args = convertParser();
    return runCommand(args, argc, argv, [&]() -> Status {
        TOMO_ASSIGN_OR_RETURN(FormatRegistry registry, makeFormatRegistry());
        TOMO_ASSIGN_OR_RETURN(ReadOptions options, readOptionsFromArgs(args));
        const std::string input = *args.get("INPUT"), output = *args.get("OUTPUT");
        TOMO_RETURN_IF_ERROR(checkWritableOutput(output));
        TOMO_ASSIGN_OR_RETURN(const FileFormat* outFormat, registry.forPath(output));
        if (!outFormat->writeVolume)
            return unsupported(output + ": the " + outFormat->name + " format cannot be written");
        TOMO_ASSIGN_OR_RETURN(Array3<float> stack, registry.readVolume(input, options));
        TOMO_ASSIGN_OR_RETURN(WriteOptions write, writeOptionsFromArgs(args, stack, *outFormat));
        write.provenance["input"] = input;
        write.provenance["converted_by"] = "tomo convert";
        TOMO_RETURN_IF_ERROR(registry.writeVolume(output, stack, write));
        std::printf("converted %zux%zux%zu float32 %s -> %s\n", stack.dim(0), stack.dim(1),
                    stack.dim(2), input.c_str(), output.c_str());
        return Status::ok();
    });
}

}  // namespace tomo::cli
