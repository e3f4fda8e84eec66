#include "app/jobs/CenterJob.h"

#include <cmath>
#include <cstring>

#include "app/Backends.h"
#include "app/Engine.h"
#include "core/recon/Fbp.h"

namespace tomo::app {

namespace {

Status checkSlice(const Dataset& data, int slice) {
    if (slice < 0 || static_cast<std::size_t>(slice) >= data.sinograms.dim(0))
        return invalidArgument("slice " + std::to_string(slice) + " is outside the dataset's " +
                               std::to_string(data.sinograms.dim(0)) + " slice(s)");
    return Status::ok();
}

/// The sinogram of one slice as a one-slice stack.
Sinograms sliceStack(const Dataset& data, int slice) {
    View2<const float> src = data.sinograms.plane(static_cast<std::size_t>(slice));
    Sinograms one(1, src.rows(), src.cols());
    for (std::size_t r = 0; r < src.rows(); ++r)
        std::memcpy(one.plane(0).row(r).data(), src.row(r).data(), src.cols() * sizeof(float));
    return one;
}

/// The service's request for @p one (a one-slice stack) with the axis at @p center and the
/// back-projector @p variantId (or @p method).
Result<ReconRequest> oneSliceRequest(const Dataset& data, std::shared_ptr<const Sinograms> one,
                                     double center, const FilterOptions& filter,
                                     const std::string& variantId, const AnalyticMethod& method) {
    const int width = data.geometry.detectorCount();
    if (!std::isfinite(center) || center < 0 || center > width - 1)
        return invalidArgument("centre " + std::to_string(center) +
                               " is outside the detector [0, " + std::to_string(width - 1) + "]");
    ParallelGeometry::Params params = data.geometry.params();
    params.rows = 1;
    params.centerOfRotation = center;
    TOMO_ASSIGN_OR_RETURN(ParallelGeometry geometry, ParallelGeometry::create(params));
    VolumeGeometry grid = data.grid;
    grid.nz = 1;
    ReconRequest request(memorySource(std::move(one)), std::move(geometry), grid);
    request.fbp.filter = filter;
    applyMethod(request, variantId, method);
    return request;
}

/// Reconstructs @p one through the service (app/recon/ReconService.h).
Result<SliceImage> reconstructOne(const Engine& engine, const Dataset& data,
                                  std::shared_ptr<const Sinograms> one, double center,
                                  const FilterOptions& filter, const std::string& variantId,
                                  const ExecContext& ctx, const AnalyticMethod& method = {}) {
    TOMO_ASSIGN_OR_RETURN(ReconRequest request,
                          oneSliceRequest(data, std::move(one), center, filter, variantId, method));
    TOMO_ASSIGN_OR_RETURN(ReconReport report, ReconService(engine).run(request, {}, ctx));
    return SliceImage::copyOf(report.image.plane(0));
}

Result<std::unique_ptr<BackProjector>> makeBackProjector(const Engine& engine,
                                                         const std::string& variantId) {
    return engine.registry().make(variantId.empty() ? engine.defaultVariant() : variantId);
}

}  // namespace

Result<SliceImage> reconstructSliceAtCenter(const Engine& engine, const Dataset& data, int slice,
                                            double center, const FilterOptions& filter,
                                            const std::string& variantId, const ExecContext& ctx,
                                            const AnalyticMethod& method) {
    TOMO_RETURN_IF_ERROR(checkSlice(data, slice));
    return reconstructOne(engine, data, std::make_shared<const Sinograms>(sliceStack(data, slice)),
                          center, filter, variantId, ctx, method);
}

Status prepareSliceAtCenter(const Engine& engine, const Dataset& data, int slice, double center,
                            const FilterOptions& filter, const std::string& variantId,
                            const AnalyticMethod& method) {
    TOMO_RETURN_IF_ERROR(checkSlice(data, slice));
    TOMO_ASSIGN_OR_RETURN(
        ReconRequest request,
        oneSliceRequest(data, std::make_shared<const Sinograms>(sliceStack(data, slice)), center,
                        filter, variantId, method));
    return ReconService(engine).prepare(request);
}

Result<CenterEstimate> estimateDatasetCenter(const Dataset& data, int slice,
                                             const ExecContext& ctx) {
    TOMO_RETURN_IF_ERROR(checkSlice(data, slice));
    return estimateCenterVo(data.sinograms.plane(static_cast<std::size_t>(slice)),
                            data.geometry.angles(), VoCenterOptions{}, ctx);
}

Result<CenterSweep> sweepDatasetCenter(const Engine& engine, const Dataset& data, int slice,
                                       double from, double to, int count,
                                       const FilterOptions& filter, const std::string& variantId,
                                       const ExecContext& ctx, const AnalyticMethod& method) {
    TOMO_RETURN_IF_ERROR(checkSlice(data, slice));
    if (count < 2 || !(from < to))
        return invalidArgument("centre sweep: needs at least 2 trials over a range from < to");
    TOMO_ASSIGN_OR_RETURN(auto backProjector, makeBackProjector(engine, variantId));
    const auto one = std::make_shared<const Sinograms>(sliceStack(data, slice));
    Progress slicesScope =
        ctx.progress ? ctx.progress->child(0.0, 0.5, "trial slices") : Progress();
    if (ctx.progress) slicesScope.setTotal(static_cast<std::uint64_t>(count));
    ExecContext inner{ctx.threads, ctx.stop, nullptr};
    CenterSweep sweep;
    sweep.curveBackProjector = backProjector->info().id;
    for (int i = 0; i < count; ++i) {
        TOMO_RETURN_IF_ERROR(checkStop(ctx.stop));
        double c = from + (to - from) * i / (count - 1);
        TOMO_ASSIGN_OR_RETURN(SliceImage image, reconstructOne(engine, data, one, c, filter,
                                                               variantId, inner, method));
        sweep.centers.push_back(c);
        sweep.slices.push_back(std::move(image));
        if (ctx.progress) slicesScope.advance();
    }
    SharpnessSweepOptions options;
    options.searchCenter = 0.5 * (from + to);
    options.searchRadius = 0.5 * (to - from);
    options.step = (to - from) / (count - 1);
    options.filter = filter;
    options.backProjector = backProjector.get();
    Progress curveScope = ctx.progress ? ctx.progress->child(0.5, 1.0, "sharpness") : Progress();
    ExecContext curveCtx{ctx.threads, ctx.stop, ctx.progress ? &curveScope : nullptr};
    TOMO_ASSIGN_OR_RETURN(
        sweep.curve,
        estimateCenterSharpness(one->plane(0), data.geometry.angles(), options, curveCtx));
    return sweep;
}

}  // namespace tomo::app
