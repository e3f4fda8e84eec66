// tomo info: what a data file holds (format, datasets, shapes, types, angles, flats and darks).
#include <cmath>
#include <cstdio>
#include <iostream>

#include "app/cli/ArgParser.h"
#include "app/cli/CliSupport.h"
#include "app/cli/Commands.h"
#include "app/cli/ReadOptionsArgs.h"
#include "core/geometry/ParallelGeometry.h"

namespace tomo::cli {

namespace {

std::string shapeText(const std::vector<std::size_t>& dims) {
    std::string text;
    for (std::size_t i = 0; i < dims.size(); ++i) {
        if (i) text += "x";
        text += std::to_string(dims[i]);
    }
    return text.empty() ? "scalar" : text;
}

void printAcquisition(const AcquisitionInfo& a) {
    std::printf("projections: %zu, %zu rows x %zu columns (%s)\n", a.angleCount, a.rows, a.columns,
                sampleTypeName(a.projectionType));
    std::printf("flats: %zu  darks: %zu\n", a.flatCount, a.darkCount);
    if (a.angles.empty()) {
        std::printf("angles: none in the file (state them with --angles)\n");
        return;
    }
    auto [lo, hi] = std::minmax_element(a.angles.begin(), a.angles.end());
    std::printf("angles: %zu from %.6g to %.6g degrees (%.6g to %.6g rad); stored in %s (%s)\n",
                a.angles.size(), *lo * 180 / kPi, *hi * 180 / kPi, *lo, *hi,
                angleUnitName(a.storedAngleUnit),
                a.angleUnitFromAttribute ? "units attribute" : "detected or stated");
}

}  // namespace

int runInfo(int argc, char** argv) {
    ArgParser args("info",
                   "Shows what a data file holds: format, datasets, shapes, types, "
                   "angle range and units, flat and dark counts.");
    args.positional("FILE", "HDF5 (DXchange, NXtomo, reconstruction), TIFF or raw (needs --shape)");
    args.option("shape", "ROWSxCOLUMNS[xPLANES]", "shape of a raw file");
    args.option("angle-unit", "UNIT", "auto | deg | rad: unit of the stored angles", "auto");
    return runCommand(args, argc, argv, [&]() -> Status {
        TOMO_ASSIGN_OR_RETURN(FormatRegistry registry, makeFormatRegistry());
        TOMO_ASSIGN_OR_RETURN(ReadOptions options, readOptionsFromArgs(args));
        const std::string file = *args.get("FILE");
        TOMO_ASSIGN_OR_RETURN(FileDescription d, registry.describe(file, options));
        std::printf("file: %s\nformat: %s\n", file.c_str(), d.format.c_str());
        std::printf("datasets:\n");
        for (const DatasetInfo& ds : d.datasets)
            std::printf("  %-40s %-16s %-8s%s%s\n", ds.path.c_str(), shapeText(ds.shape).c_str(),
                        sampleTypeName(ds.type), ds.role.empty() ? "" : " ", ds.role.c_str());
        if (d.acquisition) printAcquisition(*d.acquisition);
        for (const auto& [key, value] : d.metadata)
            std::printf("%s: %s\n", key.c_str(), value.c_str());
        return Status::ok();
    });
}

}  // namespace tomo::cli
