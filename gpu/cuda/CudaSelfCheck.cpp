// tomo_cuda_selfcheck: checks and times every CUDA variant without GoogleTest, for a bare CUDA
// machine (scripts/gpu-check). For each variant:
//  1. correctness: a 37x35 image, 3 slices, 24 jittered projections, 48 detectors, shifted
//     axis with per-projection corrections, random sinogram values, against cpu.reference.* -
//     the tolerances of tests/gpu (GpuTestSupport.cpp);
//  2. speed: the paper 002 workload (default 2048 projections x 2048^2 x 64 slices, random
//     filtered-like data): one warm-up pass, then --repeat timed runs; kernel-only GU/s from
//     device events, end-to-end GU/s (host sinograms to host volume) from the wall clock, and
//     the model's prediction (core/selection) for the device;
//  3. the cuFFT FBP pipeline (CudaFbp.h) for --fbp-variant on --fbp-slices slices, host to host.
// Prints a table (variant, predicted, kernel GU/s, end-to-end GU/s, max error) and writes JSON.
// Exit status: 0 all correct, 1 a variant wrong or failing, 2 no CUDA device, 3 bad arguments.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "core/projectors/CpuBackProjectors.h"
#include "core/selection/DeviceTraits.h"
#include "core/selection/VariantCost.h"
#include "gpu/cuda/CudaBackProjectors.h"
#include "gpu/cuda/CudaDiscovery.h"
#include "gpu/cuda/CudaFbp.h"
#include "gpu/cuda/internal/CudaBackProjector.h"

