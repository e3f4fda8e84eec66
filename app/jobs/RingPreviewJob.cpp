#include "app/jobs/RingPreviewJob.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "app/jobs/CenterJob.h"
#include "core/preprocess/StripeRemoval.h"

namespace tomo::app {
namespace {

SliceImage difference(const SliceImage& after, const SliceImage& before) {
    SliceImage d = after;
    for (std::size_t i = 0; i < d.values.size(); ++i)
        d.values[i] -= before.values[i];
    return d;
}

/// @p data's geometry and grid with one sinogram, @p sinogram.
Dataset oneSlice(const Dataset& data, const SliceImage& sinogram) {
    Dataset one{data.geometry, data.grid, Sinograms(1, sinogram.rows, sinogram.cols)};
    one.grid.nz = 1;
    View2<float> plane = one.sinograms.plane(0);  // rows padded to the pitch
    for (std::size_t r = 0; r < sinogram.rows; ++r)
        std::copy_n(sinogram.values.begin() + static_cast<std::ptrdiff_t>(r * sinogram.cols),
                    sinogram.cols, plane.row(r).data());
    return one;
}

}  // namespace

Result<RingPreview> ringPreview(const Engine& engine, const Dataset& data, int slice,
                                const PreprocessOptions& options, const ExecContext& ctx) {
    if (slice < 0 || static_cast<std::size_t>(slice) >= data.sinograms.dim(0))
        return invalidArgument("ring preview: slice " + std::to_string(slice) +
                               " is outside the dataset's " +
                               std::to_string(data.sinograms.dim(0)) + " slices");
    RingPreview p;
    const View2<const float> sino = data.sinograms.plane(static_cast<std::size_t>(slice));
    p.sinogramBefore = SliceImage::copyOf(sino);
    p.sinogramAfter = p.sinogramBefore;
    View2<float> after(p.sinogramAfter.values.data(), sino.rows(), sino.cols(), sino.cols());
    if (options.rings == RingMethod::Sorting) {
        TOMO_RETURN_IF_ERROR(removeStripesSorting(after, options.sorting));
    } else if (options.rings == RingMethod::FourierWavelet) {
        TOMO_RETURN_IF_ERROR(removeStripesFourierWavelet(after, options.fourierWavelet));
    }
    p.sinogramDifference = difference(p.sinogramAfter, p.sinogramBefore);
    const std::size_t cols = p.sinogramDifference.cols;
    std::vector<char> changed(cols, 0);
    for (std::size_t i = 0; i < p.sinogramDifference.values.size(); ++i) {
        const double v = std::fabs(p.sinogramDifference.values[i]);
        p.largestChange = std::max(p.largestChange, v);
        if (v > 0) changed[i % cols] = 1;
    }
    p.changedColumns = static_cast<std::size_t>(std::count(changed.begin(), changed.end(), 1));
    TOMO_RETURN_IF_ERROR(checkStop(ctx.stop));
    const double centre = data.geometry.centerOfRotation();
    TOMO_ASSIGN_OR_RETURN(
        p.sliceBefore,
        reconstructSliceAtCenter(engine, oneSlice(data, p.sinogramBefore), 0, centre, {}, "", ctx));
    TOMO_ASSIGN_OR_RETURN(
        p.sliceAfter,
        reconstructSliceAtCenter(engine, oneSlice(data, p.sinogramAfter), 0, centre, {}, "", ctx));
    p.sliceDifference = difference(p.sliceAfter, p.sliceBefore);
    return p;
}

}  // namespace tomo::app
