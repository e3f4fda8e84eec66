// tomo_cuda_selfcheck: every CUDA variant against the CPU FBP at full size (default 2048
// projections x 2048^2 x 4 slices), without GoogleTest, for a bare CUDA machine
// (scripts/gpu-check selfcheck runs one process per family). Per variant:
//  1. back-projection of the CPU-filtered stack with forced bands and angle chunks (both
//     streams, both buffer sets, partial last chunk);
//  2. FBP of the raw stack: core's reconstructFbp with the cuFFT row-filter stage
//     (CudaRowFilter.h) and the variant;
// each compared on the reference windows (CheckProblem.h) with the family's bound
// (CheckTolerance.h). A verdict line per variant as it finishes, the table last. A device
// fault that leaves the CUDA context unusable (a sticky error) is reported under the variant
// that caused it; the family's remaining variants are listed as NOT RUN, to be rerun in a
// fresh process. --bench: timings instead (SelfCheckBench.cpp).
// Exit status: 0 all passed, 1 a variant failed or was not run, 2 no CUDA device, 3 usage.
#include <cuda_runtime_api.h>

#include <cstdio>
#include <fstream>

#include "core/projectors/CpuBackProjectors.h"
#include "core/recon/Fbp.h"
#include "gpu/cuda/CudaBackProjectors.h"
#include "gpu/cuda/CudaRowFilter.h"
#include "gpu/cuda/internal/CudaBackProjector.h"
#include "gpu/cuda/selfcheck/CheckTolerance.h"
#include "gpu/cuda/selfcheck/SelfCheckOptions.h"

namespace tomo::cuda {

int runBench(const SelfCheckOptions& options);  // SelfCheckBench.cpp

namespace {

struct CheckRow {
    BackProjectorInfo info;
    ToleranceKind kind = ToleranceKind::ExactLinear;
    Verdict bp, fbp;
    std::string status = "PASS";  ///< PASS, FAIL: ..., ERROR: ..., NOT RUN: ...
};

/// The problem, its per-slice bounds and the references (made on first use per interpolation).
struct Checker {
    const SelfCheckOptions& options;
    const BackProjectorRegistry& registry;
    CheckProblem problem;
    SliceMagnitudes magnitudes;
    double coordError = 0;
    std::vector<Volume> reference[2];  // linear, nearest