namespace tomo::cuda {
namespace {

struct Options {
    int projections = 2048, size = 2048, slices = 64, repeat = 3, fbpSlices = 64;
    std::string fbpVariant = "cuda.alu.acm.lin.1s.64x64", json = "cuda-selfcheck.json";
    std::string only;  ///< comma-separated ids, empty = all
};

struct Row {
    BackProjectorInfo info;
    double predicted = 0, kernelGups = 0, endToEndGups = 0, maxRel = -1, relL2 = -1;
    std::string bottleneck, status = "ok";
};

double maxRel(const Volume& a, const Volume& b, double* l2) {
    double d = 0, s = 0, dd = 0, nn = 0;
    for (std::size_t z = 0; z < b.dim(0); ++z)
        for (std::size_t y = 0; y < b.dim(1); ++y)
            for (std::size_t x = 0; x < b.dim(2); ++x) {
                const double e = double(a(z, y, x)) - b(z, y, x);
                d = std::max(d, std::abs(e));
                s = std::max(s, std::abs(double(b(z, y, x))));
                dd += e * e;
                nn += double(b(z, y, x)) * b(z, y, x);
            }
    *l2 = std::sqrt(dd / std::max(nn, 1e-30));
    return d / std::max(s, 1e-30);
}

/// The pass criteria of tests/gpu/GpuTestSupport.cpp (NVIDIA texture units: 4e-3 linear).
bool acceptable(const BackProjectorInfo& info, double rel, double l2) {
    if (info.family == "oversampling") return l2 < 0.2;
    if (!info.exact) return l2 < 2e-3;
    if (info.interpolation == Interpolation::Linear) return rel < 4e-3;
    return l2 < 1e-3;
}

Status checkVariant(const BackProjectorRegistry& registry, Row& row) {
    std::mt19937 rng(11);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    ParallelGeometry::Params params;
    for (int p = 0; p < 24; ++p) {
        params.angles.push_back(0.1 + kPi * (p + 0.4 * unit(rng)) / 24);
        params.centerCorrection.push_back(unit(rng) - 0.5);
    }
    params.detectorCount = 48;
    params.rows = 3;
    params.centerOfRotation = 23.5 + 1.3;
    TOMO_ASSIGN_OR_RETURN(ParallelGeometry geom, ParallelGeometry::create(params));
    const VolumeGeometry vol{37, 35, 3, 1.0};
    Sinograms sino(3, 24, 48);
    for (std::size_t r = 0; r < 3 * 24; ++r)
        for (float& v : sino.rows().row(r))
            v = static_cast<float>(2 * unit(rng) - 1);
    std::vector<float> w;
    for (int p = 0; p < 24; ++p)
        w.push_back(static_cast<float>(0.5 + unit(rng)));
    TOMO_ASSIGN_OR_RETURN(auto ref, registry.make(row.info.interpolation == Interpolation::Linear
                                                      ? "cpu.reference.lin"
                                                      : "cpu.reference.nn"));
    TOMO_ASSIGN_OR_RETURN(auto bp, registry.make(row.info.id));
    Volume a, b;
    TOMO_RETURN_IF_ERROR(ref->backProject(sino, geom, vol, w, a, {}));
    TOMO_RETURN_IF_ERROR(bp->backProject(sino, geom, vol, w, b, {}));
    row.maxRel = maxRel(b, a, &row.relL2);
    if (!acceptable(row.info, row.maxRel, row.relL2)) row.status = "WRONG";
    return Status::ok();
}

Status timeVariant(const std::shared_ptr<CudaDeviceContext>& dev, const Options& o,
                   const Sinograms& sino, const ParallelGeometry& geom, Row& row) {
    TOMO_ASSIGN_OR_RETURN(CudaLauncher launcher, launcherFor(row.info.id));
    CudaBackProjector bp(row.info, dev, launcher);
    const VolumeGeometry vol = VolumeGeometry::forDetector(geom, o.size);
    VolumeGeometry warm = vol;
    warm.nz = row.info.slicesPerPass;
    const std::vector<float> weights(static_cast<std::size_t>(o.projections),
                                     static_cast<float>(kPi / o.projections));
    Sinograms first(static_cast<std::size_t>(warm.nz), sino.dim(1), sino.dim(2));
    for (std::size_t z = 0; z < first.dim(0); ++z)
        std::memcpy(&first(z, 0, 0), &sino(z % sino.dim(0), 0, 0),
                    sizeof(float) * sino.dim(1) * sino.dim(2));
    Volume out;
    TOMO_RETURN_IF_ERROR(bp.backProject(first, geom, warm, weights, out, {}));  // warm-up
    std::vector<double> kernel, wall;
    for (int r = 0; r < o.repeat; ++r) {
        const auto t0 = std::chrono::steady_clock::now();
        TOMO_RETURN_IF_ERROR(bp.backProject(sino, geom, vol, weights, out, {}));
        wall.push_back(
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
        kernel.push_back(bp.lastKernelSeconds());
    }
    std::sort(kernel.begin(), kernel.end());
    std::sort(wall.begin(), wall.end());
    const double updates = double(o.projections) * o.size * o.size * o.slices;
    row.kernelGups = updates / kernel[kernel.size() / 2] * 1e-9;
    row.endToEndGups = updates / wall[wall.size() / 2] * 1e-9;
    return Status::ok();
}

Result<Options> parse(int argc, char** argv) {
    Options o;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        auto next = [&]() -> Result<std::string> {
            if (i + 1 >= argc) return invalidArgument(a + " needs a value");
            return std::string(argv[++i]);
        };
        auto integer = [&](int& v) -> Status {
            TOMO_ASSIGN_OR_RETURN(std::string s, next());
            v = std::atoi(s.c_str());
            return v > 0 ? Status::ok() : invalidArgument(a + " must be a positive integer");
        };
        if (a == "--projections")
            TOMO_RETURN_IF_ERROR(integer(o.projections));
        else if (a == "--size")
            TOMO_RETURN_IF_ERROR(integer(o.size));
        else if (a == "--slices")
            TOMO_RETURN_IF_ERROR(integer(o.slices));
        else if (a == "--repeat")
            TOMO_RETURN_IF_ERROR(integer(o.repeat));
        else if (a == "--fbp-slices")
            TOMO_RETURN_IF_ERROR(integer(o.fbpSlices));
        else if (a == "--fbp-variant") {
            TOMO_ASSIGN_OR_RETURN(o.fbpVariant, next());
        } else if (a == "--json") {
            TOMO_ASSIGN_OR_RETURN(o.json, next());
        } else if (a == "--variants") {
            TOMO_ASSIGN_OR_RETURN(o.only, next());
        } else
            return invalidArgument("unknown option " + a +
                                   " (--projections --size --slices --repeat --variants "
                                   "--fbp-variant --fbp-slices --json)");
    }
    return o;
}

int run(int argc, char** argv) {
    auto parsed = parse(argc, argv);
    if (!parsed.isOk()) {
        std::fprintf(stderr, "tomo_cuda_selfcheck: %s\n", parsed.status().message().c_str());
        return 3;
    }
    const Options o = *parsed;
    BackProjectorRegistry registry;
    registerCpuBackProjectors(registry);
    const CudaRegistration report = registerBackProjectors(registry);
    if (!report.available) {
        std::printf("%s\n", report.message.c_str());
        return 2;
    }
    const DeviceDiscovery disc = discoverDevices();
    const DeviceTraits traits = traitsFor(disc.devices.at(0));
    auto dev = CudaDeviceContext::open().value();
    std::fprintf(stderr, "device %s; workload %d projections x %d^2 x %d slices\n",
                 report.device.c_str(), o.projections, o.size, o.slices);
    ParallelGeometry::Params params;
    for (int p = 0; p < o.projections; ++p)
        params.angles.push_back(kPi * p / o.projections);
    params.detectorCount = o.size;
    params.rows = o.slices;
    auto geom = ParallelGeometry::create(params).value();
    Sinograms sino(static_cast<std::size_t>(o.slices), static_cast<std::size_t>(o.projections),
                   static_cast<std::size_t>(o.size));
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> value(-1.0f, 1.0f);
    std::vector<float> pattern(4096);
    for (float& v : pattern)
        v = value(rng);
    std::size_t k = 0;
    for (std::size_t r = 0; r < sino.dim(0) * sino.dim(1); ++r)
        for (float& v : sino.rows().row(r))
            v = pattern[(k++ * 2654435761u >> 7) & 4095];

    std::vector<Row> rows;
    bool allGood = true;
    for (const BackProjectorInfo& info : registry.list("cuda")) {
        if (!o.only.empty() && ("," + o.only + ",").find("," + info.id + ",") == std::string::npos)
            continue;
        Row row{info};
        if (auto cost = costFor(info); cost.isOk()) {
            const Prediction pr = predict(traits, *cost, o.slices);
            row.predicted = pr.gups;
            row.bottleneck = pr.bottleneck;
        }
        Status s = checkVariant(registry, row);
        if (s.isOk() && row.status == "ok") s = timeVariant(dev, o, sino, geom, row);
        if (!s.isOk()) row.status = "FAILED: " + s.message();
        allGood = allGood && row.status == "ok";
        std::fprintf(stderr, "  %-34s %s\n", info.id.c_str(), row.status.c_str());
        rows.push_back(row);
    }
    // The whole FBP (cuFFT filtering + back-projection), host memory to host memory.
    CudaFbpTimings fbp;
    Status fbpStatus = [&]() -> Status {
        ParallelGeometry::Params fp = params;
        fp.rows = o.fbpSlices;
        TOMO_ASSIGN_OR_RETURN(ParallelGeometry g, ParallelGeometry::create(fp));
        Sinograms s(static_cast<std::size_t>(o.fbpSlices), static_cast<std::size_t>(o.projections),
                    static_cast<std::size_t>(o.size));
        for (std::size_t z = 0; z < s.dim(0); ++z)
            std::memcpy(&s(z, 0, 0), &sino(z % sino.dim(0), 0, 0),
                        sizeof(float) * s.dim(1) * s.dim(2));
        Volume out;
        return reconstructFbp(s, g, VolumeGeometry::forDetector(g, o.size), o.fbpVariant, {}, out,
                              {}, &fbp);
    }();

    std::ofstream json(o.json);
    json << "{\"device\": \"" << report.device
         << "\", \"workload\": {\"projections\": " << o.projections << ", \"size\": " << o.size
         << ", \"slices\": " << o.slices << "}, \"variants\": [\n";
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const Row& r = rows[i];
        json << "  {\"id\": \"" << r.info.id
             << "\", \"exact\": " << (r.info.exact ? "true" : "false")
             << ", \"predicted_gups\": " << r.predicted << ", \"bottleneck\": \"" << r.bottleneck
             << "\", \"kernel_gups\": " << r.kernelGups
             << ", \"end_to_end_gups\": " << r.endToEndGups << ", \"max_rel_error\": " << r.maxRel
             << ", \"rel_l2_error\": " << r.relL2
             << ", \"ok\": " << (r.status == "ok" ? "true" : "false") << "}"
             << (i + 1 < rows.size() ? ",\n" : "\n");
    }
    json << "], \"fbp\": {\"variant\": \"" << o.fbpVariant << "\", \"slices\": " << o.fbpSlices
         << ", \"ok\": " << (fbpStatus.isOk() ? "true" : "false")
         << ", \"total_seconds\": " << fbp.total << ", \"kernel_seconds\": " << fbp.kernels
         << ", \"filter_seconds\": " << fbp.filtering << "}}\n";

    std::printf("\n%-34s %10s %-11s %10s %10s %10s  %s\n", "variant", "model GU/s", "bottleneck",
                "kernel", "end-to-end", "max error", "status");
    for (const Row& r : rows)
        std::printf("%-34s %10.0f %-11s %10.0f %10.0f %10.2e  %s\n", r.info.id.c_str(), r.predicted,
                    r.bottleneck.c_str(), r.kernelGups, r.endToEndGups, r.maxRel, r.status.c_str());
    if (fbpStatus.isOk())
        std::printf(
            "FBP %s, %d slices of %d^2 from %d projections: %.2f s host to host "
            "(filter %.2f s, kernels %.2f s on the device)\n",
            o.fbpVariant.c_str(), o.fbpSlices, o.size, o.projections, fbp.total, fbp.filtering,
            fbp.kernels);
    else
        std::printf("FBP %s failed: %s\n", o.fbpVariant.c_str(), fbpStatus.message().c_str());
    std::printf("device: %s; JSON: %s\n", report.device.c_str(), o.json.c_str());
    return allGood && fbpStatus.isOk() ? 0 : 1;
}

}  // namespace
}  // namespace tomo::cuda

int main(int argc, char** argv) {
    return tomo::cuda::run(argc, argv);
}
