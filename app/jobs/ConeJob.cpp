// Cone-beam datasets and FDK jobs of the GUI (ConeJob.h).
#include "app/jobs/ConeJob.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "app/data/DataFormats.h"
#include "core/geometry/ParallelGeometry.h"

namespace tomo::app {
namespace {

std::string sizeText(std::size_t a, std::size_t b) {
    return std::to_string(a) + " x " + std::to_string(b);
}

/// The detector grid of the probe (file comment of ConeJob.h), the stated pitch last.
Result<DetectorGrid> detectorOf(const ConeProbe& p, const std::optional<VolumeFrame>& frame,
                                const ConeOpenRequest& request, std::vector<std::string>& notes) {
    const int nu = static_cast<int>(p.shape[2]), nv = static_cast<int>(p.shape[1]);
    if (p.file.detector) return *p.file.detector;
    if (frame) {
        notes.push_back("detector pitch and origin from the projection file's spacing and origin");
        return DetectorGrid{
            nu, nv, frame->spacing[0], frame->spacing[1], frame->origin[0], frame->origin[1]};
    }
    const std::array<double, 2> pitch = request.pitch.value_or(std::array<double, 2>{1.0, 1.0});
    notes.push_back(request.pitch ? "detector pitch as stated, detector centred"
                                  : "no detector pitch in the files or stated: 1 mm assumed");
    return DetectorGrid::centred(nu, nv, pitch[0], pitch[1]);
}

Result<std::unique_ptr<ProjectionSource>> openSource(const ConeOpenRequest& request) {
    TOMO_ASSIGN_OR_RETURN(FormatRegistry formats, makeFormatRegistry());
    return openProjections(formats, request.projections, request.read);
}

/// The truth as axial planes, and the volume grid it defines: its shape, and its spacing and
/// origin where the file stores them (MetaImage, NRRD), else the default grid's spacing,
/// centred.
Result<Volume> readTruth(const ConeOpenRequest& request, ConeVolumeGrid& grid,
                         std::vector<std::string>& notes) {
    TOMO_ASSIGN_OR_RETURN(FormatRegistry formats, makeFormatRegistry());
    TOMO_ASSIGN_OR_RETURN(Volume truth, formats.readVolume(request.truth, {}));
    const int nx = static_cast<int>(truth.dim(2)), ny = static_cast<int>(truth.dim(1)),
              nz = static_cast<int>(truth.dim(0));
    if (nx != grid.nx || ny != grid.ny || nz != grid.nz) {
        auto d = formats.describe(request.truth, {});
        if (d.isOk() && d->frame) {
            const VolumeFrame& f = *d->frame;
            grid = {nx,           ny,          nz,          f.spacing[0], f.spacing[1],
                    f.spacing[2], f.origin[0], f.origin[1], f.origin[2]};
        } else {
            grid = ConeVolumeGrid::centred(nx, ny, nz, grid.spacingX);
        }
        TOMO_RETURN_IF_ERROR(grid.validate().withContext(request.truth.string()));
        notes.push_back("volume grid from the ground truth " + request.truth.filename().string());
    }
    return axialPlanes(truth);
}

/// The probe of @p file with an open source (a file its format reads whole is read once).
Result<ConeProbe> probeSource(const ConeOpenRequest& request, ConeGeometryFile file,
                              const ProjectionSource& source) {
    ConeProbe p;
    p.file = std::move(file);
    p.shape = source.shape();
    const std::string name = request.projections.filename().string();
    if (p.shape[0] != p.file.views.size())
        return invalidArgument(name + " holds " + std::to_string(p.shape[0]) +
                               " views but the geometry " + std::to_string(p.file.views.size()));
    if (p.file.detector) {
        const DetectorGrid& d = *p.file.detector;
        if (std::size_t(d.nu) != p.shape[2] || std::size_t(d.nv) != p.shape[1])
            return invalidArgument("the geometry's detector is " + sizeText(d.nu, d.nv) +
                                   " px but the projections are " +
                                   sizeText(p.shape[2], p.shape[1]));
        p.pitchSource = "geometry";
        p.pitch = {d.pitchU, d.pitchV};
    } else if (auto f = source.frame()) {
        p.pitchSource = "projections";
        p.pitch = {f->spacing[0], f->spacing[1]};
    }
    return p;
}

}  // namespace

Result<ConeProbe> probeCone(const ConeOpenRequest& request) {
    // The geometry first: parsing it is cheap, opening the projections may read them whole.
    TOMO_ASSIGN_OR_RETURN(ConeGeometryFile file, readConeGeometryFile(request.geometry));
    TOMO_ASSIGN_OR_RETURN(std::unique_ptr<ProjectionSource> source, openSource(request));
    return probeSource(request, std::move(file), *source);
}

std::string describe(const ConeProbe& p) {
    const ConeView& v = p.file.views.front();
    char text[256];
    std::snprintf(text, sizeof text, "%zu views of %zu x %zu px; sid %g mm, sdd %g mm", p.shape[0],
                  p.shape[2], p.shape[1], v.sid, v.sdd);
    std::string out = text;
    if (p.pitchSource.empty()) return out + "; the detector pitch is not in the files";
    std::snprintf(text, sizeof text, "; detector pitch %g x %g mm from the %s file", p.pitch[0],
                  p.pitch[1], p.pitchSource == "geometry" ? "geometry" : "projection");
    return out + text;
}

Result<ConeDataset> loadConeDataset(const ConeOpenRequest& request, const ExecContext& ctx) {
    TOMO_ASSIGN_OR_RETURN(ConeGeometryFile file, readConeGeometryFile(request.geometry));
    TOMO_ASSIGN_OR_RETURN(std::unique_ptr<ProjectionSource> source, openSource(request));
    TOMO_ASSIGN_OR_RETURN(ConeProbe probe, probeSource(request, std::move(file), *source));
    std::vector<std::string> notes;
    TOMO_ASSIGN_OR_RETURN(DetectorGrid detector,
                          detectorOf(probe, source->frame(), request, notes));
    TOMO_ASSIGN_OR_RETURN(ConeGeometry geometry, ConeGeometry::create(probe.file.views, detector));
    const ConeVolumeGrid grid = defaultConeGrid(geometry, probe.file.volume);
    TOMO_RETURN_IF_ERROR(grid.validate());
    const auto shape = probe.shape;
    TOMO_ASSIGN_OR_RETURN(Array3<float> views, Array3<float>::create(shape[0], shape[1], shape[2]));
    if (ctx.progress) ctx.progress->setTotal(shape[0]);
    constexpr std::size_t kChunk = 16;
    for (std::size_t first = 0; first < shape[0]; first += kChunk) {
        TOMO_RETURN_IF_ERROR(checkStop(ctx.stop));
        const std::size_t count = std::min(kChunk, shape[0] - first);
        TOMO_ASSIGN_OR_RETURN(Array3<float> part, source->read(first, count));
        for (std::size_t p = 0; p < count; ++p)
            for (std::size_t r = 0; r < shape[1]; ++r)
                std::copy_n(part.row(p, r).begin(), shape[2], views.row(first + p, r).begin());
        if (ctx.progress) ctx.progress->advance(count);
    }
    ConeDataset data{std::make_shared<const Array3<float>>(std::move(views)),
                     std::move(geometry),
                     grid,
                     {},
                     grid,
                     std::move(notes),
                     request,
                     source->preprocessing()};
    if (data.preprocessing != "none") data.notes.push_back("projections: " + data.preprocessing);
    if (!request.truth.empty()) {
        TOMO_ASSIGN_OR_RETURN(data.truth, readTruth(request, data.grid, data.notes));
        data.truthGrid = data.grid;
    }
    return data;
}

ConeTuning tuningOf(const ConeGeometry& g) {
    const ConeView& v = g.view(0);
    return {v.sid, v.sdd, v.projOffsetX, v.projOffsetY, v.inPlaneAngle * 180.0 / kPi};
}

Result<ConeGeometry> tunedGeometry(const ConeGeometry& g, const ConeTuning& t) {
    const ConeTuning base = tuningOf(g);
    if (t == base) return g;
    std::vector<ConeView> views = g.views();
    for (ConeView& v : views) {
        v.sid += t.sid - base.sid;
        v.sdd += t.sdd - base.sdd;
        v.projOffsetX += t.offsetU - base.offsetU;
        v.projOffsetY += t.offsetV - base.offsetV;
        v.inPlaneAngle += (t.inPlaneDeg - base.inPlaneDeg) * kPi / 180.0;
    }
    return g.withViews(std::move(views));
}

FdkOptions fdkOptions(const ConeJobSpec& spec) {
    FdkOptions o;
    o.filter = spec.filter;
    o.weights.shortScan = spec.shortScan;
    o.memoryBudget = spec.memoryBudget;
    return o;
}

Result<ConeGeometry> specGeometry(const ConeDataset& data, const ConeJobSpec& spec) {
    if (!spec.tuning) return data.geometry;
    return tunedGeometry(data.geometry, *spec.tuning);
}

Result<ConeOutcome> runConeJob(const ReconService& service, std::shared_ptr<const ConeDataset> data,
                               const ConeJobSpec& spec, const ExecContext& ctx) {
    TOMO_ASSIGN_OR_RETURN(ConeGeometry geometry, specGeometry(*data, spec));
    ConeReconRequest request(memoryProjections(data->projections), geometry, spec.grid);
    request.fdk = fdkOptions(spec);
    request.backend = spec.backend;
    request.variant = spec.variant;
    request.output.provenance["input"] =
        data->request.projections.string() + " with " + data->request.geometry.string();
    request.output.provenance["preprocessing"] = data->preprocessing;
    TOMO_ASSIGN_OR_RETURN(ReconReport report, service.run(request, {}, ctx));
    ConeOutcome out;
    TOMO_ASSIGN_OR_RETURN(out.recon.image, axialPlanes(report.image));
    out.recon.timings = report.timings;
    out.recon.variant = report.variant;
    out.recon.provenance = std::move(report.provenance);
    out.grid = spec.grid;
    out.centralPlane = centralPlane(spec.grid);
    out.geometry = describe(geometry);
    const FdkReport& fdk = *report.fdk;
    out.warnings = fdk.warnings;
    for (const std::string& n : report.notes)  // fallbacks first, then FDK's own notes
        if (n.rfind("warning: ", 0) != 0 &&
            std::find(fdk.notes.begin(), fdk.notes.end(), n) == fdk.notes.end())
            out.notes.push_back(n);
    out.notes.insert(out.notes.end(), fdk.notes.begin(), fdk.notes.end());
    const ConeVolumeGrid& t = data->truthGrid;
    const ConeVolumeGrid& g = spec.grid;
    const bool sameGrid = t.nx == g.nx && t.ny == g.ny && t.nz == g.nz &&
                          t.spacingX == g.spacingX && t.spacingY == g.spacingY &&
                          t.spacingZ == g.spacingZ && t.originX == g.originX &&
                          t.originY == g.originY && t.originZ == g.originZ;
    if (!data->truth.empty() && sameGrid) {
        const auto plane = static_cast<std::size_t>(out.centralPlane);
        if (auto m = compareImages(out.recon.image.plane(plane), data->truth.plane(plane))) {
            out.recon.metrics = *m;
            out.recon.hasMetrics = true;
        }
    }
    return out;
}

int centralPlane(const ConeVolumeGrid& grid) {
    const double j = std::round(-grid.originY / grid.spacingY);
    return static_cast<int>(std::clamp(j, 0.0, grid.ny - 1.0));
}

Result<Volume> axialPlanes(const Volume& rtk) {
    const std::size_t nz = rtk.dim(0), ny = rtk.dim(1), nx = rtk.dim(2);
    TOMO_ASSIGN_OR_RETURN(Volume out, Volume::create(ny, nz, nx));
    for (std::size_t k = 0; k < nz; ++k)
        for (std::size_t j = 0; j < ny; ++j)
            std::copy_n(rtk.row(k, j).begin(), nx, out.row(j, k).begin());
    return out;
}

Result<Volume> rtkOrder(const Volume& axial) {
    return axialPlanes(axial);  // the same swap of the two slow axes
}

}  // namespace tomo::app
