// tomo bench --suite memxct: the MemXCT engine (paper 000) on the paper's ADS1/ADS2 sizes:
// preprocessing, SpMV GFLOPS and effective bandwidth of the baseline CSR and multi-stage
// buffered kernels against a STREAM-like copy, and the forward + adjoint time of one CGLS step
// against the on-the-fly projector pair (Joseph forward projection + CPU back-projector).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <sstream>
#include <vector>

#include "app/Backends.h"
#include "app/Engine.h"
#include "app/cli/ArgParser.h"
#include "app/cli/CliSupport.h"
#include "app/cli/Commands.h"
#include "core/base/Parallel.h"
#include "core/memxct/MemxctOperator.h"
#include "core/phantom/Phantom.h"
#include "core/projectors/ForwardProjector.h"

namespace tomo::cli {
namespace {

struct Dataset {
    std::string name;
    int angles = 0, detectors = 0;  ///< image = detectors^2
};

/// Median seconds of each of @p fns over @p repeat rounds that call them in turn (after one
/// warm-up call each).
Result<std::vector<double>> timeRoundRobin(int repeat,
                                           const std::vector<std::function<Status()>>& fns) {
    std::vector<std::vector<double>> t(fns.size());
    for (const auto& fn : fns)
        TOMO_RETURN_IF_ERROR(fn());
    for (int r = 0; r < repeat; ++r)
        for (std::size_t k = 0; k < fns.size(); ++k) {
            const auto t0 = std::chrono::steady_clock::now();
            TOMO_RETURN_IF_ERROR(fns[k]());
            t[k].push_back(
                std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
        }
    std::vector<double> median;
    for (auto& v : t) {
        std::sort(v.begin(), v.end());
        median.push_back(v[v.size() / 2]);
    }
    return median;
}

/// A STREAM-like copy of two 256 MiB arrays, split into chunks over the workers; bytes() is
/// what one run reads and writes.
struct CopyProbe {
    std::vector<float> a = std::vector<float>(std::size_t(1) << 26, 1.0f);
    std::vector<float> b = std::vector<float>(std::size_t(1) << 26, 0.0f);
    double bytes() const { return 2.0 * double(a.size()) * sizeof(float); }
    Status run(int threads) {
        constexpr std::size_t kChunk = std::size_t(1) << 18;
        return parallelFor(a.size() / kChunk, threads, {}, [&](std::size_t c, int) {
            std::copy_n(a.data() + c * kChunk, kChunk, b.data() + c * kChunk);
        });
    }
};

Status benchDataset(const Dataset& ds, const MemxctOptions& base, int threads, int repeat,
                    int slices, const BackProjectorRegistry& registry) {
    ParallelGeometry::Params params;
    params.angles = uniformAngles(0.0, kPi, ds.angles);
    params.detectorCount = ds.detectors;
    params.rows = slices;
    TOMO_ASSIGN_OR_RETURN(ParallelGeometry geom, ParallelGeometry::create(params));
    const VolumeGeometry vol = VolumeGeometry::forDetector(geom, ds.detectors);
    MemxctOptions options = base;
    options.kernel = MemxctKernel::Buffered;
    options.keepCsr = true;
    TOMO_ASSIGN_OR_RETURN(MemxctMemoryEstimate est, estimateMemxctMemory(geom, vol, options));
    const ExecContext ctx{threads, {}, nullptr};
    TOMO_ASSIGN_OR_RETURN(auto op, MemxctOperator::create(geom, vol, options, ctx));
    const MemxctSystem& sys = op->system();
    const MemxctBuildTimes& bt = sys.buildTimes();
    const double nnz = double(sys.nonzeros());
    std::printf("%s: %d angles x %d detectors, %dx%d image, %s ordering, tile %d, mask %s\n",
                ds.name.c_str(), ds.angles, ds.detectors, vol.nx, vol.ny,
                options.rowMajor ? "row-major" : "pseudo-Hilbert", options.tileSize,
                options.circleMask ? "circle" : "none");
    std::printf("  nonzeros %.1f M (estimate %.1f M), resident %.0f MiB (estimate %.0f MiB)\n",
                nnz * 1e-6, double(est.nonzeros) * 1e-6, double(sys.residentBytes()) / (1 << 20),
                double(est.residentBytes) / (1 << 20));
    std::printf(
        "  preprocessing %.2f s: ordering %.3f, tracing %.2f, transpose %.2f, buffers %.2f\n",
        bt.total(), bt.ordering, bt.tracing, bt.transpose, bt.buffering);
    const BufferedMatrix& fb = sys.forwardBuffered();
    const BufferedMatrix& ab = sys.adjointBuffered();
    std::printf(
        "  buffered: %zu/%zu stages (forward/adjoint), %.2f/%.2f stages per partition, "
        "map %.3f/%.3f entries per nonzero\n",
        fb.stages(), ab.stages(), double(fb.stages()) / double(fb.partitions()),
        double(ab.stages()) / double(ab.partitions()), double(fb.map.size()) / nnz,
        double(ab.map.size()) / nnz);
    std::vector<float> x(sys.imageOrdering().size(), 1.0f), y(sys.sinogramOrdering().size());
    CopyProbe copy;
    double copyBw = 1.0;
    auto report = [&](const char* label, double seconds, double regularBytes) {
        const double bw = regularBytes / seconds;
        std::printf("  %-22s %10.3f %9.2f %12.2f %9.0f%%\n", label, seconds * 1e3,
                    2.0 * nnz / seconds * 1e-9, bw * 1e-9, 100.0 * bw / copyBw);
    };
    auto csrBytes = [&](const CsrMatrix& m) {
        return double(m.nonzeros()) * 8.0 + double(m.rowPtr.size()) * 8.0;
    };
    auto bufBytes = [&](const BufferedMatrix& m) {
        return double(m.nonzeros()) * 6.0 + double(m.map.size()) * 4.0 +
               double(m.rowPtr.size()) * 8.0;
    };
    // The four kernels and the copy are timed round-robin, so that a changing machine load
    // affects them alike; medians of `repeat` rounds.
    const std::vector<std::function<Status()>> kernels = {
        [&] { return sys.forward(MemxctKernel::Csr, x, y, ctx); },
        [&] { return sys.forward(MemxctKernel::Buffered, x, y, ctx); },
        [&] { return sys.adjoint(MemxctKernel::Csr, y, x, ctx); },
        [&] { return sys.adjoint(MemxctKernel::Buffered, y, x, ctx); },
        [&] { return copy.run(threads); }};
    TOMO_ASSIGN_OR_RETURN(const std::vector<double> t, timeRoundRobin(repeat, kernels));
    const double tfc = t[0], tfb = t[1], tac = t[2], tab = t[3];
    copyBw = copy.bytes() / t[4];
    std::printf("  STREAM-like copy %.2f GB/s (read + write, timed with the kernels)\n",
                copyBw * 1e-9);
    std::printf("  %-22s %10s %9s %12s %10s\n", "kernel", "time [ms]", "GFLOPS", "regular GB/s",
                "% of copy");
    report("forward  csr", tfc, csrBytes(sys.forwardCsr()));
    report("forward  buffered", tfb, bufBytes(fb));
    report("adjoint  csr", tac, csrBytes(sys.adjointCsr()));
    report("adjoint  buffered", tab, bufBytes(ab));
    std::printf("  buffered over csr: forward %.2fx, adjoint %.2fx\n", tfc / tfb, tac / tab);

    // One CGLS step = one forward + one adjoint on natural-order vectors, all slices (the
    // on-the-fly back-projector processes several slices per pass).
    Volume image;
    TOMO_RETURN_IF_ERROR(Phantom::sheppLogan2d(0.5 * ds.detectors).rasterize(vol, image, 2, ctx));
    std::vector<float> xn(op->domainSize()), yn(op->rangeSize()), xb(op->domainSize());
    for (int iz = 0; iz < vol.nz; ++iz)
        for (int iy = 0; iy < vol.ny; ++iy)
            std::copy_n(
                image.row(static_cast<std::size_t>(iz), static_cast<std::size_t>(iy)).data(),
                vol.nx,
                xn.data() + (static_cast<std::size_t>(iz) * static_cast<std::size_t>(vol.ny) +
                             static_cast<std::size_t>(iy)) *
                                static_cast<std::size_t>(vol.nx));
    auto step = [&]() -> Status {
        TOMO_RETURN_IF_ERROR(op->forward(xn, yn, ctx));
        return op->adjoint(yn, xb, ctx);
    };
    const int stepRepeat = std::max(1, repeat / 3);
    const std::string bpId = app::defaultVariant(registry, "cpu", Interpolation::Linear);
    TOMO_ASSIGN_OR_RETURN(auto bp, registry.make(bpId));
    const std::vector<float> weights(static_cast<std::size_t>(ds.angles),
                                     float(vol.voxelSize * vol.voxelSize / geom.detectorPitch()));
    Sinograms sino;
    Volume back;
    const std::vector<std::function<Status()>> steps = {
        [&] {
            op->setKernel(MemxctKernel::Buffered);
            return step();
        },
        [&] {
            op->setKernel(MemxctKernel::Csr);
            return step();
        },
        [&]() -> Status {
            TOMO_RETURN_IF_ERROR(forwardProjectJoseph(image, vol, geom, sino, ctx));
            return bp->backProject(sino, geom, vol, weights, back, ctx);
        }};
    TOMO_ASSIGN_OR_RETURN(const std::vector<double> ts, timeRoundRobin(stepRepeat, steps));
    const double stepBuf = ts[0], stepCsr = ts[1], stepOtf = ts[2];
    const double perSlice = 1e3 / slices;
    std::printf(
        "  CGLS step (forward + adjoint) per slice, %d slices: memxct buffered %.2f ms, "
        "memxct csr %.2f ms, on-the-fly joseph + %s %.2f ms -> speed-up %.1fx (buffered), "
        "%.1fx (csr)\n",
        slices, stepBuf * perSlice, stepCsr * perSlice, bpId.c_str(), stepOtf * perSlice,
        stepOtf / stepBuf, stepOtf / stepCsr);
    return Status::ok();
}

Status benchMemxctBody(const ArgParser& args) {
    TOMO_ASSIGN_OR_RETURN(int threads, args.getInt("threads", 0, 0, 4096));
    TOMO_ASSIGN_OR_RETURN(int repeat, args.getInt("repeat", 10, 1, 1000));
    TOMO_ASSIGN_OR_RETURN(int slices, args.getInt("slices", 4, 1, 4096));
    MemxctOptions options;
    TOMO_ASSIGN_OR_RETURN(options.tileSize, args.getInt("tile", 32, 1, 4096));
    TOMO_ASSIGN_OR_RETURN(options.partitionRows, args.getInt("partition", 256, 1, 65536));
    TOMO_ASSIGN_OR_RETURN(options.bufferFloats, args.getInt("buffer", 8192, 1, 65536));
    options.circleMask = args.has("mask");
    options.rowMajor = args.has("row-major");
    TOMO_RETURN_IF_ERROR(options.validate());
    const std::vector<Dataset> known = {
        {"ADS1", 360, 256}, {"ADS2", 750, 512}, {"ADS3", 1500, 1024}, {"quick", 90, 64}};
    std::vector<Dataset> sets;
    std::stringstream ss(args.has("quick") ? std::string("quick")
                                           : args.getOr("datasets", "ADS1,ADS2"));
    for (std::string item; std::getline(ss, item, ',');) {
        auto it = std::find_if(known.begin(), known.end(), [&](const Dataset& d) {
            std::string a = d.name, b = item;
            for (char& c : a)
                c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
            for (char& c : b)
                c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
            return a == b;
        });
        if (it == known.end())
            return invalidArgument("unknown dataset '" + item +
                                   "' (valid: ADS1, ADS2, ADS3, quick)");
        sets.push_back(*it);
    }
    std::printf("MemXCT benchmark, %d threads\n", resolveThreads(threads));
    const app::Engine engine;  // the devices, owned once
    const BackProjectorRegistry& registry = engine.registry();
    for (const Dataset& ds : sets)
        TOMO_RETURN_IF_ERROR(benchDataset(ds, options, threads, args.has("quick") ? 1 : repeat,
                                          args.has("quick") ? 1 : slices, registry));
    return Status::ok();
}

}  // namespace

int runBenchMemxct(int argc, char** argv) {
    ArgParser args(
        "bench --suite memxct",
        "MemXCT (paper 000) on the paper's datasets: preprocessing time, SpMV GFLOPS (2 nnz / t)\n"
        "and regular-data bandwidth (8 B per nonzero for CSR; 6 B per nonzero plus map and row\n"
        "pointers for the buffered kernel) against a STREAM-like copy, and the forward + adjoint\n"
        "time of one CGLS step against the on-the-fly Joseph + back-projector pair.");
    args.option("suite", "NAME", "benchmark suite", "memxct");
    args.option("datasets", "LIST", "ADS1, ADS2, ADS3 (comma separated)", "ADS1,ADS2");
    args.option("tile", "T", "Hilbert tile size (power of two)", "32");
    args.option("partition", "ROWS", "rows per partition", "256");
    args.option("buffer", "FLOATS", "stage buffer size in floats", "8192");
    args.flag("mask", "order only the pixels inside the reconstruction circle");
    args.flag("row-major", "ablation: row-major instead of pseudo-Hilbert ordering");
    args.option("repeat", "R", "timed runs per kernel; the median is reported", "10");
    args.option("slices", "S", "slices of the CGLS-step comparison", "4");
    args.option("threads", "N", "CPU threads, 0 = all", "0");
    args.flag("quick", "a tiny 90x64 problem, for tests");
    return runCommand(args, argc, argv, [&] { return benchMemxctBody(args); });
}

}  // namespace tomo::cli
