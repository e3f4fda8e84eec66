#include "core/iterative/IterativeReconstruction.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <vector>

#include "core/iterative/MbirReconstruction.h"
#include "core/iterative/WarmStart.h"
#include "core/locality/JosephOperator.h"
#include "core/locality/LocalityOperator.h"
#include "core/memxct/MemxctOperator.h"
#include "core/solvers/Cgls.h"
#include "core/solvers/Sirt.h"
#include "core/solvers/TotalVariation.h"

namespace tomo {
namespace {

/// Copies the logical elements of a padded array into a dense vector.
std::vector<float> toDense(const Array3<float>& a) {
    std::vector<float> out(a.elementCount());
    const std::size_t n2 = a.dim(2);
    for (std::size_t r = 0; r < a.dim(0) * a.dim(1); ++r)
        std::memcpy(out.data() + r * n2, a.rows().row(r).data(), n2 * sizeof(float));
    return out;
}

void fromDense(std::span<const float> v, Array3<float>& a) {
    const std::size_t n2 = a.dim(2);
    for (std::size_t r = 0; r < a.dim(0) * a.dim(1); ++r)
        std::memcpy(a.rows().row(r).data(), v.data() + r * n2, n2 * sizeof(float));
}

Status checkVolumeShape(const Volume& v, const VolumeGeometry& vol, const char* what) {
    if (v.dim(0) != std::size_t(vol.nz) || v.dim(1) != std::size_t(vol.ny) ||
        v.dim(2) != std::size_t(vol.nx))
        return invalidArgument(std::string(what) + ": " + std::to_string(v.dim(0)) + "x" +
                               std::to_string(v.dim(1)) + "x" + std::to_string(v.dim(2)) +
                               " does not match the grid " + std::to_string(vol.nz) + "x" +
                               std::to_string(vol.ny) + "x" + std::to_string(vol.nx));
    return Status::ok();
}

/// The operator an algorithm runs on: the locality pair for the SIRT family unless the
/// matched pair is asked for, the matched pair for CGLS and TV.
Result<std::unique_ptr<SubsetOperator>> makeOperator(const AlgorithmSpec& spec,
                                                     const ParameterValues& params,
                                                     const ParallelGeometry& geom,
                                                     const VolumeGeometry& vol) {
    if (usesLocalityPair(params)) {
        TOMO_ASSIGN_OR_RETURN(RayOrdering ordering, parseRayOrdering(params.text("ordering")));
        TOMO_ASSIGN_OR_RETURN(auto op, LocalityOperator::create(geom, vol, ordering));
        return std::unique_ptr<SubsetOperator>(std::move(op));
    }
    (void)spec;
    TOMO_ASSIGN_OR_RETURN(auto op, JosephOperator::create(geom, vol));
    return std::unique_ptr<SubsetOperator>(std::move(op));
}

/// TV's data-driven settings (docs/accuracy.md, "Fourth round" and "Fifth round"), from the data's
/// noise level sigma (estimateSinogramNoise) and their 99th percentile q99:
/// - the noise level used is sigma_eff = max(sigma, q99 / 250): the consistency estimate sees
///   only noise that no object could have made, not the model error of data made elsewhere
///   (exact line integrals of smooth-edged objects against our pixels and interpolating
///   projector), which a noise-free scan still has. Without the floor the automatic lambda of a
///   noise-free scan was near 0 and TV converged to an image above FBP's error (discs at 180
///   views: 0.0225 against FBP's 0.0114 and its own iterate 19's 0.0062). The floor is an SNR of
///   250 (48 dB); in the study it also raises the noise level of the scans at 1e5-1e6 counts
///   (their SNR 280-1700).
/// - lambda (when the parameter is 0) = sigma_eff sqrt(angles) sqrt(n / 128), n the image side in
///   pixels (sqrt(nx ny)). The data term grows like angles n^3 (rays per view x path length^2),
///   TV like n, and the noise term like sigma sqrt(angles n^3), so the weight that balances a
///   fixed relative noise grows like sigma sqrt(angles n). sigma sqrt(angles) alone was
///   calibrated at 128^2 (DefaultsTest) and was too small at 256^2 and 512^2 (the analytic
///   Shepp-Logan at 180 views rose from 0.0121 at iteration 43 to 0.0141; twice lambda at 128^2
///   made its Shepp-Logan 43% worse).
/// - the step balance g (TvOptions::stepBalance) = 0.05 sqrt(snr / 300) in [0.01, 0.05] with
///   snr = q99 / sigma_eff: at low snr the TV term dominates and larger dual steps (smaller g)
///   converge faster (1e3-count Shepp-Logan at 150 iterations: 1.05x -> 1.03x its converged
///   error; the 512^2 discs at 1e4: 1.10x -> 1.01x). Above 0.05 (tried up to 0.25) noise-free
///   scans at 180-720 views got worse.
struct TvSettings {
    double lambda = 0, balance = 0.05;
};

TvSettings automaticTvSettings(std::span<const float> b, const ParallelGeometry& geom,
                               const VolumeGeometry& vol, const ExecContext& ctx) {
    constexpr double kSnrCap = 250, kReferenceSide = 128;
    // Every rank's data count (ctx.across): the same settings on every rank as in one process.
    const NoiseLevel level = flooredSinogramNoise(b, sinogramLayout(geom), kSnrCap, ctx);
    const double q99 = level.q99, sigma = level.sigma();
    TvSettings out;
    if (!(sigma > 0)) {
        out.lambda = 1e-3;  // all-zero data: any small weight
        return out;
    }
    const double side = std::sqrt(double(vol.nx) * double(vol.ny));
    out.lambda = sigma * std::sqrt(double(geom.angleCount()) * side / kReferenceSide);
    out.balance = std::clamp(0.05 * std::sqrt(q99 / sigma / 300.0), 0.01, 0.05);
    return out;
}

}  // namespace

bool usesLocalityPair(const ParameterValues& params) {
    return params.text("projector") == "locality";
}

Result<StopOptions> stopOptionsFor(const ParameterValues& params, const ParallelGeometry& geom) {
    StopOptions stop;
    if (!params.text("stop").empty()) {
        TOMO_ASSIGN_OR_RETURN(stop.rule, parseStopRule(params.text("stop")));
        stop.relativeChange = params.real("stop-tol");
        stop.noiseSigma = params.real("noise-sigma");
        stop.tau = params.real("stop-tau");
        stop.patience = params.integer("stop-patience");
    }
    stop.layout = sinogramLayout(geom);
    return stop;
}

Status reconstructIterative(const Sinograms& sino, const ParallelGeometry& geom,
                            const VolumeGeometry& vol, const IterativeRequest& request,
                            const IterationCallback& onIteration, Volume& out,
                            SolverSummary& summary, const ExecContext& ctx) {
    TOMO_ASSIGN_OR_RETURN(AlgorithmSpec spec, findAlgorithm(request.algorithm));
    if (!spec.iterative)
        return invalidArgument("algorithm '" + spec.id + "' is not iterative (use reconstructFbp)");
    TOMO_RETURN_IF_ERROR(vol.validate());
    if (sino.dim(0) != std::size_t(vol.nz) || sino.dim(1) != std::size_t(geom.angleCount()) ||
        sino.dim(2) != std::size_t(geom.detectorCount()))
        return invalidArgument("sinograms " + std::to_string(sino.dim(0)) + "x" +
                               std::to_string(sino.dim(1)) + "x" + std::to_string(sino.dim(2)) +
                               " do not match " + std::to_string(vol.nz) + " slices of " +
                               std::to_string(geom.angleCount()) + " angles x " +
                               std::to_string(geom.detectorCount()) + " detectors");
    if (request.reference)
        TOMO_RETURN_IF_ERROR(checkVolumeShape(*request.reference, vol, "reference"));
    if (request.initial)
        TOMO_RETURN_IF_ERROR(checkVolumeShape(*request.initial, vol, "initial image"));
    // Resolving the stored values again checks them against this spec and fills defaults.
    TOMO_ASSIGN_OR_RETURN(ParameterValues params,
                          ParameterValues::resolve(spec, request.parameters.all()));

    if (spec.id == "mbir")
        return reconstructMbir(sino, geom, vol, request, params, onIteration, out, summary, ctx);
    std::unique_ptr<SubsetOperator> op;
    std::unique_ptr<MemxctOperator> memxct;
    // MemXCT: the first part of the progress is the matrix build (seconds on large grids, and
    // the phase a cancel most often lands in), the rest the iterations.
    constexpr double kMemxctBuildShare = 0.3;
    Progress buildScope, solveScope;
    ExecContext solveCtx = ctx;
    if (spec.id == "memxct") {
        // One system matrix for the slice geometry, applied to every slice of the stack.
        MemxctOptions mo;
        TOMO_ASSIGN_OR_RETURN(mo.kernel, parseMemxctKernel(params.text("kernel")));
        mo.tileSize = params.integer("tile");
        mo.circleMask = params.boolean("circle-mask");
        ExecContext build = ctx;
        if (ctx.progress) {
            buildScope = ctx.progress->child(0.0, kMemxctBuildShare, "");
            solveScope = ctx.progress->child(kMemxctBuildShare, 1.0, "");
            build.progress = &buildScope;
            solveCtx.progress = &solveScope;
        }
        TOMO_ASSIGN_OR_RETURN(memxct, MemxctOperator::create(geom, vol, mo, build));
    } else if (request.makeOperator && usesLocalityPair(params)) {
        TOMO_ASSIGN_OR_RETURN(op, request.makeOperator(geom, vol, params));
    } else {
        TOMO_ASSIGN_OR_RETURN(op, makeOperator(spec, params, geom, vol));
    }
    const std::vector<float> b = toDense(sino);
    Volume warm;
    const Volume* initial = request.initial;
    const bool takesInit = std::any_of(spec.parameters.begin(), spec.parameters.end(),
                                       [](const ParameterSpec& p) { return p.name == "init"; });
    if (!initial && takesInit && params.text("init") == "fbp") {
        TOMO_ASSIGN_OR_RETURN(warm, fbpStart(sino, geom, vol, ctx));
        initial = &warm;
    }
    std::vector<float> x =
        initial ? toDense(*initial)
                : std::vector<float>(memxct ? memxct->domainSize() : op->domainSize(), 0.f);
    const std::vector<float> reference =
        request.reference ? toDense(*request.reference) : std::vector<float>{};

    TOMO_ASSIGN_OR_RETURN(const StopOptions stop, stopOptionsFor(params, geom));
    auto fillCommon = [&](SolverOptions& o) {
        o.stop = stop;
        o.iterations = params.integer("iterations");
        o.tolerance = params.real("tolerance");
        o.reference = reference;
        o.shape = {std::size_t(vol.nz), std::size_t(vol.ny), std::size_t(vol.nx)};
    };

    Status status;
    if (spec.id == "sirt" || spec.id == "os-sirt" || spec.id == "sart") {
        SirtOptions o;
        fillCommon(o);
        o.relaxation = params.real("relaxation");
        if (spec.id == "sart" && o.relaxation == 0) {
            o.relaxation = std::min(0.5, 10.0 / op->angleCount());
            char text[96];
            std::snprintf(text, sizeof(text), "SART relaxation %.3g = min(0.5, 10 / %d angles)",
                          o.relaxation, op->angleCount());
            if (request.onNote) request.onNote(text);
        }
        o.nonNegative = params.boolean("nonnegative");
        if (spec.id == "sirt") {
            status = solveSirt(*op, b, x, o, onIteration, summary, solveCtx);
        } else {
            o.subsets = spec.id == "sart" ? op->angleCount() : params.integer("subsets");
            o.afterSubset = request.afterSubset;
            status = solveOsSirt(*op, b, x, o, onIteration, summary, solveCtx);
        }
    } else if (spec.id == "cgls" || spec.id == "memxct") {
        CglsOptions o;
        fillCommon(o);
        o.lambda = params.real("lambda");
        LinearOperator& a = memxct ? static_cast<LinearOperator&>(*memxct) : *op;
        status = solveCgls(a, b, x, o, onIteration, summary, solveCtx);
        summary.algorithm = spec.id;
    } else if (spec.id == "tv") {
        TvOptions o;
        fillCommon(o);
        if (params.real("lambda") > 0) {
            o.lambda = params.real("lambda");
        } else {
            const TvSettings automatic = automaticTvSettings(b, geom, vol, solveCtx);
            o.lambda = automatic.lambda;
            o.stepBalance = automatic.balance;
        }
        o.nonNegative = params.boolean("nonnegative");
        status = solveTv(*op, b, x, o, onIteration, summary, solveCtx);
        summary.stopNote += (summary.stopNote.empty() ? "" : "; ") + std::string("TV lambda ") +
                            (params.real("lambda") > 0 ? "" : "(automatic) ") +
                            std::to_string(o.lambda) + ", step balance " +
                            std::to_string(o.stepBalance);
    } else {
        return unsupported("algorithm '" + spec.id + "' has no solver in this build");
    }
    if (!status) return status;
    TOMO_ASSIGN_OR_RETURN(
        out, Volume::create(std::size_t(vol.nz), std::size_t(vol.ny), std::size_t(vol.nx)));
    fromDense(x, out);
    return Status::ok();
}

Result<std::vector<LCurvePoint>> sweepRegularization(
    const Sinograms& sino, const ParallelGeometry& geom, const VolumeGeometry& vol,
    const IterativeRequest& request, std::span<const double> lambdas, const ExecContext& ctx) {
    TOMO_ASSIGN_OR_RETURN(AlgorithmSpec spec, findAlgorithm(request.algorithm));
    bool hasLambda = false;
    for (const ParameterSpec& p : spec.parameters)
        hasLambda = hasLambda || p.name == "lambda";
    if (!hasLambda) return invalidArgument("algorithm '" + spec.id + "' has no lambda to sweep");
    if (lambdas.empty()) return invalidArgument("lambda sweep: no values");
    if (ctx.progress) ctx.progress->setTotal(lambdas.size());
    ExecContext inner = ctx;
    inner.progress = nullptr;
    const VolumeShape shape{std::size_t(vol.nz), std::size_t(vol.ny), std::size_t(vol.nx)};
    std::vector<LCurvePoint> points;
    for (double lambda : lambdas) {
        std::map<std::string, std::string> given = request.parameters.all();
        given["lambda"] = std::to_string(lambda);
        given["stop"] = "none";  // each point is the lambda's solution, not an early stop
        IterativeRequest r = request;
        TOMO_ASSIGN_OR_RETURN(r.parameters, ParameterValues::resolve(spec, given));
        Volume out;
        SolverSummary summary;
        TOMO_RETURN_IF_ERROR(reconstructIterative(sino, geom, vol, r, {}, out, summary, inner));
        if (summary.history.empty()) return internalError("lambda sweep: no iteration ran");
        const IterationInfo& last = summary.history.back();
        LCurvePoint point;
        point.parameter = lambda;
        point.residualNorm = last.residualNorm;
        point.solutionNorm =
            spec.id == "tv" ? totalVariation(toDense(out), shape, inner) : last.solutionNorm;
        point.error = last.error;
        points.push_back(point);
        if (ctx.progress) ctx.progress->advance();
    }
    return points;
}

}  // namespace tomo
