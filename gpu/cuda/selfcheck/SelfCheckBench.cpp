// tomo_cuda_selfcheck --bench: times every selected CUDA variant on paper 002's workload
// (default 2048 projections x 2048^2 x 64 slices, random filtered-like data): one warm-up
// pass, then --repeat timed runs; kernel-only GU/s from device events, end-to-end GU/s (host
// sinograms to host volume) from the wall clock, and the model's prediction (core/selection)
// for the device; then FBP (core's reconstructFbp through core's pipeline: the cuFFT filter
// stage, CudaRowFilter.h, and the back-projection stage of --fbp-variant, by default the model's
// choice for the job as tomo recon makes it, on each chunk between its upload and its download)
// on --fbp-slices slices: prepared first (prepareFbp: plans and rings, as tomo recon does beside
// the read), then host to host, with the call's parts (checks, output allocation, device open,
// pipeline), its timeline (busy time of every stage, setup included, overlap efficiency, the
// busiest queue), what the timeline leaves out, and the pinned host-device link measured on the
// same queues. Correctness is the check mode's (SelfCheckMain.cpp). Prints a table, writes
// JSON. Exit status: 0 all timed, 1 a variant or the FBP failed, 2 no CUDA device.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "core/base/Parallel.h"
#include "core/pipeline/LinkBandwidth.h"
#include "core/projectors/CpuBackProjectors.h"
#include "core/recon/Fbp.h"
#include "core/selection/DeviceTraits.h"
#include "core/selection/Selector.h"
#include "core/selection/VariantCost.h"
#include "gpu/cuda/CudaBackProjectors.h"
#include "gpu/cuda/CudaDiscovery.h"
#include "gpu/cuda/CudaRowFilter.h"
#include "gpu/cuda/internal/CudaBackProjector.h"
#include "gpu/cuda/internal/CudaQueues.h"
#include "gpu/cuda/selfcheck/SelfCheckOptions.h"

