// tomo recon --algo sirt|os-sirt|sart|cgls|tv|memxct: per-iteration progress, Ctrl-C as
// StopAndKeep, chunked solves and the L-curve with its corner.
#include "app/cli/IterativeRecon.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "app/Backends.h"
#include "app/Selection.h"
#include "core/iterative/IterativeReconstruction.h"

namespace tomo::cli {
namespace {

Status addPairs(const std::string& text, std::map<std::string, std::string>& out) {
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t comma = std::min(text.find(',', start), text.size());
        const std::string pair = text.substr(start, comma - start);
        const std::size_t eq = pair.find('=');
        if (eq == std::string::npos || eq == 0)
            return invalidArgument("--param '" + pair + "': expected NAME=VALUE");
        out[pair.substr(0, eq)] = pair.substr(eq + 1);
        start = comma + 1;
    }
    return Status::ok();
}

/// Slices [first, first + count) of a stack.
Result<Array3<float>> sliceRange(const Array3<float>& a, std::size_t first, std::size_t count) {
    TOMO_ASSIGN_OR_RETURN(Array3<float> part, Array3<float>::create(count, a.dim(1), a.dim(2)));
    for (std::size_t z = 0; z < count; ++z)
        for (std::size_t r = 0; r < a.dim(1); ++r)
            std::memcpy(part.row(z, r).data(), a.row(first + z, r).data(),
                        a.dim(2) * sizeof(float));
    return part;
}

std::string formatValue(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.6g", v);
    return buf;
}

/// The whole stack's numbers of one iteration from the chunks' (see IterativeRecon.h).
struct Combined {
    double residualSquares = 0, solutionSquares = 0, regularizer = 0, errorSquares = 0;
    double seconds = 0;
    std::size_t errorVoxels = 0;
    int chunks = 0;
};

std::string lowerExtension(const std::string& path) {
    std::string ext = std::filesystem::path(path).extension().string();
    for (char& c : ext)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return ext;
}

}  // namespace

Result<std::map<std::string, std::string>> collectParams(int argc, char** argv) {
    std::map<std::string, std::string> params;
    for (int i = 2; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--param") {
            if (i + 1 >= argc) return invalidArgument("--param needs NAME=VALUE");
            TOMO_RETURN_IF_ERROR(addPairs(argv[++i], params));
        } else if (arg.rfind("--param=", 0) == 0) {
            TOMO_RETURN_IF_ERROR(addPairs(arg.substr(8), params));
        }
    }
    return params;
}

Status checkLCurvePath(const std::string& path) {
    const std::string ext = lowerExtension(path);
    if (ext != ".csv" && ext != ".json")
        return invalidArgument("--lcurve " + path + ": expected a .csv or .json file name");
    return Status::ok();
}

