// tomo recon's cone-beam options (ConeArgs.h): geometry file or flags, detector, volume grid,
// FDK options, into a ConeReconRequest.
#include <cmath>

#include "app/cli/ArgParser.h"
#include "app/cli/CliSupport.h"
#include "app/cli/ConeArgs.h"
#include "app/data/DataFormats.h"
#include "app/recon/Preflight.h"
#include "core/cone/ConeGeometryIo.h"
#include "core/geometry/ParallelGeometry.h"

namespace tomo::cli {
namespace {

/// "A" or "A,B" (both positive) as a pair.
Result<std::array<double, 2>> pair(const std::string& text, const std::string& option,
                                   bool positive) {
    const auto parts = split(text, ',');
    if (parts.empty() || parts.size() > 2)
        return invalidArgument(option + " takes A or A,B ('" + text + "' given)");
    std::array<double, 2> out{};
    for (std::size_t i = 0; i < 2; ++i) {
        TOMO_ASSIGN_OR_RETURN(out[i], number(parts[std::min(i, parts.size() - 1)], option));
        if (positive && !(out[i] > 0)) return invalidArgument(option + " must be positive");
    }
    return out;
}

/// "NXxNYxNZ" or "N".
Result<std::array<int, 3>> triple(const std::string& text, const std::string& option) {
    auto parts = split(text, 'x');
    if (parts.size() == 1) parts = {parts[0], parts[0], parts[0]};
    if (parts.size() != 3) return invalidArgument(option + " takes NXxNYxNZ ('" + text + "')");
    std::array<int, 3> out{};
    for (std::size_t i = 0; i < 3; ++i) {
        TOMO_ASSIGN_OR_RETURN(double v, number(parts[i], option));
        if (v < 1 || v > 65536 || v != std::floor(v))
            return invalidArgument(option + ": sizes are integers in [1, 65536]");
        out[i] = static_cast<int>(v);
    }
    return out;
}

Result<ConeGeometryFile> geometryFromArgs(const ArgParser& args,
                                          const app::ProjectionSource& source,
                                          std::vector<std::string>& notes) {
    if (auto path = args.get("geometry")) {
        if (args.has("sid") || args.has("sdd"))
            return invalidArgument("give --geometry or --sid/--sdd/--angles, not both");
        return readConeGeometryFile(*path);
    }
    std::vector<double> angles = source.angles();
    if (!args.has("sid") || !args.has("sdd") || (!args.has("angles") && angles.empty()))
        return invalidArgument(
            "cone beam needs --geometry FILE, or --sid, --sdd and --angles (the angles may come "
            "from an HDF5 acquisition)");
    TOMO_ASSIGN_OR_RETURN(double sid, args.getDouble("sid", 0, 1e-9, 1e9));
    TOMO_ASSIGN_OR_RETURN(double sdd, args.getDouble("sdd", 0, 1e-9, 1e9));
    if (args.has("angles")) {
        TOMO_ASSIGN_OR_RETURN(angles, parseAngleSpec(*args.get("angles")));
    } else {
        notes.push_back("angles from the file (" + std::to_string(angles.size()) + " views)");
    }
    ConeGeometryFile file;
    for (double a : angles) {
        ConeView v;
        v.sid = sid;
        v.sdd = sdd;
        v.gantryAngle = a;
        file.views.push_back(v);
    }
    return file;
}

Result<DetectorGrid> detectorFromArgs(const ArgParser& args, const ConeGeometryFile& file,
                                      const app::ProjectionSource& source,
                                      std::vector<std::string>& notes) {
    const auto shape = source.shape();
    const int nu = static_cast<int>(shape[2]), nv = static_cast<int>(shape[1]);
    if (args.has("detector-pitch")) {
        TOMO_ASSIGN_OR_RETURN(auto p, pair(*args.get("detector-pitch"), "--detector-pitch", true));
        return DetectorGrid::centred(nu, nv, p[0], p[1]);
    }
    if (file.detector) {
        if (file.detector->nu != nu || file.detector->nv != nv)
            return invalidArgument("the geometry file's detector is " +
                                   std::to_string(file.detector->nu) + " x " +
                                   std::to_string(file.detector->nv) + " but the projections " +
                                   std::to_string(nu) + " x " + std::to_string(nv));
        return *file.detector;
    }
    if (auto f = source.frame()) {
        notes.push_back("detector pitch and origin from the projection file's spacing and origin");
        return DetectorGrid{nu, nv, f->spacing[0], f->spacing[1], f->origin[0], f->origin[1]};
    }
    notes.push_back("no detector pitch given (--detector-pitch): 1 mm assumed");
    return DetectorGrid::centred(nu, nv, 1.0, 1.0);
}

Result<ConeVolumeGrid> gridFromArgs(const ArgParser& args, const ConeGeometryFile& file,
                                    const ConeGeometry& g) {
    const DetectorGrid& d = g.detector();
    const double magnification = g.view(0).sdd / g.view(0).sid;
    ConeVolumeGrid grid =
        file.volume.value_or(ConeVolumeGrid::centred(d.nu, d.nv, d.nu, d.pitchU / magnification));
    double spacing = grid.spacingX;
    if (args.has("voxel-size")) {
        TOMO_ASSIGN_OR_RETURN(spacing, args.getDouble("voxel-size", 1, 1e-9, 1e9));
    }
    std::optional<std::array<int, 3>> size;
    if (args.has("volume")) {
        TOMO_ASSIGN_OR_RETURN(size, triple(*args.get("volume"), "--volume"));
    } else if (args.has("size")) {
        TOMO_ASSIGN_OR_RETURN(size, triple(*args.get("size"), "--size"));
    }
    if (size || args.has("voxel-size")) {
        const std::array<int, 3> n = size.value_or(std::array<int, 3>{grid.nx, grid.ny, grid.nz});
        grid = ConeVolumeGrid::centred(n[0], n[1], n[2], spacing);
    }
    TOMO_RETURN_IF_ERROR(grid.validate());
    return grid;
}

Status applyOffsets(const ArgParser& args, std::vector<ConeView>& views) {
    if (!args.has("detector-offset")) return Status::ok();
    TOMO_ASSIGN_OR_RETURN(auto o, pair(*args.get("detector-offset"), "--detector-offset", false));
    for (ConeView& v : views) {
        v.projOffsetX = o[0];
        v.projOffsetY = o[1];
    }
    return Status::ok();
}

}  // namespace

void addConeReconOptions(ArgParser& args) {
    args.option("geometry", "FILE",
                "cone beam: RTK's circular geometry XML or a TomoStation JSON geometry");
    args.option("sid", "MM", "cone beam: source to isocentre distance (with --sdd and --angles)");
    args.option("sdd", "MM", "cone beam: source to detector distance");
    args.option("detector-offset", "PX,PY",
                "cone beam: detector shift in mm (RTK's ProjectionOffsetX/Y) for every view");
    args.option("volume", "NXxNYxNZ", "cone beam: volume size (y is the rotation axis)");
    args.option("voxel-size", "S", "cone beam: voxel size in mm (default: pitch at isocentre)");
    args.option("short-scan", "MODE", "cone beam: auto | on | off (Parker weights)", "auto");
    args.option("rank-grid", "RxC",
                "cone beam under mpirun: R rows (z-slabs) x C columns (view groups) of ranks "
                "(default: the least R that fits --memory-budget)");
}

bool isConeRequest(const ArgParser& args) {
    return args.has("geometry") || args.has("sid");
}

Result<app::ConeReconRequest> coneRequestFromArgs(const ArgParser& args,
                                                  std::vector<std::string>& notes) {
    TOMO_ASSIGN_OR_RETURN(FormatRegistry formats, app::makeFormatRegistry());
    ReadOptions read;
    if (auto shape = args.get("shape")) {
        TOMO_ASSIGN_OR_RETURN(auto n, triple(*shape, "--shape"));
        read.shape =
            std::array<std::size_t, 3>{std::size_t(n[0]), std::size_t(n[1]), std::size_t(n[2])};
    }
    TOMO_ASSIGN_OR_RETURN(std::unique_ptr<app::ProjectionSource> source,
                          app::openProjections(formats, *args.get("INPUT"), read));
    TOMO_ASSIGN_OR_RETURN(ConeGeometryFile file, geometryFromArgs(args, *source, notes));
    return coneRequestFromArgs(args, std::move(source), std::move(file), notes);
}

Result<app::ConeReconRequest> coneRequestFromArgs(const ArgParser& args,
                                                  std::unique_ptr<app::ProjectionSource> source,
                                                  ConeGeometryFile file,
                                                  std::vector<std::string>& notes) {
    TOMO_ASSIGN_OR_RETURN(FormatRegistry formats, app::makeFormatRegistry());
    TOMO_RETURN_IF_ERROR(applyOffsets(args, file.views));
    if (source->shape()[0] != file.views.size())
        return invalidArgument(*args.get("INPUT") + " holds " + std::to_string(source->shape()[0]) +
                               " views but the geometry " + std::to_string(file.views.size()));
    TOMO_ASSIGN_OR_RETURN(DetectorGrid detector, detectorFromArgs(args, file, *source, notes));
    TOMO_ASSIGN_OR_RETURN(ConeGeometry geometry, ConeGeometry::create(file.views, detector));
    TOMO_ASSIGN_OR_RETURN(ConeVolumeGrid grid, gridFromArgs(args, file, geometry));
    app::ConeReconRequest r(std::move(source), std::move(geometry), grid);
    TOMO_ASSIGN_OR_RETURN(r.fdk.filter.window, parseFilterWindow(args.getOr("filter", "ramp")));
    TOMO_ASSIGN_OR_RETURN(r.fdk.filter.cutoff, args.getDouble("cutoff", 1, 1e-6, 1));
    TOMO_ASSIGN_OR_RETURN(r.fdk.weights.shortScan,
                          parseShortScanMode(args.getOr("short-scan", "auto")));
    const int defaultMiB =
        static_cast<int>(std::min<std::size_t>(app::defaultMemoryBudget() >> 20, 1 << 24));
    TOMO_ASSIGN_OR_RETURN(int budgetMiB, args.getInt("memory-budget", defaultMiB, 1, 1 << 24));
    r.fdk.memoryBudget = static_cast<std::size_t>(budgetMiB) << 20;
    r.backend = args.getOr("backend", "auto");
    r.variant = args.getOr("variant", "");
    if (auto truth = args.get("truth")) {
        TOMO_ASSIGN_OR_RETURN(Array3<float> t, formats.readVolume(*truth, {}));
        if (t.dim(0) != std::size_t(grid.nz) || t.dim(1) != std::size_t(grid.ny) ||
            t.dim(2) != std::size_t(grid.nx))
            return invalidArgument("--truth does not have the volume's shape");
        r.reference = std::make_shared<const Volume>(std::move(t));
    }
    if (auto rankGrid = args.get("rank-grid")) {
        const auto parts = split(*rankGrid, 'x');
        if (parts.size() != 2)
            return invalidArgument("--rank-grid takes RxC, e.g. 2x4 ('" + *rankGrid + "' given)");
        std::array<int, 2> rc{};
        for (std::size_t i = 0; i < 2; ++i) {
            TOMO_ASSIGN_OR_RETURN(double v, number(parts[i], "--rank-grid"));
            if (v < 1 || v > 1 << 20 || v != std::floor(v))
                return invalidArgument("--rank-grid: R and C are positive integers");
            rc[i] = static_cast<int>(v);
        }
        r.rankRows = rc[0];
        r.rankColumns = rc[1];
    }
    r.output.path = *args.get("output");
    r.output.provenance["input"] = *args.get("INPUT");
    r.output.provenance["preprocessing"] = r.source->preprocessing();
    return r;
}

}  // namespace tomo::cli
