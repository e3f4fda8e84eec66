// The output of a reconstruction a slab at a time: streamed to a file, held and written whole,
// or kept in memory; with slice 0's copy and metrics (ReconSteps.h).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

#include "app/data/DataFormats.h"
#include "app/recon/ReconSteps.h"
#include "core/pipeline/SlabDownload.h"

namespace tomo::app::detail {
namespace {

constexpr double kPiDeg = 180.0 / 3.14159265358979323846;

WriteOptions writeOptions(const ReconRequest& request, const Resolved& r) {
    WriteOptions options;
    options.voxelSize = request.grid.voxelSize;
    options.tiff16 = request.output.tiff16;
    options.provenance = request.output.provenance;
    const ParallelGeometry& g = request.geometry;
    char geometry[256];
    std::snprintf(geometry, sizeof geometry,
                  "parallel beam; %d angles from %.6g to %.6g deg; %d detectors, pitch %.6g; "
                  "centre %.6g px; grid %dx%dx%d, voxel %.6g",
                  g.angleCount(), g.angles().front() * kPiDeg, g.angles().back() * kPiDeg,
                  g.detectorCount(), g.detectorPitch(), g.centerOfRotation(), request.grid.nx,
                  request.grid.ny, request.grid.nz, request.grid.voxelSize);
    options.provenance["geometry"] = geometry;
    if (request.grid.offsetX != 0 || request.grid.offsetY != 0) {
        char centre[96];
        std::snprintf(centre, sizeof centre, ", region centre (%.6g, %.6g)", request.grid.offsetX,
                      request.grid.offsetY);
        options.provenance["geometry"] += centre;
    }
    options.provenance["algorithm"] = r.spec.id;
    if (r.spec.iterative) {
        std::string params;
        for (const auto& [name, value] : r.params.all())
            params += (params.empty() ? "" : ", ") + name + " " + value;
        options.provenance["parameters"] = params;
        options.provenance["backend"] = r.backend;
    } else {
        char cutoff[32];
        std::snprintf(cutoff, sizeof cutoff, "%g", r.fbp.filter.cutoff);
        options.provenance["parameters"] =
            std::string("filter ") + filterWindowName(r.fbp.filter.window) + ", cutoff " + cutoff;
        if (r.fourier)  // gridrec: its gridding parameters as given (0: chosen)
            for (const char* name :
                 {"interpolation", "tolerance", "oversampling", "kernel-width", "precision"})
                options.provenance["parameters"] +=
                    std::string(", ") + name + " " + r.params.text(name);
        options.provenance["variant"] = r.variant;
    }
    return options;
}

}  // namespace

struct SlabOutput::State {
    std::array<std::size_t, 3> shape{};
    std::filesystem::path path;
    WriteOptions options;
    std::unique_ptr<VolumeWriter> writer;  ///< streamed
    Volume whole;                          ///< otherwise
    std::vector<char> written;             ///< per plane of whole: stored by put()
    std::shared_ptr<const Volume> reference;
    ReconReport* report = nullptr;  ///< outlives the output (ReconService::run)
};

namespace {

/// The held volume, allocated on first use and uninitialised: put() stores its slabs' planes
/// and commit() zeroes the planes no slab wrote (zeroUnwrittenPlanes), each on several
/// threads (the pages' first touch), so that no plane is written twice and no serial fill runs.
Status ensureWhole(SlabOutput::State& s) {
    if (!s.whole.empty()) return Status::ok();
    TOMO_ASSIGN_OR_RETURN(s.whole, Volume::createUninitialised(s.shape[0], s.shape[1], s.shape[2]));
    s.written.assign(s.shape[0], 0);
    return Status::ok();
}

/// Zeros in every plane of the held volume that no put() stored (a run's empty planes).
void zeroUnwrittenPlanes(SlabOutput::State& s) {
    const std::size_t planes = s.written.size(), ny = s.shape[1];
    for (std::size_t z = 0; z < planes;) {
        std::size_t end = z;
        while (end < planes && !s.written[end])
            ++end;
        if (end > z) storeRows(nullptr, 0, z * ny, (end - z) * ny, s.whole, 0);
        z = std::max(end, z + 1);
    }
    s.written.assign(planes, 1);
}

/// Slice 0's copy and its metrics against reference slice 0 (same rows and columns). PSNR and
/// SSIM take reference slice 0's range, or the whole reference's when slice 0 is constant (the
/// first plane of a cone-beam truth is often empty); a constant reference gives no metrics and
/// a note.
Status keepFirstSlice(const Volume& slab, const Volume* reference, ReconReport& report) {
    TOMO_ASSIGN_OR_RETURN(report.firstSlice, Volume::create(1, slab.dim(1), slab.dim(2)));
    std::memcpy(report.firstSlice.data(), slab.data(), slab.dim(1) * slab.pitch() * sizeof(float));
    if (!reference || reference->empty() || reference->dim(1) != slab.dim(1) ||
        reference->dim(2) != slab.dim(2))
        return Status::ok();
    Result<double> range = dataRange(reference->plane(0));
    if (!range) range = dataRange(reference->rows());
    if (!range) {
        report.notes.emplace_back("the reference is constant: no error metrics");
        return Status::ok();
    }
    TOMO_ASSIGN_OR_RETURN(report.metrics,
                          compareImages(slab.plane(0), reference->plane(0), *range));
    return Status::ok();
}

}  // namespace

SlabOutput::SlabOutput() : m_state(std::make_unique<State>()) {}
SlabOutput::SlabOutput(SlabOutput&&) noexcept = default;
SlabOutput& SlabOutput::operator=(SlabOutput&&) noexcept = default;
SlabOutput::~SlabOutput() = default;

Result<SlabOutput> SlabOutput::open(const ReconRequest& request, const Resolved& resolved,
                                    ReconReport& report, bool sharedPlanes) {
    WriteOptions options = writeOptions(request, resolved);
    options.sharedPlanes = sharedPlanes;
    return open(Spec{request.output.path, report.shape, std::move(options), request.reference,
                     request.memoryBudget},
                report);
}

Result<SlabOutput> SlabOutput::open(const Spec& spec, ReconReport& report) {
    SlabOutput out;
    State& s = *out.m_state;
    s.shape = spec.shape;
    s.path = spec.path;
    s.reference = spec.reference;
    s.report = &report;
    s.options = spec.options;
    report.provenance = s.options.provenance;
    if (!s.path.empty()) {
        TOMO_ASSIGN_OR_RETURN(FormatRegistry formats, makeFormatRegistry());
        TOMO_ASSIGN_OR_RETURN(const FileFormat* format, formats.forPath(s.path));
        if (format->openVolumeWriter) {
            TOMO_ASSIGN_OR_RETURN(s.writer, formats.openVolumeWriter(s.path, s.shape, s.options));
            report.streamed = true;
            return out;
        }
        if (!format->writeVolume)
            return unsupported(s.path.string() + ": format " + format->name + " cannot be written");
        const double mib = double(s.shape[0]) * s.shape[1] * s.shape[2] * 4 / (1 << 20);
        if (mib * (1 << 20) > double(spec.memoryBudget))
            report.notes.push_back(
                format->name + " files are written whole: the " + std::to_string(std::lround(mib)) +
                " MiB volume is held in memory (stream with .raw, .tif, .h5 or a TIFF folder)");
    }
    return out;  // the volume is held: allocated on the first slab (ensureWhole)
}

Status SlabOutput::put(std::size_t first, Volume&& slab) {
    State& s = *m_state;
    if (slab.dim(1) != s.shape[1] || slab.dim(2) != s.shape[2] || first > s.shape[0] ||
        slab.dim(0) > s.shape[0] - first)
        return internalError("reconstruction slab of the wrong shape");
    if (first == 0 && slab.dim(0) > 0)
        TOMO_RETURN_IF_ERROR(keepFirstSlice(slab, s.reference.get(), *s.report));
    if (s.writer) return s.writer->writeSlab(first, slab);
    if (first == 0 && slab.dim(0) == s.shape[0]) {
        s.whole = std::move(slab);  // one slab: no copy
        s.written.assign(s.shape[0], 1);
        return Status::ok();
    }
    TOMO_RETURN_IF_ERROR(ensureWhole(s));
    const std::size_t ny = s.shape[1];
    storeRows(slab.data(), slab.pitch(), first * ny, slab.dim(0) * ny, s.whole, 0);
    std::fill(s.written.begin() + std::ptrdiff_t(first),
              s.written.begin() + std::ptrdiff_t(first + slab.dim(0)), 1);
    return Status::ok();
}

Status SlabOutput::zeros(std::size_t first, std::size_t count) {
    State& s = *m_state;
    if (!s.writer) return ensureWhole(s);  // zeroed at commit(), unless a slab comes
    // One block of zero planes, zeroed once on several threads (storeRows: the pages' first
    // touch) and written as often as needed; a shorter last block the same way.
    constexpr std::size_t kPlanesPerWrite = 16;
    const std::size_t ny = s.shape[1], nx = s.shape[2];
    auto zeroBlock = [&](std::size_t planes) -> Result<Volume> {
        TOMO_ASSIGN_OR_RETURN(Volume zero, Volume::createUninitialised(planes, ny, nx));
        storeRows(nullptr, 0, 0, planes * ny, zero, 0);
        return zero;
    };
    const std::size_t whole = count / kPlanesPerWrite * kPlanesPerWrite;
    if (whole > 0) {
        TOMO_ASSIGN_OR_RETURN(const Volume zero, zeroBlock(kPlanesPerWrite));
        for (std::size_t z = first; z < first + whole; z += kPlanesPerWrite)
            TOMO_RETURN_IF_ERROR(s.writer->writeSlab(z, zero));
    }
    if (whole == count) return Status::ok();
    TOMO_ASSIGN_OR_RETURN(const Volume rest, zeroBlock(count - whole));
    return s.writer->writeSlab(first + whole, rest);
}

std::optional<PlaneFileLayout> SlabOutput::planeLayout() const {
    return m_state->writer ? m_state->writer->planeLayout() : std::nullopt;
}

Status SlabOutput::writtenElsewhere(std::size_t first, std::size_t count) {
    if (!m_state->writer) return internalError("planes written elsewhere into a held volume");
    return m_state->writer->writtenElsewhere(first, count);
}

Status SlabOutput::commit(ReconReport& report) {
    State& s = *m_state;
    if (s.writer) return s.writer->commit();
    TOMO_RETURN_IF_ERROR(ensureWhole(s));
    zeroUnwrittenPlanes(s);
    if (s.path.empty()) {
        report.image = std::move(s.whole);
        return Status::ok();
    }
    TOMO_ASSIGN_OR_RETURN(FormatRegistry formats, makeFormatRegistry());
    return formats.writeVolume(s.path, s.whole, s.options);
}

}  // namespace tomo::app::detail
