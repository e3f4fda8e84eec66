#include "app/jobs/TeachingJob.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <span>

#include "app/Backends.h"
#include "app/jobs/FourierSlice.h"
#include "core/iterative/IterativeReconstruction.h"
#include "core/metrics/Metrics.h"

namespace tomo::app {

namespace {

/// Angles [first, last) of @p data's slice 0 as their own sinogram and geometry.
struct AngleGroup {
    Sinograms sino;
    ParallelGeometry geometry;
    std::vector<float> weights;
};

Result<AngleGroup> angleGroup(const Sinograms& sino, const ParallelGeometry& geom,
                              const std::vector<double>& weights, int first, int last) {
    ParallelGeometry::Params params = geom.params();
    params.angles.assign(geom.angles().begin() + first, geom.angles().begin() + last);
    params.rows = 1;
    params.centerCorrection.clear();
    TOMO_ASSIGN_OR_RETURN(ParallelGeometry sub, ParallelGeometry::create(params));
    Sinograms part(1, static_cast<std::size_t>(last - first), sino.dim(2));
    for (int a = first; a < last; ++a)
        std::memcpy(part.plane(0).row(static_cast<std::size_t>(a - first)).data(),
                    sino.plane(0).row(static_cast<std::size_t>(a)).data(),
                    sino.dim(2) * sizeof(float));
    std::vector<float> w(weights.begin() + first, weights.begin() + last);
    return AngleGroup{std::move(part), std::move(sub), std::move(w)};
}

/// An iterative reconstruction of @p data's slice 0 and the iterations it ran.
struct Iterated {
    SliceImage image;
    int iterations = 0;
};

Result<Iterated> iterate(const Dataset& data, const std::string& algorithm,
                         std::map<std::string, std::string> given, const ExecContext& ctx,
                         std::function<void(int, std::span<const float>)> afterSubset = {}) {
    TOMO_ASSIGN_OR_RETURN(AlgorithmSpec spec, findAlgorithm(algorithm));
    IterativeRequest request;
    request.algorithm = algorithm;
    TOMO_ASSIGN_OR_RETURN(request.parameters, ParameterValues::resolve(spec, given));
    request.afterSubset = std::move(afterSubset);
    Volume out;
    SolverSummary summary;
    TOMO_RETURN_IF_ERROR(reconstructIterative(data.sinograms, data.geometry, data.grid, request,
                                              IterationCallback{}, out, summary, ctx));
    return Iterated{SliceImage::copyOf(out.plane(0)), summary.iterations};
}

/// ||b - b_clean|| / ||b|| of @p noisy against the noiseless sinogram of the same spec.
Result<double> relativeNoise(const Dataset& noisy, DemoSpec spec, const ExecContext& ctx) {
    if (spec.incidentCount <= 0) return 0.0;
    spec.incidentCount = 0;
    TOMO_ASSIGN_OR_RETURN(Dataset clean, makeDemoDataset(spec, ctx));
    double noise = 0, signal = 0;
    for (std::size_t a = 0; a < noisy.sinograms.dim(1); ++a)
        for (std::size_t d = 0; d < noisy.sinograms.dim(2); ++d) {
            const double b = noisy.sinograms(0, a, d);
            noise += (b - clean.sinograms(0, a, d)) * (b - clean.sinograms(0, a, d));
            signal += b * b;
        }
    return signal > 0 ? std::sqrt(noise / signal) : 0.0;
}

double rmseOf(const SliceImage& image, const SliceImage& truth) {
    Result<double> r = rmse(image.view(), truth.view());
    return r ? *r : 0.0;
}

/// SIRT, CGLS (stopped at the noise level when asked), TV and single-step ART into @p result.
Status runIterative(const Dataset& data, const DemoSpec& demo, const TeachingSpec& spec,
                    TeachingResult& result, const ExecContext& ctx) {
    TOMO_ASSIGN_OR_RETURN(result.noiseLevel, relativeNoise(data, demo, ctx));
    const std::string tolerance = spec.stopAtNoise ? std::to_string(result.noiseLevel) : "0";
    TOMO_ASSIGN_OR_RETURN(Iterated sirt,
                          iterate(data, "sirt",
                                  {{"iterations", std::to_string(spec.sirtIterations)},
                                   {"relaxation", std::to_string(spec.sirtRelaxation)},
                                   {"tolerance", tolerance},
                                   {"stop", "none"}},
                                  ctx));
    TOMO_ASSIGN_OR_RETURN(Iterated cgls,
                          iterate(data, "cgls",
                                  // The panel's "Stop at the noise level" decides (the tolerance),
                                  // not the default stopping rule (nor SIRT's: its estimate of
                                  // the noise stopped SIRT at 57 iterations, the true level at 65).
                                  {{"iterations", std::to_string(spec.cglsIterations)},
                                   {"tolerance", tolerance},
                                   {"stop", "none"}},
                                  ctx));
    TOMO_ASSIGN_OR_RETURN(Iterated tv, iterate(data, "tv",
                                               {{"iterations", std::to_string(spec.tvIterations)},
                                                {"lambda", std::to_string(spec.tvLambda)}},
                                               ctx));
    // One SART sweep, captured at the end of each frame's angles.
    std::size_t next = 0;
    const auto ny = static_cast<std::size_t>(data.grid.ny),
               nx = static_cast<std::size_t>(data.grid.nx);
    auto capture = [&](int subset, std::span<const float> x) {
        if (next < result.frameEndAngle.size() && subset + 1 == result.frameEndAngle[next]) {
            result.art.push_back(SliceImage::copyOf(View2<const float>(x.data(), ny, nx, nx)));
            ++next;
        }
    };
    TOMO_RETURN_IF_ERROR(iterate(data, "sart", {{"iterations", "1"}}, ctx, capture).status());
    result.sirt = std::move(sirt.image);
    result.cgls = std::move(cgls.image);
    result.tv = std::move(tv.image);
    result.sirtIterations = sirt.iterations;
    result.cglsIterations = cgls.iterations;
    result.sirtRmse = rmseOf(result.sirt, result.truth);
    result.cglsRmse = rmseOf(result.cgls, result.truth);
    result.tvRmse = rmseOf(result.tv, result.truth);
    return Status::ok();
}

}  // namespace

Result<TeachingResult> runTeachingJob(const Engine& engine, const TeachingSpec& spec,
                                      const ExecContext& ctx) {
    if (spec.size < 16 || spec.angles < 2 || spec.maxFrames < 1)
        return invalidArgument("teaching: size >= 16, angles >= 2 and maxFrames >= 1 needed");
    DemoSpec demo = demoSpecForSize(spec.size);
    demo.angles = spec.angles;
    demo.incidentCount = spec.incidentCount;
    demo.raysPerBin = 2;
    ExecContext quiet{ctx.threads, ctx.stop, nullptr};
    TOMO_ASSIGN_OR_RETURN(Dataset data, makeDemoDataset(demo, quiet));
    TOMO_ASSIGN_OR_RETURN(FilterWindow window, parseFilterWindow(spec.filter));
    FilterOptions filterOptions;
    filterOptions.window = window;
    TOMO_ASSIGN_OR_RETURN(RampFilter filter,
                          RampFilter::create(data.geometry.detectorCount(),
                                             data.geometry.detectorPitch(), filterOptions));
    Sinograms filtered = data.sinograms.clone();
    TOMO_RETURN_IF_ERROR(filter.apply(filtered.plane(0), quiet));

    TOMO_ASSIGN_OR_RETURN(auto backProjector, engine.registry().make(engine.defaultVariant()));
    TeachingResult result;
    result.sinogram = SliceImage::copyOf(data.sinograms.plane(0));
    result.truth = SliceImage::copyOf(data.truth.plane(0));
    result.angles = data.geometry.angles();
    result.center = data.geometry.centerOfRotation();
    TOMO_ASSIGN_OR_RETURN(
        result.spectrum,
        logSpectrum(result.truth.view(), fourierLength(result.truth.rows, result.sinogram.cols)));

    const int frames = std::min(spec.angles, spec.maxFrames);
    const std::vector<double> weights = data.geometry.angularWeights();
    Volume sumRaw(1, static_cast<std::size_t>(data.grid.ny),
                  static_cast<std::size_t>(data.grid.nx));
    Volume sumFiltered = sumRaw.clone();
    if (ctx.progress) ctx.progress->setTotal(static_cast<std::uint64_t>(frames));
    int first = 0;
    for (int k = 0; k < frames; ++k) {
        TOMO_RETURN_IF_ERROR(checkStop(ctx.stop));
        const int last = static_cast<int>((static_cast<long>(k) + 1) * spec.angles / frames);
        for (int pass = 0; pass < 2; ++pass) {
            const Sinograms& source = pass == 0 ? data.sinograms : filtered;
            TOMO_ASSIGN_OR_RETURN(AngleGroup group,
                                  angleGroup(source, data.geometry, weights, first, last));
            VolumeGeometry grid = data.grid;
            grid.nz = 1;
            Volume part;
            TOMO_RETURN_IF_ERROR(backProjector->backProject(group.sino, group.geometry, grid,
                                                            group.weights, part, quiet));
            Volume& sum = pass == 0 ? sumRaw : sumFiltered;
            for (std::size_t r = 0; r < sum.dim(1); ++r)
                for (std::size_t c = 0; c < sum.dim(2); ++c)
                    sum(0, r, c) += part(0, r, c);
            (pass == 0 ? result.unfiltered : result.filtered)
                .push_back(SliceImage::copyOf(sum.plane(0)));
        }
        result.frameEndAngle.push_back(last);
        first = last;
        if (ctx.progress) ctx.progress->advance();
    }
    result.fbp = result.filtered.back();
    result.fbpRmse = rmseOf(result.fbp, result.truth);
    if (spec.iterative) TOMO_RETURN_IF_ERROR(runIterative(data, demo, spec, result, quiet));
    return result;
}

}  // namespace tomo::app
