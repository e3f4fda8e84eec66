// tomo convert: a float stack from one file format to another (HDF5, TIFF, raw, ...).
#include <cstdio>

#include "app/cli/ArgParser.h"
#include "app/cli/CliSupport.h"
#include "app/cli/Commands.h"
#include "app/cli/DataFormats.h"

namespace tomo::cli {

int runConvert(int argc, char** argv) {
    ArgParser args("convert",
                   "Converts a float stack (volume or projections) between file formats chosen "
                   "by extension; the output is written atomically.");
    args.positional("INPUT", "input file (.h5/.nxs, .tif, .raw with --shape, ...)");
    args.positional("OUTPUT", "output file (.h5: /reconstruction/data with provenance, .tif, "
                              ".raw)");
    args.option("shape", "ROWSxCOLUMNS[xPLANES]", "shape of a raw input");
    args.option("dataset", "PATH",
                "HDF5 dataset to read (default /reconstruction/data, else /exchange/data)");
    args.option("voxel-size", "S", "voxel size recorded in an HDF5 output", "1");
    args.epilog("example:\n  tomo convert rec.tif rec.h5\n  tomo convert scan.h5 frames.tif "
                "--dataset /exchange/data");
    return runCommand(args, argc, argv, [&]() -> Status {
        TOMO_ASSIGN_OR_RETURN(FormatRegistry registry, makeFormatRegistry());
        TOMO_ASSIGN_OR_RETURN(ReadOptions options, readOptionsFromArgs(args));
        const std::string input = *args.get("INPUT"), output = *args.get("OUTPUT");
        TOMO_RETURN_IF_ERROR(checkWritableOutput(output));
        TOMO_ASSIGN_OR_RETURN(const FileFormat* outFormat, registry.forPath(output));
        if (!outFormat->writeVolume)
            return unsupported(output + ": the " + outFormat->name + " format cannot be written");
        TOMO_ASSIGN_OR_RETURN(Array3<float> stack, registry.readVolume(input, options));
        WriteOptions write;
        TOMO_ASSIGN_OR_RETURN(write.voxelSize, args.getDouble("voxel-size", 1.0, 1e-12, 1e12));
        write.provenance["input"] = input;
        write.provenance["converted_by"] = "tomo convert";
        TOMO_RETURN_IF_ERROR(registry.writeVolume(output, stack, write));
        std::printf("converted %zux%zux%zu float32 %s -> %s\n", stack.dim(0), stack.dim(1),
                    stack.dim(2), input.c_str(), output.c_str());
        return Status::ok();
    });
}

}  // namespace tomo::cli
