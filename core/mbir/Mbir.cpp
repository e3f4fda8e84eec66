#include "core/mbir/Mbir.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>
#include <memory>
#include <optional>

#include "core/mbir/MbirDeviceSolve.h"
#include "core/solvers/SolverSupport.h"

namespace tomo {
namespace {

/// [slice][y][x] (padded rows) -> [y][x][slice].
std::vector<float> toLines(const Volume& v) {
    const std::size_t nz = v.dim(0), ny = v.dim(1), nx = v.dim(2);
    std::vector<float> out(nz * ny * nx);
    for (std::size_t z = 0; z < nz; ++z)
        for (std::size_t iy = 0; iy < ny; ++iy) {
            auto row = v.row(z, iy);
            for (std::size_t ix = 0; ix < nx; ++ix)
                out[(iy * nx + ix) * nz + z] = row[ix];
        }
    return out;
}

std::vector<float> flatten(const Volume& v) {
    std::vector<float> out;
    out.reserve(v.elementCount());
    for (std::size_t r = 0; r < v.dim(0) * v.dim(1); ++r)
        for (float value : v.rows().row(r))
            out.push_back(value);
    return out;
}

/// @p x ([y][x][slice]) as a volume [slice][y][x] of @p vol's shape.
Result<Volume> planesOf(const std::vector<float>& x, const VolumeGeometry& vol) {
    const std::size_t nz = std::size_t(vol.nz), ny = std::size_t(vol.ny), nx = std::size_t(vol.nx);
    TOMO_ASSIGN_OR_RETURN(Volume out, Volume::create(nz, ny, nx));
    std::vector<float> flat;
    mbirTranspose(x, nz, flat);
    for (std::size_t r = 0; r < nz * ny; ++r)
        std::copy_n(flat.data() + r * nx, nx, out.rows().row(r).data());
    return out;
}

Status checkShape(const Volume& v, const VolumeGeometry& vol, const char* what) {
    if (v.dim(0) == std::size_t(vol.nz) && v.dim(1) == std::size_t(vol.ny) &&
        v.dim(2) == std::size_t(vol.nx))
        return Status::ok();
    return invalidArgument(std::string(what) + " does not match the grid");
}

Result<std::shared_ptr<const MbirMatrix>> matrixFor(const MbirSliceGeometry& g,
                                                    const MbirOptions& options,
                                                    MbirMatrixCache* cache, MbirReport& report,
                                                    const ExecContext& ctx) {
    const auto start = std::chrono::steady_clock::now();
    std::string note;
    std::shared_ptr<const MbirMatrix> matrix;
    if (cache) {
        TOMO_ASSIGN_OR_RETURN(matrix, cache->get(g, options.entries, options.memoryBudget, ctx,
                                                 &report.matrixSource, &note));
    } else {
        MbirMatrixCache local;  // the budget check, without keeping the matrix
        TOMO_ASSIGN_OR_RETURN(matrix, local.get(g, options.entries, options.memoryBudget, ctx,
                                                &report.matrixSource, &note));
    }
    report.matrixSeconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    report.matrixBytes = matrix->bytes();
    report.notes.push_back(
        "system matrix (" +
        std::string(options.entries == MbirEntryType::Uint8 ? "8-bit" : "float") + ", " +
        std::to_string(report.matrixBytes >> 20) +
        " MiB): " + mbirMatrixSourceName(report.matrixSource));
    if (!note.empty()) report.notes.push_back(note);
    return matrix;
}

IcdSettings icdSettings(const MbirSliceGeometry& g, const MbirMatrix& matrix, const Qggmrf& prior,
                        const MbirOptions& options, double sigmaY, int nz) {
    IcdSettings settings;
    settings.geometry = &g;
    settings.matrix = &matrix;
    settings.prior = &prior;
    settings.weights = neighbourWeights(nz);
    settings.invSigmaY2 = 1.0 / (sigmaY * sigmaY);
    settings.positivity = options.model.positivity;
    settings.zeroSkip = options.zeroSkip;
    settings.innerSteps = options.innerSteps;
    settings.nz = nz;
    settings.avx2 = options.vectorised && icdAvx2Available();
    return settings;
}

/// One pass of the schedule: PSV-ICD on the CPU, or GPU-ICD on a device.
using PassFn = std::function<Status(int pass, const ExecContext&, PsvIterationStats&)>;

/// One reported iteration: passes of the schedule until they have visited as many voxels as the
/// image has (the first pass, or five of 20%), so that the cost comes once per equit and its
/// evaluation stays a small part of the work.
Status runPasses(const PassFn& onePass, const ExecContext& ctx, double voxels, int& pass,
                 PsvIterationStats& stats) {
    double visited = 0;
    while (visited < 0.999 * voxels) {
        PsvIterationStats one;
        TOMO_RETURN_IF_ERROR(onePass(++pass, ctx, one));
        if (one.visited == 0) break;  // nothing left to visit
        stats.updates += one.updates;
        stats.moved += one.moved;
        visited += double(one.visited);
    }
    return Status::ok();
}

/// The stop rule's relative update: 100 x mean |delta| over the iteration's updates / the mean
/// |value| (0 without either).
double relativeUpdate(const PsvIterationStats& stats, double meanValue) {
    const double meanUpdate = stats.updates ? stats.moved / double(stats.updates) : 0.0;
    return meanValue > 0 ? 100.0 * meanUpdate / meanValue : 0.0;
}

/// The relative-update rule (percent of the mean value) or the golden image's HU rule.
bool converged(const MbirOptions& options, const PsvIterationStats& stats, double meanValue,
               const IterationInfo& last) {
    const bool settled = options.stopThreshold > 0 && meanValue > 0 &&
                         relativeUpdate(stats, meanValue) < options.stopThreshold;
    const bool golden =
        options.stopHu > 0 && last.error && 1000.0 * *last.error / options.muWater < options.stopHu;
    return settled || golden;
}

/// The solve's iterations until the budget, the stop rules or the callback end them: passes on
/// the device (its spans on @p timeline) or PSV-ICD's on the host (Kernels on the host's clock),
/// then the iteration's numbers on the host (Host).
Status runIterations(const MbirOptions& options, IcdSettings& settings, const PassFn& onePass,
                     MbirDeviceSolve* gpu, std::vector<float>& x, MbirSinograms& sino,
                     const Qggmrf& prior, const VolumeGeometry& vol, IterationMonitor& monitor,
                     SolverSummary& summary, MbirReport& report, Timeline& timeline) {
    const int nx = vol.nx, ny = vol.ny, nz = vol.nz;
    const double voxels = double(nx) * ny * nz;
    std::vector<float> flat;
    int pass = 0, completed = 0;
    for (;;) {
        PsvIterationStats stats;
        double t0 = timelineNow();
        Status status = runPasses(onePass, monitor.inner(), voxels, pass, stats);
        if (status && gpu) status = gpu->read(x, sino);
        if (!gpu) timeline.add(TimelineStage::Kernels, t0, timelineNow());
        if (!status) return monitor.fail(status);
        t0 = timelineNow();
        report.equits += double(stats.updates) / voxels;
        double weighted = 0, plain = 0, sumAbs = 0, sumSq = 0;
        sino.misfit(weighted, plain);
        for (float value : x) {
            sumAbs += std::fabs(value);
            sumSq += double(value) * value;
        }
        const double priorCost = mbirPriorCost(x, nx, ny, nz, prior, monitor.inner());
        monitor.setNextExtras(0.5 * weighted * settings.invSigmaY2 + priorCost, report.equits);
        mbirTranspose(x, std::size_t(nz), flat);
        report.relativeUpdates.push_back(relativeUpdate(stats, sumAbs / voxels));
        const bool more =
            monitor.afterIteration(std::sqrt(plain), std::sqrt(sumSq), priorCost, flat);
        addHostStep(report.hostSteps, &timeline, "iteration numbers", t0, timelineNow());
        if (!more) break;
        settings.zeroSkip = options.zeroSkip;
        if (++completed >= options.minIterations &&
            converged(options, stats, sumAbs / voxels, summary.history.back())) {
            summary.reason = TerminationReason::Converged;
            break;
        }
    }
    return Status::ok();
}

}  // namespace

Status MbirOptions::validate() const {
    if (iterations < 1) return invalidArgument("iterations: at least 1");
    if (!(stopThreshold >= 0)) return invalidArgument("stop_threshold: must be >= 0");
    if (!(stopHu >= 0)) return invalidArgument("stop_hu: must be >= 0");
    if (!(muWater > 0)) return invalidArgument("mu_water: must be > 0");
    if (innerSteps < 1) return invalidArgument("inner steps: at least 1");
    if (psv.side < 1 || psv.batch < 1) return invalidArgument("sv_side and batch: at least 1");
    if (!(psv.fraction > 0 && psv.fraction <= 1))
        return invalidArgument("fraction: must be in (0, 1]");
    return Status::ok();
}

Status solveMbir(const Sinograms& y, const ParallelGeometry& geom, const VolumeGeometry& vol,
                 const MbirOptions& options, const Volume* initial, const Volume* reference,
                 const IterationCallback& onIteration, Volume& out, SolverSummary& summary,
                 MbirReport& report, const ExecContext& ctx, MbirMatrixCache* cache,
                 const std::function<void(const std::string&)>& onNote) {
    TOMO_RETURN_IF_ERROR(options.validate());
    TOMO_RETURN_IF_ERROR(vol.validate());
    if (y.dim(0) != std::size_t(vol.nz))
        return invalidArgument("MBIR: " + std::to_string(y.dim(0)) + " sinograms for " +
                               std::to_string(vol.nz) + " slices");
    if (initial) TOMO_RETURN_IF_ERROR(checkShape(*initial, vol, "MBIR: the initial image"));
    if (reference) TOMO_RETURN_IF_ERROR(checkShape(*reference, vol, "MBIR: the reference"));
    report = {};
    Timeline timeline;  // before the device: its spans come in while it lives
    const double started = timelineNow();
    Progress buildScope, solveScope;
    ExecContext buildCtx = ctx, solveCtx = ctx;
    if (ctx.progress) {
        buildScope = ctx.progress->child(0.0, 0.2, "MBIR: system matrix");
        solveScope = ctx.progress->child(0.2, 1.0, "");
        buildCtx.progress = &buildScope;
        solveCtx.progress = &solveScope;
    }
    const MbirSliceGeometry g(geom, vol);
    std::future<MbirFoundLayout> layoutAside =
        findMbirLayoutAside(g, options, cache, timeline, ctx.threads);
    double hostStart = timelineNow();
    TOMO_ASSIGN_OR_RETURN(auto matrix, matrixFor(g, options, cache, report, buildCtx));
    addHostStep(report.hostSteps, &timeline, "matrix", hostStart, hostStart + report.matrixSeconds);
    hostStart = timelineNow();
    TOMO_ASSIGN_OR_RETURN(MbirSinograms sino, MbirSinograms::create(y, g, options.model));
    report.sigmas =
        sino.sigmas(options.model, g, vol.voxelSize, geom.detectorPitch(), sinogramLayout(geom));
    addHostStep(report.hostSteps, &timeline, "sinograms and sigmas", hostStart, timelineNow());
    hostStart = timelineNow();
    report.notes.push_back(report.sigmas.sigmaYNote);
    report.notes.push_back(report.sigmas.sigmaXNote);
    if (onNote)
        for (const std::string& text : report.notes)
            onNote(text);
    QggmrfParams priorParams = options.model.prior;
    priorParams.sigmaX = report.sigmas.sigmaX;
    TOMO_RETURN_IF_ERROR(priorParams.validate());
    const Qggmrf prior(priorParams);

    const int nx = vol.nx, ny = vol.ny, nz = vol.nz;
    std::vector<float> x =
        initial ? toLines(*initial) : std::vector<float>(std::size_t(nx) * ny * nz, 0.f);
    if (options.model.positivity)
        for (float& value : x)
            value = std::max(value, 0.f);
    TOMO_RETURN_IF_ERROR(mbirSubtractProjection(g, *matrix, x, sino, ctx));
    addHostStep(report.hostSteps, &timeline, "start projection", hostStart, timelineNow());

    // Zero skipping waits for the second iteration: from a start with zeros (init=zero, or a
    // clamped FBP's negative patches) the first must be free to move every voxel.
    IcdSettings settings = icdSettings(g, *matrix, prior, options, report.sigmas.sigmaY, nz);
    settings.zeroSkip = false;
    std::optional<SuperVoxelPlan> plan;    // PSV-ICD on the CPU, or
    std::unique_ptr<MbirDeviceSolve> gpu;  // GPU-ICD on a device
    if (options.device) {
        const std::size_t noted = report.notes.size();
        TOMO_ASSIGN_OR_RETURN(gpu, startMbirDevice(g, *matrix, options, settings, x, sino, cache,
                                                   layoutAside, report, timeline, ctx));
        for (std::size_t n = noted; onNote && n < report.notes.size(); ++n)
            onNote(report.notes[n]);
    } else {
        plan.emplace(g, options.psv);
    }
    const PassFn onePass = [&](int pass, const ExecContext& c, PsvIterationStats& s) {
        return gpu ? gpu->plan->iterate(pass, c, s, settings.zeroSkip)
                   : plan->iterate(pass, settings, x, sino, c, s);
    };

    const std::vector<float> truth = reference ? flatten(*reference) : std::vector<float>{};
    SolverOptions so;  // its reference is a view of truth
    so.iterations = options.iterations;
    so.reference = truth;
    so.shape = {std::size_t(nz), std::size_t(ny), std::size_t(nx)};
    IterationMonitor monitor("mbir", so, onIteration, summary, solveCtx);
    TOMO_RETURN_IF_ERROR(runIterations(options, settings, onePass, gpu.get(), x, sino, prior, vol,
                                       monitor, summary, report, timeline));
    TOMO_RETURN_IF_ERROR(monitor.finish());
    const double outStart = timelineNow();
    TOMO_ASSIGN_OR_RETURN(out, planesOf(x, vol));
    const double ended = timelineNow();
    addHostStep(report.hostSteps, &timeline, "output", outStart, ended);
    timeline.setWall(ended - started);
    report.timeline = timeline.report();
    return Status::ok();
}

}  // namespace tomo
