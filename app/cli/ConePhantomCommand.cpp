// tomo phantom --cone (ConeArgs.h): exact cone-beam projections of a 3-D phantom in RTK's
// frame, the geometry file (RTK XML or JSON) and the supersampled truth.
#include <cmath>
#include <cstdio>

#include "app/cli/ArgParser.h"
#include "app/cli/CliSupport.h"
#include "app/cli/ConeArgs.h"
#include "app/cli/PhantomArgs.h"
#include "app/data/DataFormats.h"
#include "core/cone/ConeGeometryIo.h"
#include "core/cone/ConePhantom.h"
#include "core/cone/FdkWeights.h"

namespace tomo::cli {
namespace {

struct ConeSetup {
    ConeGeometry geometry;
    ConeVolumeGrid grid;
};

/// Geometry and grid of the options: an N^3 volume of 1 mm voxels and core's
/// conePhantomGeometry (a detector of 1 mm pixels at the isocentre that sees the whole volume),
/// views over --arc degrees.
Result<ConeSetup> setupFromArgs(const ArgParser& args) {
    TOMO_ASSIGN_OR_RETURN(int n, args.getInt("size", 128, 4, 4096));
    TOMO_ASSIGN_OR_RETURN(double sid, args.getDouble("sid", 1000, 1e-3, 1e9));
    TOMO_ASSIGN_OR_RETURN(double sdd, args.getDouble("sdd", 1500, 1e-3, 1e9));
    const double r = n / std::sqrt(2.0);
    if (sid <= 1.05 * r)
        return invalidArgument("--sid must exceed the volume's radius (" + std::to_string(r) +
                               " mm for --size " + std::to_string(n) + ")");
    TOMO_ASSIGN_OR_RETURN(
        int views, args.getInt("views", static_cast<int>(std::ceil(n * kPi / 2)), 1, 1 << 20));
    TOMO_ASSIGN_OR_RETURN(double arc, args.getDouble("arc", 360, 1, 3600));
    TOMO_ASSIGN_OR_RETURN(ConeGeometry g, conePhantomGeometry(n, sid, sdd, views, arc));
    return ConeSetup{std::move(g), ConeVolumeGrid::centred(n, n, n, 1.0)};
}

}  // namespace

void addConePhantomOptions(ArgParser& args) {
    args.flag("cone", "cone beam: projections [view][v][u] of a 3-D phantom (RTK's frame)");
    args.option("geometry", "FILE", "cone beam: geometry to write (.xml RTK, .json)");
    args.option("sid", "MM", "cone beam: source to isocentre distance", "1000");
    args.option("sdd", "MM", "cone beam: source to detector distance", "1500");
    args.option("views", "P", "cone beam: number of views (default ceil(N*pi/2))");
    args.option("arc", "DEG", "cone beam: arc covered by the views", "360");
}

Result<PhantomResult> conePhantomFromArgs(const ArgParser& args, bool withTruth,
                                          const ExecContext& ctx) {
    TOMO_ASSIGN_OR_RETURN(ConeSetup s, setupFromArgs(args));
    int rays = 2;  // per pixel axis: 4 rays per pixel (the parallel-beam default is per bin)
    if (args.has("rays")) {
        TOMO_ASSIGN_OR_RETURN(rays, args.getInt("rays", 2, 1, 16));
    }
    const std::string name = args.getOr("phantom", "shepp-logan");
    TOMO_ASSIGN_OR_RETURN(
        ConePhantom phantom,
        ConePhantom::fromName(name == "shepp-logan-3d" ? "shepp-logan" : name, 0.5 * s.grid.nx));
    Progress scope, rscope;
    ExecContext pctx = ctx, rctx = ctx;
    if (ctx.progress) {
        scope = ctx.progress->child(0.0, withTruth ? 0.85 : 1.0, "projecting");
        rscope = ctx.progress->child(0.85, 1.0, "ground truth");
        pctx.progress = &scope;
        rctx.progress = &rscope;
    }
    PhantomResult out;
    TOMO_ASSIGN_OR_RETURN(out.data, phantom.project(s.geometry, rays, pctx));
    if (withTruth) {
        TOMO_ASSIGN_OR_RETURN(out.truth, phantom.rasterize(s.grid, 2, rctx));
    }
    out.size = s.grid.nx;
    out.cone = std::move(s.geometry);
    out.coneGrid = s.grid;
    return out;
}

Status conePhantom(const ArgParser& args) {
    auto output = args.get("output");
    auto geometryPath = args.get("geometry");
    if (!output || !geometryPath)
        return invalidArgument("--cone needs -o PROJECTIONS and --geometry FILE");
    TOMO_RETURN_IF_ERROR(checkWritableOutput(*output));
    TOMO_RETURN_IF_ERROR(checkWritableOutput(*geometryPath));
    auto truthPath = args.get("truth");
    if (truthPath) TOMO_RETURN_IF_ERROR(checkWritableOutput(*truthPath));
    TOMO_ASSIGN_OR_RETURN(int threads, args.getInt("threads", 0, 0, 4096));
    InterruptToStop interrupt;
    ProgressBar bar(args.has("quiet"));
    Progress progress(&bar);
    TOMO_ASSIGN_OR_RETURN(
        PhantomResult p,
        conePhantomFromArgs(args, truthPath.has_value(), {threads, interrupt.token(), &progress}));
    const ConeGeometry& geometry = *p.cone;
    const ConeVolumeGrid& grid = p.coneGrid;
    TOMO_ASSIGN_OR_RETURN(FormatRegistry formats, app::makeFormatRegistry());
    const DetectorGrid& d = geometry.detector();
    WriteOptions projOptions;
    projOptions.frame = VolumeFrame{{d.pitchU, d.pitchV, 1.0}, {d.originU, d.originV, 0.0}};
    projOptions.provenance["geometry"] = "cone beam; " + describe(geometry);
    TOMO_RETURN_IF_ERROR(formats.writeVolume(*output, p.data, projOptions));
    TOMO_RETURN_IF_ERROR(writeConeGeometryFile(*geometryPath, geometry, &grid));
    if (truthPath) {
        WriteOptions o;
        o.frame = VolumeFrame{{1, 1, 1}, {grid.originX, grid.originY, grid.originZ}};
        TOMO_RETURN_IF_ERROR(formats.writeVolume(*truthPath, p.truth, o));
    }
    bar.finish();
    std::printf("wrote %s: %d views of %d x %d pixels (%.4g mm), float32 [view][v][u]\n",
                output->c_str(), geometry.viewCount(), d.nu, d.nv, d.pitchU);
    std::printf("wrote %s: %s\n", geometryPath->c_str(), describe(geometry).c_str());
    if (truthPath)
        std::printf("wrote %s: %d^3 truth, 1 mm voxels centred on the isocentre\n",
                    truthPath->c_str(), grid.nx);
    std::printf(
        "reconstruct with: tomo recon %s --geometry %s --size %d -o rec.mha%s\n", output->c_str(),
        geometryPath->c_str(), grid.nx,
        output->size() > 4 && output->substr(output->size() - 4) == ".raw"
            ? (" --shape " + std::to_string(geometry.viewCount()) + "x" + std::to_string(d.nv) +
               "x" + std::to_string(d.nu) + " --detector-pitch " + std::to_string(d.pitchU))
                  .c_str()
            : "");
    return Status::ok();
}

}  // namespace tomo::cli
