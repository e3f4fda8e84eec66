// The teaching mode's cone-beam lesson (ConeTeachingJob.h): FDK's stages on one view per frame
// and the back-projection of an axial plane built up view by view.
#include "app/jobs/ConeTeachingJob.h"

#include <algorithm>
#include <cmath>

#include "app/jobs/ConePlane.h"
#include "core/cone/ConePhantom.h"
#include "core/geometry/ParallelGeometry.h"

namespace tomo::app {
namespace {

/// Views [first, first + count) of @p views as their own stack.
Result<Array3<float>> viewRange(const Array3<float>& views, int first, int count) {
    TOMO_ASSIGN_OR_RETURN(Array3<float> out, Array3<float>::create(static_cast<std::size_t>(count),
                                                                   views.dim(1), views.dim(2)));
    for (int p = 0; p < count; ++p)
        for (std::size_t r = 0; r < views.dim(1); ++r)
            std::copy_n(views.row(static_cast<std::size_t>(first + p), r).begin(), views.dim(2),
                        out.row(static_cast<std::size_t>(p), r).begin());
    return out;
}

/// The cosine weight of view 0 over the detector and its smallest value.
void cosineImage(const FdkWeights& weights, const DetectorGrid& d, ConeTeachingResult& out) {
    out.cosine.rows = static_cast<std::size_t>(d.nv);
    out.cosine.cols = static_cast<std::size_t>(d.nu);
    out.cosine.values.resize(out.cosine.rows * out.cosine.cols);
    out.cosineMin = 1;
    for (int iv = 0; iv < d.nv; ++iv)
        for (int iu = 0; iu < d.nu; ++iu) {
            const double c = weights.cosine(0, iu, iv);
            out.cosine.values[static_cast<std::size_t>(iv) * out.cosine.cols +
                              static_cast<std::size_t>(iu)] = static_cast<float>(c);
            out.cosineMin = std::min(out.cosineMin, c);
        }
}

/// View @p view raw, weighted and filtered (weights and ramp) into the frame lists.
Status projectionStages(const Array3<float>& projections, const FdkFilter& filter, int view,
                        ConeTeachingResult& out, const ExecContext& ctx) {
    TOMO_ASSIGN_OR_RETURN(Array3<float> one, viewRange(projections, view, 1));
    out.raw.push_back(SliceImage::copyOf(one.plane(0)));
    Array3<float> weighted = one.clone();
    filter.weights().apply(view, weighted.plane(0));
    out.weighted.push_back(SliceImage::copyOf(weighted.plane(0)));
    TOMO_RETURN_IF_ERROR(filter.apply(view, one.rows(), ctx));
    out.filtered.push_back(SliceImage::copyOf(one.plane(0)));
    return Status::ok();
}

/// The frame count: at most maxFrames and views, and the frames' pictures within the budget.
int frameCount(const ConeTeachingSpec& spec, const ConeGeometry& g) {
    const std::size_t perFrame = 3 * sizeof(float) * static_cast<std::size_t>(g.detector().nu) *
                                 static_cast<std::size_t>(g.detector().nv);
    const auto fit = static_cast<int>(std::min<std::size_t>(
        std::max<std::size_t>(spec.projectionBudget / std::max<std::size_t>(perFrame, 1), 2),
        1 << 20));
    return std::max(1, std::min({spec.maxFrames, g.viewCount(), fit}));
}

}  // namespace

Result<ConeDataset> makeTeachingConeData(int size, int views, const ExecContext& ctx) {
    if (size < 8 || views < 2)
        return invalidArgument("cone teaching data: size >= 8 and views >= 2 needed");
    const double sid = 2.5 * size;
    TOMO_ASSIGN_OR_RETURN(ConeGeometry g, conePhantomGeometry(size, sid, 1.5 * sid, views, 360));
    const ConeVolumeGrid grid = ConeVolumeGrid::centred(size, size, size, 1.0);
    const ConePhantom phantom = ConePhantom::sheppLogan(0.5 * size);
    ExecContext quiet{ctx.threads, ctx.stop, nullptr};
    TOMO_ASSIGN_OR_RETURN(Array3<float> projections, phantom.project(g, 2, quiet));
    TOMO_ASSIGN_OR_RETURN(Volume truth, phantom.rasterize(grid, 2, quiet));
    TOMO_ASSIGN_OR_RETURN(Volume axial, axialPlanes(truth));
    ConeDataset data{std::make_shared<const Array3<float>>(std::move(projections)),
                     std::move(g),
                     grid,
                     std::move(axial),
                     grid,
                     {"built-in 3-D Shepp-Logan phantom (exact line integrals)"},
                     {},
                     "none"};
    return data;
}

Result<ConeTeachingResult> runConeTeachingJob(const Engine& engine,
                                              std::shared_ptr<const ConeDataset> data,
                                              const ConeTeachingSpec& spec,
                                              const ExecContext& ctx) {
    if (!data) return invalidArgument("cone teaching: no data");
    if (spec.maxFrames < 1) return invalidArgument("cone teaching: maxFrames >= 1 needed");
    const ConeGeometry& g = data->geometry;
    const ConeVolumeGrid& grid = data->grid;
    ConeTeachingResult out;
    out.plane = spec.plane < 0 ? centralPlane(grid) : spec.plane;
    FdkOptions options;
    TOMO_ASSIGN_OR_RETURN(options.filter.window, parseFilterWindow(spec.filter));
    ExecContext quiet{ctx.threads, ctx.stop, nullptr};
    TOMO_ASSIGN_OR_RETURN(PlaneData crop, cropToPlane(*data->projections, g, grid, out.plane));
    TOMO_ASSIGN_OR_RETURN(FdkFilter filter, FdkFilter::create(g, options));
    TOMO_ASSIGN_OR_RETURN(FdkFilter planeFilter, FdkFilter::create(crop.geometry, options));
    TOMO_RETURN_IF_ERROR(planeFilter.apply(0, crop.views.rows(), quiet));
    out.variant = planeVariant(engine, spec.backend);
    out.filter = spec.filter;
    TOMO_ASSIGN_OR_RETURN(auto bp, engine.coneRegistry().create(out.variant));

    out.data = data;
    out.geometry = describe(g);
    out.sdd = g.view(0).sdd;
    out.planeY = crop.plane.originY;
    out.firstRow = crop.firstRow;
    out.rows = crop.geometry.detector().nv;
    out.notes = filter.weights().notes();
    out.warnings = filter.weights().warnings();
    for (const ConeView& v : g.views())
        out.gantryDeg.push_back(v.gantryAngle * 180.0 / kPi);
    cosineImage(filter.weights(), g.detector(), out);
    const auto j = static_cast<std::size_t>(out.plane);
    if (!data->truth.empty() && data->truth.dim(0) == static_cast<std::size_t>(grid.ny) &&
        data->truth.dim(1) == static_cast<std::size_t>(grid.nz) &&
        data->truth.dim(2) == static_cast<std::size_t>(grid.nx))
        out.truth = SliceImage::copyOf(data->truth.plane(j));

    const int frames = frameCount(spec, g), np = g.viewCount();
    const ConeVolumeGrid& plane = crop.plane;
    std::vector<double> sum(static_cast<std::size_t>(plane.nz) * plane.nx, 0.0);
    if (ctx.progress) ctx.progress->setTotal(static_cast<std::uint64_t>(frames));
    int first = 0;
    for (int k = 0; k < frames; ++k) {
        TOMO_RETURN_IF_ERROR(checkStop(ctx.stop));
        const int last = static_cast<int>((static_cast<long>(k) + 1) * np / frames);
        TOMO_ASSIGN_OR_RETURN(Array3<float> group, viewRange(crop.views, first, last - first));
        TOMO_RETURN_IF_ERROR(bp->begin(crop.geometry, plane, 0, plane.nz, quiet));
        TOMO_RETURN_IF_ERROR(bp->add(first, group, quiet));
        TOMO_ASSIGN_OR_RETURN(Volume part, bp->finish(quiet));  // [nz][1][nx]
        SliceImage image;
        image.rows = static_cast<std::size_t>(plane.nz);
        image.cols = static_cast<std::size_t>(plane.nx);
        image.values.resize(sum.size());
        for (std::size_t z = 0; z < image.rows; ++z)
            for (std::size_t x = 0; x < image.cols; ++x) {
                double& s = sum[z * image.cols + x];
                s += part(z, 0, x);
                image.values[z * image.cols + x] = static_cast<float>(s);
            }
        out.planes.push_back(std::move(image));
        TOMO_RETURN_IF_ERROR(projectionStages(*data->projections, filter, last - 1, out, quiet));
        out.frameEndView.push_back(last);
        first = last;
        if (ctx.progress) ctx.progress->advance();
    }
    return out;
}

}  // namespace tomo::app