    Result<const std::vector<Volume>*> referenceFor(Interpolation i) {
        std::vector<Volume>& r = reference[i == Interpolation::Linear ? 0 : 1];
        if (r.empty()) {
            TOMO_ASSIGN_OR_RETURN(auto bp,
                                  registry.make(i == Interpolation::Linear ? "cpu.reference.lin"
                                                                           : "cpu.reference.nn"));
            TOMO_ASSIGN_OR_RETURN(r, problem.reference(*bp, {}));
        }
        return &r;
    }
    std::vector<double> bounds(ToleranceKind kind) const {
        std::vector<double> b;
        for (std::size_t s = 0; s < magnitudes.absSum.size(); ++s)
            b.push_back(errorBound(kind, magnitudes.absSum[s], magnitudes.diffSum[s],
                                   magnitudes.weightSum[s], coordError));
        return b;
    }
};

Status checkOne(Checker& c, BackProjector& bp, BackProjector* forFbp, CheckRow& row) {
    TOMO_ASSIGN_OR_RETURN(const std::vector<Volume>* ref, c.referenceFor(row.info.interpolation));
    const std::vector<double> bounds = c.bounds(row.kind);
    const CheckProblem& p = c.problem;
    Volume out;
    TOMO_RETURN_IF_ERROR(bp.backProject(p.filtered(), p.geometry(), p.grid(), p.weights(), out, {})
                             .withContext("back-projection"));
    row.bp = judge(row.kind, out, *ref, p.windowBegins(), bounds);
    if (!row.bp.pass) row.status = "FAIL (back-projection): " + row.bp.reason;
    if (!c.options.fbp) return Status::ok();
    FbpOptions options;
    BackProjector* fbpBackProjector = &bp;  // --cpu-candidate: the CPU filter with the candidate
    if (auto* cuda = dynamic_cast<CudaBackProjector*>(forFbp)) {
        TOMO_ASSIGN_OR_RETURN(options.rowFilter, makeCufftRowFilter(cuda->context()));
        fbpBackProjector = forFbp;
    }
    TOMO_RETURN_IF_ERROR(
        tomo::reconstructFbp(p.raw(), p.geometry(), p.grid(), *fbpBackProjector, options, out, {})
            .withContext("FBP"));
    row.fbp = judge(row.kind, out, *ref, p.windowBegins(), bounds);
    if (!row.fbp.pass && row.status == "PASS") row.status = "FAIL (FBP): " + row.fbp.reason;
    return Status::ok();
}

void printVerdict(const CheckRow& r, FILE* f) {
    std::fprintf(f, "%-36s %-13s bp %6.3f %9.2e  fbp %6.3f %9.2e  %s\n", r.info.id.c_str(),
                 toleranceName(r.kind), r.bp.maxAbsOverBound, r.bp.relL2, r.fbp.maxAbsOverBound,
                 r.fbp.relL2, r.status.c_str());
    std::fflush(f);
}

void writeJson(const SelfCheckOptions& o, const std::string& device,
               const std::vector<CheckRow>& rows) {
    std::ofstream json(o.json);
    json << "{\"device\": \"" << device << "\", \"mode\": \"check\", \"family\": \"" << o.family
         << "\", \"size\": " << o.shape.size << ", \"projections\": " << o.shape.projections
         << ", \"slices\": " << o.shape.slices << ", \"band_rows\": " << o.effectiveBandRows()
         << ", \"angle_chunk\": " << o.effectiveAngleChunk() << ", \"variants\": [\n";
    auto verdict = [](const Verdict& v) {
        char text[200];
        std::snprintf(text, sizeof text,
                      "{\"err_over_bound\": %.4e, \"rel_l2\": %.4e, \"rel_max\": %.4e, "
                      "\"fraction_above\": %.4e}",
                      v.maxAbsOverBound, v.relL2, v.relMax, v.fractionAbove);
        return std::string(text);
    };
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const CheckRow& r = rows[i];
        std::string status = r.status;
        for (char& ch : status)
            if (ch == '"' || ch == '\\') ch = '\'';
        json << "  {\"id\": \"" << r.info.id << "\", \"tolerance\": \"" << toleranceName(r.kind)
             << "\", \"pass\": " << (r.status == "PASS" ? "true" : "false") << ", \"status\": \""
             << status << "\", \"bp\": " << verdict(r.bp) << ", \"fbp\": " << verdict(r.fbp) << "}"
             << (i + 1 < rows.size() ? ",\n" : "\n");
    }
    json << "]}\n";
}

/// A sticky error poisons the context: every later call fails. Detect it after a failure.
bool contextLost() {
    const cudaError_t e = cudaDeviceSynchronize();
    cudaGetLastError();
    return e != cudaSuccess && cudaDeviceSynchronize() != cudaSuccess;
}

int runCheck(const SelfCheckOptions& o) {
    BackProjectorRegistry registry;
    registerCpuBackProjectors(registry);
    std::string device = "cpu (" + o.cpuCandidate + " as the candidate)";
    std::vector<BackProjectorInfo> variants;
    if (o.cpuCandidate.empty()) {
        const CudaRegistration report = registerBackProjectors(registry);
        if (!report.available) {
            std::printf("no CUDA device: %s\n", report.message.c_str());
            return 2;
        }
        device = report.device;
        for (const BackProjectorInfo& info : registry.list("cuda"))
            if (selectsVariant(o, info.id, info.family)) variants.push_back(info);
    } else {
        auto made = registry.make(o.cpuCandidate);
        if (!made.isOk()) {
            std::printf("%s\n", made.status().message().c_str());
            return 3;
        }
        variants.push_back((*made)->info());
    }
    auto problem = CheckProblem::create(o.shape);
    if (!problem.isOk()) {
        std::printf("problem: %s\n", problem.status().message().c_str());
        return 3;
    }
    Checker c{o, registry, std::move(problem).value(), {}, 0, {}};
    c.magnitudes = sliceMagnitudes(c.problem.filtered(), c.problem.weights());
    c.coordError = coordinateError(c.problem.coordinateMagnitude());
    std::printf(
        "device %s; %d projections x %d^2 x %d slices; bands of %d rows, chunks of %d "
        "projections; reference rows from %zu windows of %d\n",
        device.c_str(), o.shape.projections, o.shape.size, o.shape.slices, o.effectiveBandRows(),
        o.effectiveAngleChunk(), c.problem.windowBegins().size(), o.shape.windowRows);
    std::printf("%-36s %-13s bp err/bound rel-L2  fbp err/bound rel-L2  verdict\n", "variant",
                "tolerance");
    std::vector<CheckRow> rows;
    std::string lostAfter;
    for (const BackProjectorInfo& info : variants) {
        CheckRow row{info, toleranceKind(info), {}, {}, "PASS"};
        if (!lostAfter.empty()) {
            row.status = "NOT RUN: context lost after " + lostAfter + " (rerun with --variants)";
        } else {
            Status s;
            auto made = registry.make(info.id);
            if (!made.isOk()) {
                s = made.status();
            } else if (auto* whole = dynamic_cast<CudaBackProjector*>(made->get())) {
                // The registry's back-projector (its device context) runs the FBP; a second one
                // on the same context with forced bands and angle chunks the back-projection.
                CudaBackProjectorOptions split;
                split.maxBandRows = o.effectiveBandRows();
                split.maxAngleChunk = o.effectiveAngleChunk();
                CudaBackProjector bp(info, whole->context(), whole->launcher(), split);
                s = checkOne(c, bp, whole, row);
            } else {
                s = checkOne(c, **made, nullptr, row);
            }
            if (!s.isOk()) {
                row.status = "ERROR: " + s.message();
                if (o.cpuCandidate.empty() && contextLost()) lostAfter = info.id;
            }
        }
        printVerdict(row, stdout);
        rows.push_back(row);
    }
    writeJson(o, device, rows);
    int failed = 0;
    std::printf("\n== verdicts (%s; JSON %s)\n", device.c_str(), o.json.c_str());
    for (const CheckRow& r : rows) {
        printVerdict(r, stdout);
        failed += r.status == "PASS" ? 0 : 1;
    }
    std::printf("%zu variants, %d not passed\n", rows.size(), failed);
    return failed == 0 ? 0 : 1;
}

}  // namespace
}  // namespace tomo::cuda

int main(int argc, char** argv) {
    using namespace tomo::cuda;
    auto o = parseSelfCheckOptions(std::vector<std::string>(argv + 1, argv + argc));
    if (!o.isOk()) {
        std::fprintf(stderr, "tomo_cuda_selfcheck: %s\n", o.status().message().c_str());
        return 3;
    }
    return o->bench ? runBench(*o) : runCheck(*o);
}
