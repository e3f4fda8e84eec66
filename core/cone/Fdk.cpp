#include "core/cone/Fdk.h"

#include <algorithm>
#include <chrono>
#include <future>
#include <memory>

namespace tomo {
namespace {

using Clock = std::chrono::steady_clock;

double since(Clock::time_point t0) {
    return std::chrono::duration<double>(Clock::now() - t0).count();
}

struct Batch {
    std::shared_ptr<const Array3<float>> views;
    double readSeconds = 0, filterSeconds = 0;
};

struct Plan {
    int batch = 16, batches = 1, planes = 1;
    bool cache = false;
};

Plan planFdk(const ConeGeometry& g, const ConeVolumeGrid& grid, const FdkOptions& o,
             const ConeBackProjector& bp) {
    Plan p;
    const int np = g.viewCount();
    p.batch = std::clamp(o.batch > 0 ? o.batch : bp.preferredBatch(), 1, np);
    p.batches = (np + p.batch - 1) / p.batch;
    const DetectorGrid& d = g.detector();
    const std::size_t viewBytes = 4 * static_cast<std::size_t>(d.nu + 3) * (d.nv + 3);
    const std::size_t plane = static_cast<std::size_t>(grid.nx) * grid.ny;
    const std::size_t fixed = 4 * viewBytes * static_cast<std::size_t>(p.batch);
    const std::size_t filtered = viewBytes * static_cast<std::size_t>(np);
    auto planesFor = [&](std::size_t budget) {
        const std::size_t avail = budget > fixed ? budget - fixed : 0;
        return static_cast<int>(std::clamp<std::size_t>(avail / (8 * plane), 1, grid.nz));
    };
    p.planes = o.slabPlanes > 0 ? std::min(o.slabPlanes, grid.nz) : planesFor(o.memoryBudget);
    if (p.planes < grid.nz && filtered <= o.memoryBudget / 2) {
        p.cache = true;
        if (o.slabPlanes <= 0) p.planes = planesFor(o.memoryBudget - filtered);
    }
    return p;
}

}  // namespace

Status FdkOptions::validate() const {
    TOMO_RETURN_IF_ERROR(filter.validate());
    TOMO_RETURN_IF_ERROR(weights.validate());
    if (batch < 0 || batch > 4096) return invalidArgument("FDK batch must be in [0, 4096]");
    if (slabPlanes < 0) return invalidArgument("FDK slab planes must not be negative");
    if (memoryBudget < (std::size_t(1) << 20))
        return invalidArgument("the memory budget must be at least 1 MiB");
    return Status::ok();
}

Result<FdkFilter> FdkFilter::create(const ConeGeometry& geometry, const FdkOptions& options) {
    TOMO_RETURN_IF_ERROR(options.validate());
    TOMO_ASSIGN_OR_RETURN(FdkWeights weights, FdkWeights::create(geometry, options.weights));
    TOMO_ASSIGN_OR_RETURN(
        RampFilter ramp,
        RampFilter::create(geometry.detector().nu, geometry.detector().pitchU, options.filter));
    return FdkFilter(std::move(weights), std::move(ramp));
}

Status FdkFilter::apply(int first, Array3<float>& views, const ExecContext& ctx) const {
    for (std::size_t p = 0; p < views.dim(0); ++p)
        m_weights.apply(first + static_cast<int>(p), views.plane(p));
    ExecContext inner = ctx;
    inner.progress = nullptr;
    return m_ramp.apply(views.rows(), inner);
}

Result<FdkReport> runFdk(const ConeGeometry& geometry, const ConeVolumeGrid& grid,
                         const FdkOptions& options, ConeBackProjector& bp,
                         const ConeViewReader& read, const ConeSlabSink& sink,
                         const ExecContext& ctx) {
    TOMO_RETURN_IF_ERROR(grid.validate());
    TOMO_ASSIGN_OR_RETURN(FdkFilter filter, FdkFilter::create(geometry, options));
    const auto start = Clock::now();
    Plan plan = planFdk(geometry, grid, options, bp);
    FdkReport report;
    report.variant = bp.info().id;
    report.notes = filter.weights().notes();
    report.warnings = filter.weights().warnings();
    const int np = geometry.viewCount();
    std::vector<std::shared_ptr<const Array3<float>>> cache(
        plan.cache ? static_cast<std::size_t>(plan.batches) : 0);
    auto produce = [&](int b) -> Result<Batch> {
        const int first = b * plan.batch, count = std::min(plan.batch, np - first);
        if (plan.cache && cache[static_cast<std::size_t>(b)])
            return Batch{cache[static_cast<std::size_t>(b)], 0, 0};
        Batch out;
        auto views = std::make_shared<Array3<float>>();
        auto t0 = Clock::now();
        TOMO_RETURN_IF_ERROR(read(first, count, *views));
        out.readSeconds = since(t0);
        t0 = Clock::now();
        TOMO_RETURN_IF_ERROR(filter.apply(first, *views, ctx));
        out.filterSeconds = since(t0);
        out.views = std::move(views);
        if (plan.cache) cache[static_cast<std::size_t>(b)] = out.views;
        return out;
    };
    // Devices back-project while the CPU reads and filters the next batch.
    const auto policy = bp.info().backend == "cpu" ? std::launch::deferred : std::launch::async;
    int firstPlane = 0;
    const int slabs = (grid.nz + plan.planes - 1) / plan.planes;
    if (ctx.progress) ctx.progress->setTotal(static_cast<std::uint64_t>(slabs) * plan.batches);
    while (firstPlane < grid.nz) {
        const int planes = std::min(plan.planes, grid.nz - firstPlane);
        Status began = bp.begin(geometry, grid, firstPlane, planes, ctx);
        if (began.code() == ErrorCode::OutOfMemory && planes > 1 && options.slabPlanes <= 0) {
            plan.planes = std::max(1, planes / 2);  // a smaller slab, as the device allows
            report.notes.push_back("slab reduced to " + std::to_string(plan.planes) +
                                   " planes: " + began.message());
            continue;
        }
        TOMO_RETURN_IF_ERROR(began);
        auto next = std::async(policy, produce, 0);
        for (int b = 0; b < plan.batches; ++b) {
            Result<Batch> batch = next.get();
            if (b + 1 < plan.batches) next = std::async(policy, produce, b + 1);
            TOMO_RETURN_IF_ERROR(batch.status());
            report.timings.read += batch->readSeconds;
            report.timings.filter += batch->filterSeconds;
            const auto t0 = Clock::now();
            TOMO_RETURN_IF_ERROR(bp.add(b * plan.batch, *batch->views, ctx));
            report.timings.backProject += since(t0);
            if (ctx.stop.stop_requested()) return cancelled();
            if (ctx.progress) ctx.progress->advance(1);
        }
        const auto t0 = Clock::now();
        TOMO_ASSIGN_OR_RETURN(Volume volume, bp.finish(ctx));
        TOMO_RETURN_IF_ERROR(sink(firstPlane, std::move(volume)));
        report.timings.store += since(t0);
        firstPlane += planes;
        ++report.slabs;
    }
    report.slabPlanes = plan.planes;
    report.batch = plan.batch;
    report.filteredCached = plan.cache;
    report.timings.total = since(start);
    report.gups = static_cast<double>(grid.voxels()) * np /
                  (std::max(report.timings.total, 1e-9) * 1073741824.0);
    return report;
}

}  // namespace tomo