Status runIterativeRecon(const Sinograms& sino, const ParallelGeometry& geom,
                         const VolumeGeometry& grid, const IterativeCliOptions& options,
                         const Volume* reference, std::stop_token interrupt, int threads,
                         Volume& out, IterativeCliReport& report) {
    report = {};
    const std::size_t slices = sino.dim(0);
    const std::size_t chunk =
        options.chunkSlices == 0 ? slices : std::min(options.chunkSlices, slices);
    const std::size_t chunks = (slices + chunk - 1) / chunk;
    const int total = options.params.integer("iterations");
    TOMO_ASSIGN_OR_RETURN(out, Volume::create(slices, std::size_t(grid.ny), std::size_t(grid.nx)));
    out.fill(0.f);

    // The device operator pair for the SIRT family (see IterativeCliOptions::backend).
    decltype(IterativeRequest::makeOperator) deviceOperator;
    if (options.backend != "cpu") {
        const std::string& id = options.spec.id;
        if (!usesLocalityPair(options.params)) {
            std::fprintf(stderr,
                         "tomo recon: note: --algo %s needs an exactly matched projector pair "
                         "and runs on the CPU (--backend %s ignored)\n",
                         id.c_str(), options.backend.c_str());
        } else if (const auto device = app::primaryDevice(options.backend); !device.isOk()) {
            std::fprintf(stderr, "tomo recon: note: %s; --algo %s runs on the CPU\n",
                         device.status().message().c_str(), id.c_str());
        } else {
            deviceOperator = app::iterativeOperatorFactory(options.backend);
        }
    }

    std::vector<Combined> combined;
    std::size_t done = 0;  // slices solved
    for (std::size_t c = 0; c < chunks && !report.interrupted; ++c) {
        const std::size_t first = c * chunk, count = std::min(chunk, slices - first);
        ParallelGeometry::Params params = geom.params();
        params.rows = static_cast<int>(count);
        TOMO_ASSIGN_OR_RETURN(ParallelGeometry chunkGeom, ParallelGeometry::create(params));
        VolumeGeometry chunkGrid = grid;
        chunkGrid.nz = static_cast<int>(count);
        Sinograms partSino;
        Volume partRef;
        if (chunks > 1) {
            TOMO_ASSIGN_OR_RETURN(partSino, sliceRange(sino, first, count));
            if (reference) {
                TOMO_ASSIGN_OR_RETURN(partRef, sliceRange(*reference, first, count));
            }
        }
        IterativeRequest request;
        request.algorithm = options.spec.id;
        request.parameters = options.params;
        request.makeOperator = deviceOperator;
        request.reference = reference ? (chunks == 1 ? reference : &partRef) : nullptr;
        const std::string prefix =
            chunks > 1 ? "chunk " + std::to_string(c + 1) + "/" + std::to_string(chunks) + " " : "";
        const std::size_t voxels = count * std::size_t(grid.ny) * std::size_t(grid.nx);
        auto onIteration = [&](const IterationInfo& info) {
            if (!options.quiet) {
                std::fprintf(stderr,
                             "%s%s iteration %d/%d: residual %s, solution norm %s, regulariser "
                             "%s, error %s, %.3f s (%.2f s total)\n",
                             prefix.c_str(), options.spec.id.c_str(), info.iteration, total,
                             formatValue(info.residualNorm).c_str(),
                             formatValue(info.solutionNorm).c_str(),
                             formatValue(info.regularizer).c_str(),
                             info.error ? formatValue(*info.error).c_str() : "-",
                             info.iterationSeconds, info.seconds);
                std::fflush(stderr);
            }
            if (combined.size() < std::size_t(info.iteration)) combined.resize(info.iteration);
            Combined& k = combined[std::size_t(info.iteration) - 1];
            k.residualSquares += info.residualNorm * info.residualNorm;
            k.solutionSquares += info.solutionNorm * info.solutionNorm;
            k.regularizer += info.regularizer;
            k.seconds += info.iterationSeconds;
            if (info.error) {
                k.errorSquares += *info.error * *info.error * double(voxels);
                k.errorVoxels += voxels;
            }
            ++k.chunks;
            if (interrupt.stop_requested()) {
                report.interrupted = true;
                return IterationAction::StopAndKeep;
            }
            return IterationAction::Continue;
        };
        Volume part;
        SolverSummary summary;
        Status s =
            reconstructIterative(chunks == 1 ? sino : partSino, chunkGeom, chunkGrid, request,
                                 onIteration, part, summary, ExecContext{threads, {}, nullptr});
        if (!s)
            return chunks > 1 ? s.withContext(prefix + "(slices " + std::to_string(first) + "-" +
                                              std::to_string(first + count - 1) + ")")
                              : s;
        for (std::size_t z = 0; z < count; ++z)
            for (std::size_t y = 0; y < part.dim(1); ++y)
                std::memcpy(out.row(first + z, y).data(), part.row(z, y).data(),
                            part.dim(2) * sizeof(float));
        report.reason = terminationReasonName(summary.reason);
        report.seconds += summary.seconds;
        done = first + count;
    }
    if (report.interrupted && done < slices)
        std::fprintf(stderr,
                     "tomo recon: interrupted: slices %zu-%zu were not reconstructed (left at "
                     "zero)\n",
                     done, slices - 1);

    // The combined curve: iterations every chunk reached.
    const std::size_t solved = (done + chunk - 1) / chunk;
    for (std::size_t k = 0; k < combined.size(); ++k) {
        const Combined& e = combined[k];
        if (std::size_t(e.chunks) < solved) break;
        LCurvePoint p;
        p.parameter = double(k + 1);
        p.residualNorm = std::sqrt(e.residualSquares);
        p.solutionNorm = std::sqrt(e.solutionSquares);
        if (e.errorVoxels > 0) p.error = std::sqrt(e.errorSquares / double(e.errorVoxels));
        report.curve.push_back(p);
    }
    report.iterations = static_cast<int>(report.curve.size());
    if (!options.lcurvePath) return Status::ok();
    if (report.curve.size() < 3) {
        std::fprintf(stderr,
                     "tomo recon: note: %zu iteration(s) give no L-curve corner (3 or more "
                     "needed); %s written without one\n",
                     report.curve.size(), options.lcurvePath->c_str());
    } else if (auto corner = lcurveCorner(report.curve); corner) {
        report.corner = *corner;
    } else {
        std::fprintf(stderr, "tomo recon: note: %s\n", corner.status().message().c_str());
    }
    const bool json = lowerExtension(*options.lcurvePath) == ".json";
    return json ? writeLCurveJson(*options.lcurvePath, report.curve, report.corner)
                : writeLCurveCsv(*options.lcurvePath, report.curve, report.corner);
}

}  // namespace tomo::cli
