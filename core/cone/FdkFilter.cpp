// FDK's filter stage on the host (Fdk.h: FdkFilter), its options and the reader of views held
// in memory.
#include <algorithm>
#include <chrono>

#include "core/base/Parallel.h"
#include "core/cone/Fdk.h"

namespace tomo {
namespace {

double since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
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

int fdkBatch(const ConeGeometry& g, const FdkOptions& o, const ConeBackProjector& bp) {
    return std::clamp(o.batch > 0 ? o.batch : bp.preferredBatch(), 1, g.viewCount());
}

Status copyHeldViews(const Array3<float>& held, std::size_t first, View2<float> out, int threads) {
    const std::size_t nv = held.dim(1);
    if (nv == 0 || out.rows() % nv != 0 || out.cols() != held.dim(2) ||
        first + out.rows() / nv > held.dim(0))
        return internalError("copyHeldViews: the views do not fit the memory held");
    const View2<const float> src = held.rows().rowRange(first * nv, out.rows());
    constexpr std::size_t kRowsPerTask = 64;  // 64 rows of 2048 floats: 512 KiB a task
    const std::size_t tasks = (out.rows() + kRowsPerTask - 1) / kRowsPerTask;
    // A thread per 4 MiB at most: a small batch is copied faster than threads start.
    const std::size_t bytes = out.rows() * out.cols() * sizeof(float);
    const int workers = static_cast<int>(
        std::clamp<std::size_t>(bytes >> 22, 1, static_cast<std::size_t>(resolveThreads(threads))));
    return parallelFor(tasks, workers, {}, [&](std::size_t t, int) {
        const std::size_t end = std::min(out.rows(), (t + 1) * kRowsPerTask);
        for (std::size_t r = t * kRowsPerTask; r < end; ++r)
            std::copy_n(src.row(r).data(), out.cols(), out.row(r).data());
    });
}

Status FdkFilter::readAndApply(const ConeViewReader& read, int first, int count, Array3<float>& out,
                               FdkTimings& timings, const ExecContext& ctx) const {
    const DetectorGrid& d = m_weights.geometry().detector();
    const auto n = static_cast<std::size_t>(count);
    auto t0 = std::chrono::steady_clock::now();  // the allocation counts as the read
    if (out.dim(0) != n || out.dim(1) != std::size_t(d.nv) || out.dim(2) != std::size_t(d.nu)) {
        TOMO_ASSIGN_OR_RETURN(out, Array3<float>::create(n, std::size_t(d.nv), std::size_t(d.nu)));
    }
    TOMO_RETURN_IF_ERROR(read(first, count, out.rows()));
    timings.read += since(t0);
    t0 = std::chrono::steady_clock::now();
    TOMO_RETURN_IF_ERROR(apply(first, out.rows(), ctx));
    timings.filter += since(t0);
    return Status::ok();
}

void FdkFilter::weigh(int first, View2<float> views) const {
    const auto nv = static_cast<std::size_t>(m_weights.geometry().detector().nv);
    for (std::size_t p = 0; p * nv < views.rows(); ++p)
        m_weights.apply(first + static_cast<int>(p), views.rowRange(p * nv, nv));
}

Status FdkFilter::apply(int first, View2<float> views, const ExecContext& ctx) const {
    weigh(first, views);
    ExecContext inner = ctx;
    inner.progress = nullptr;
    return m_ramp.apply(views, inner);
}

}  // namespace tomo