namespace tomo::cuda {
namespace {

struct Row {
    BackProjectorInfo info;
    double predicted = 0, kernelGups = 0, endToEndGups = 0;
    std::string bottleneck, status = "ok";
};

template <typename Options>
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

/// The FBP of the bench: the variant, its preparation (plans, rings: what tomo recon makes
/// beside the read) and the run, host memory to host memory, with its timeline.
struct FbpBench {
    std::string variant, why;  ///< the id and how it was chosen
    double prepare = 0;        ///< prepareFbp's seconds (the first FBP of a shape in a process)
    double hostToHost = 0;     ///< reconstructFbp's seconds on the bench's clock
    FbpTimings timings;
    LinkBandwidth link;
    Status status;
};

template <typename Options>
FbpBench benchFbp(BackProjectorRegistry& registry, const DeviceTraits& traits, const Options& o,
                  ParallelGeometry::Params params, const Sinograms& sino) {
    FbpBench b;
    b.variant = o.fbpVariant;
    b.why = "--fbp-variant";
    if (b.variant.empty()) {  // what tomo recon runs for this job without a tune cache
        b.variant =
            modelDefault(registry, traits, "cuda", Interpolation::Linear, true, o.fbpSlices);
        b.why = "the model's default for " + std::to_string(o.fbpSlices) + " slices";
    }
    b.status = [&]() -> Status {
        params.rows = o.fbpSlices;
        TOMO_ASSIGN_OR_RETURN(ParallelGeometry g, ParallelGeometry::create(params));
        // The stack (32 GiB at 2048 slices) is filled on every host thread into fresh pages:
        // on one thread its first touch alone took ~30 s of the H200's 67 s fbp step.
        TOMO_ASSIGN_OR_RETURN(Sinograms s,
                              Sinograms::createUninitialised(static_cast<std::size_t>(o.fbpSlices),
                                                             sino.dim(1), sino.dim(2)));
        TOMO_RETURN_IF_ERROR(parallelFor(s.dim(0), 0, {}, [&](std::size_t z, int) {
            for (std::size_t p = 0; p < s.dim(1); ++p)
                std::memcpy(&s(z, p, 0), &sino(z % sino.dim(0), p, 0), sizeof(float) * s.pitch());
        }));
        TOMO_ASSIGN_OR_RETURN(auto bp, registry.make(b.variant));
        auto* cuda = dynamic_cast<CudaBackProjector*>(bp.get());
        if (cuda == nullptr) return invalidArgument(b.variant + " is not a CUDA variant");
        FbpOptions options;
        TOMO_ASSIGN_OR_RETURN(options.rowFilter, makeCufftRowFilter(cuda->context()));
        const VolumeGeometry vol = VolumeGeometry::forDetector(g, o.size);
        const SinogramChunkLayout in{static_cast<int>(s.dim(1)), static_cast<int>(s.dim(2)),
                                     s.pitch()};
        double t0 = timelineNow();
        TOMO_RETURN_IF_ERROR(prepareFbp(s.dim(0), in, g, vol, *bp, options));
        b.prepare = timelineNow() - t0;
        Volume out;
        t0 = timelineNow();
        TOMO_RETURN_IF_ERROR(reconstructFbp(s, g, vol, *bp, options, out, {}, &b.timings));
        b.hostToHost = timelineNow() - t0;
        TOMO_ASSIGN_OR_RETURN(auto queues, CudaQueues::open(cuda->context()));
        TOMO_ASSIGN_OR_RETURN(b.link, measureLink(*queues));
        return Status::ok();
    }();
    return b;
}

std::string fbpJson(const FbpBench& b, int slices) {
    std::ostringstream json;
    const FbpTimings& t = b.timings;
    json << "{\"variant\": \"" << b.variant << "\", \"chosen_by\": \"" << b.why
         << "\", \"slices\": " << slices << ", \"ok\": " << (b.status.isOk() ? "true" : "false")
         << ", \"prepare_seconds\": " << b.prepare << ", \"total_seconds\": " << b.hostToHost
         << ", \"timeline_total_seconds\": " << t.total << ", \"checks_seconds\": " << t.checks
         << ", \"allocation_seconds\": " << t.allocation << ", \"open_seconds\": " << t.open
         << ", \"pipeline_seconds\": " << t.pipeline
         << ", \"backprojection_seconds\": " << t.backProjection
         << ", \"filter_seconds\": " << t.filtering
         << ", \"timeline\": " << timelineJson(t.timeline)
         << ", \"bound_seconds\": " << pipelineBound(t.timeline)
         << ", \"h2d_bytes_per_second\": " << b.link.hostToDevice
         << ", \"d2h_bytes_per_second\": " << b.link.deviceToHost << "}";
    return json.str();
}

void printFbp(const FbpBench& b, int slices, int size, int projections) {
    if (!b.status.isOk()) {
        std::printf("FBP %s failed: %s\n", b.variant.c_str(), b.status.message().c_str());
        return;
    }
    const FbpTimings& t = b.timings;
    std::printf(
        "FBP %s (%s), %d slices of %d^2 from %d projections: %.2f s host to host "
        "(cuFFT filter stage %.2f s, back-projection stage %.2f s); prepared before in %.2f s\n",
        b.variant.c_str(), b.why.c_str(), slices, size, projections, b.hostToHost, t.filtering,
        t.backProjection, b.prepare);
    std::printf(
        "FBP parts: checks %.3f s | output allocation %.3f s | device open %.3f s | "
        "pipeline %.3f s | outside the timeline %.3f s\n",
        t.checks, t.allocation, t.open, t.pipeline, b.hostToHost - t.timeline.wall);
    std::printf("FBP timeline: %s | bound %.2f s\n%s\n", formatTimeline(t.timeline).c_str(),
                pipelineBound(t.timeline), formatLink(b.link).c_str());
}

}  // namespace

int runBench(const SelfCheckOptions& so) {
    struct {
        int projections, size, slices, repeat, fbpSlices;
        std::string fbpVariant, json;
    } o{so.shape.projections, so.shape.size, so.benchSlices, so.repeat,
        so.fbpSlices,         so.fbpVariant, so.json};
    BackProjectorRegistry registry;
    registerCpuBackProjectors(registry);
    const CudaRegistration report = registerBackProjectors(registry);
    if (!report.available) {
        std::printf("%s\n", report.message.c_str());
        return 2;
    }
    const DeviceDiscovery disc = discoverDevices();
    const DeviceTraits traits = traitsFor(disc.devices.at(0));
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
        if (so.fbpOnly || !selectsVariant(so, info.id, info.family)) continue;
        Row row{info};
        if (auto cost = costFor(info); cost.isOk()) {
            const Prediction pr = predict(traits, *cost, o.slices);
            row.predicted = pr.gups;
            row.bottleneck = pr.bottleneck;
        }
        auto made = registry.make(info.id);
        Status s = made.status();
        if (auto* bp = made.isOk() ? dynamic_cast<CudaBackProjector*>(made->get()) : nullptr)
            s = timeVariant(bp->context(), o, sino, geom, row);
        if (!s.isOk()) row.status = "FAILED: " + s.message();
        allGood = allGood && row.status == "ok";
        std::fprintf(stderr, "  %-34s %s\n", info.id.c_str(), row.status.c_str());
        rows.push_back(row);
    }
    const FbpBench fbp = benchFbp(registry, traits, o, params, sino);
    const Status& fbpStatus = fbp.status;

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
             << ", \"end_to_end_gups\": " << r.endToEndGups
             << ", \"ok\": " << (r.status == "ok" ? "true" : "false") << "}"
             << (i + 1 < rows.size() ? ",\n" : "\n");
    }
    json << "], \"fbp\": " << fbpJson(fbp, o.fbpSlices) << "}\n";

    std::printf("\n%-34s %10s %-11s %10s %10s  %s\n", "variant", "model GU/s", "bottleneck",
                "kernel", "end-to-end", "status");
    for (const Row& r : rows)
        std::printf("%-34s %10.0f %-11s %10.0f %10.0f  %s\n", r.info.id.c_str(), r.predicted,
                    r.bottleneck.c_str(), r.kernelGups, r.endToEndGups, r.status.c_str());
    printFbp(fbp, o.fbpSlices, o.size, o.projections);
    std::printf("device: %s; JSON: %s\n", report.device.c_str(), o.json.c_str());
    return allGood && fbpStatus.isOk() ? 0 : 1;
}

}  // namespace tomo::cuda
