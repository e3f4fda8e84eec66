// Cone-beam FDK through the reconstruction service (ReconService.h): the variant resolved from
// the Engine's cone registry, core's FDK pipeline (core/cone/Fdk.h) slab by slab into the same
// SlabOutput as every other reconstruction. The steps (ConeSteps.h) are shared with the
// distributed run (ConeDistributed.cpp).
#include <cstdio>

#include "app/Selection.h"
#include "app/recon/ConeDistributed.h"
#include "app/recon/ConeSteps.h"

namespace tomo::app {
namespace {

using detail::coneNote;

Status checkShape(const ConeReconRequest& r) {
    if (!r.source) return invalidArgument("cone-beam reconstruction: no projections");
    const auto s = r.source->shape();
    const DetectorGrid& d = r.geometry.detector();
    if (s[0] != static_cast<std::size_t>(r.geometry.viewCount()) ||
        s[1] != static_cast<std::size_t>(d.nv) || s[2] != static_cast<std::size_t>(d.nu))
        return invalidArgument("the projections are " + std::to_string(s[0]) + " views of " +
                               std::to_string(s[2]) + " x " + std::to_string(s[1]) +
                               " pixels but the geometry has " +
                               std::to_string(r.geometry.viewCount()) + " views of " +
                               std::to_string(d.nu) + " x " + std::to_string(d.nv));
    return r.grid.validate();
}

Result<std::string> resolveVariant(const Engine& engine, const ConeReconRequest& r,
                                   ReconReport& report, const ReconCallbacks& callbacks) {
    const ConeBackProjectorRegistry& registry = engine.coneRegistry();
    const ConeSymmetry symmetry = r.geometry.symmetry(r.grid);
    if (!r.variant.empty()) return r.variant;
    if (r.backend != "auto" && r.backend != "cpu" && r.backend != "cuda" && r.backend != "opencl")
        return invalidArgument("backend must be auto, cpu, cuda or opencl (got '" + r.backend +
                               "')");
    // "auto" is the Engine's backend (CUDA, else an OpenCL GPU, else the CPU: PoCL's CPU device
    // is slower than the CPU's own kernels, docs/performance.md), as for parallel beam.
    const std::string backend = r.backend == "auto" ? engine.autoBackend() : r.backend;
    auto chosen = registry.choose(symmetry, backend);
    if (chosen.isOk()) return chosen;
    // Say why, as the other reconstructions do (issue 27 item 6: every fallback says so).
    const auto device = primaryDevice(backend);
    coneNote(
        report, callbacks,
        (device.isOk() ? "backend " + backend + ": no cone-beam back-projector for " + device->name
                       : device.status().message()) +
            "; FDK runs on the CPU");
    return registry.choose(symmetry, "cpu");
}

WriteOptions coneWriteOptions(const ConeReconRequest& r, const std::string& variant) {
    WriteOptions o;
    o.provenance = r.output.provenance;
    o.tiff16 = r.output.tiff16;
    o.voxelSize = r.grid.spacingX;
    o.frame = VolumeFrame{{r.grid.spacingX, r.grid.spacingY, r.grid.spacingZ},
                          {r.grid.originX, r.grid.originY, r.grid.originZ}};
    char grid[200];
    std::snprintf(grid, sizeof grid,
                  "; volume %d x %d x %d, spacing %.6g x %.6g x %.6g, origin (%.6g, %.6g, %.6g) "
                  "(RTK frame: rotation axis y)",
                  r.grid.nx, r.grid.ny, r.grid.nz, r.grid.spacingX, r.grid.spacingY,
                  r.grid.spacingZ, r.grid.originX, r.grid.originY, r.grid.originZ);
    o.provenance["geometry"] = "cone beam; " + describe(r.geometry) + grid;
    o.provenance["algorithm"] = "fdk";
    char params[160];
    std::snprintf(params, sizeof params, "filter %s, cutoff %g, short scan %s",
                  filterWindowName(r.fdk.filter.window), r.fdk.filter.cutoff,
                  r.fdk.weights.shortScan == ShortScanMode::Auto ? "auto"
                  : r.fdk.weights.shortScan == ShortScanMode::On ? "on"
                                                                 : "off");
    o.provenance["parameters"] = params;
    o.provenance["variant"] = variant;
    return o;
}

}  // namespace

namespace detail {

void coneNote(ReconReport& report, const ReconCallbacks& callbacks, std::string text) {
    if (callbacks.onNote) callbacks.onNote(text);
    report.notes.push_back(std::move(text));
}

Result<std::unique_ptr<ConeBackProjector>> prepareCone(const Engine& engine,
                                                       const ConeReconRequest& request,
                                                       ReconReport& report,
                                                       const ReconCallbacks& callbacks) {
    TOMO_RETURN_IF_ERROR(checkShape(request));
    TOMO_ASSIGN_OR_RETURN(std::string variant, resolveVariant(engine, request, report, callbacks));
    TOMO_ASSIGN_OR_RETURN(std::unique_ptr<ConeBackProjector> bp,
                          engine.coneRegistry().create(variant));
    report.algorithm = "fdk";
    report.variant = variant;
    report.backend = bp->info().backend;
    const ConeVolumeGrid& g = request.grid;
    report.shape = {std::size_t(g.nz), std::size_t(g.ny), std::size_t(g.nx)};
    return bp;
}

SlabOutput::Spec coneOutputSpec(const ConeReconRequest& request, const ReconReport& report) {
    return SlabOutput::Spec{request.output.path, report.shape,
                            coneWriteOptions(request, report.variant), request.reference,
                            request.fdk.memoryBudget};
}

ConeViewReader coneViewReader(const ConeReconRequest& request, int threads) {
    return [source = request.source, threads](int first, int count, View2<float> out) {
        return source->readInto(static_cast<std::size_t>(first), static_cast<std::size_t>(count),
                                out, threads);
    };
}

void takeFdkReport(ReconReport& report, FdkReport fdk, const ReconCallbacks& callbacks) {
    for (const std::string& n : fdk.notes)
        coneNote(report, callbacks, n);
    for (const std::string& w : fdk.warnings)
        coneNote(report, callbacks, "warning: " + w);
    report.slabs = static_cast<std::size_t>(fdk.slabs);
    report.slabSlices = static_cast<std::size_t>(fdk.slabPlanes);
    report.timings.filtering = fdk.timings.filter;
    report.timings.backProjection = fdk.timings.backProject;
    report.timings.total = fdk.timings.total;
    report.fdk = std::move(fdk);
}

}  // namespace detail

ConeVolumeGrid defaultConeGrid(const ConeGeometry& g, const std::optional<ConeVolumeGrid>& file) {
    const DetectorGrid& d = g.detector();
    const double magnification = g.view(0).sdd / g.view(0).sid;
    return file.value_or(ConeVolumeGrid::centred(d.nu, d.nv, d.nu, d.pitchU / magnification));
}

Result<ReconReport> ReconService::run(const ConeReconRequest& request,
                                      const ReconCallbacks& callbacks,
                                      const ExecContext& ctx) const {
    if (m_ranks && m_ranks->size() > 1)  // iFDK's R x C grid (ConeDistributed.h)
        return runConeDistributed(m_engine, *m_ranks, request, callbacks, ctx);
    ReconReport report;
    TOMO_ASSIGN_OR_RETURN(std::unique_ptr<ConeBackProjector> bp,
                          detail::prepareCone(m_engine, request, report, callbacks));
    TOMO_ASSIGN_OR_RETURN(
        detail::SlabOutput out,
        detail::SlabOutput::open(detail::coneOutputSpec(request, report), report));
    const ConeViewReader read = detail::coneViewReader(request, ctx.threads);
    auto sink = [&](int first, Volume&& slab) {
        return out.put(static_cast<std::size_t>(first), std::move(slab));
    };
    // The ramp on the back-projector's device where its backend filters there (cuFFT, VkFFT).
    FdkOptions options = request.fdk;
    if (!options.rowFilter) options.rowFilter = m_engine.rowFilter(report.backend);
    TOMO_ASSIGN_OR_RETURN(FdkReport fdk,
                          runFdk(request.geometry, request.grid, options, *bp, read, sink, ctx));
    detail::takeFdkReport(report, std::move(fdk), callbacks);
    TOMO_RETURN_IF_ERROR(out.commit(report));
    return report;
}

}  // namespace tomo::app
