// The plan of a gridrec reconstruction: sizes, kernel, filter, views, deapodisation
// (FourierPlan.h).
#include "core/fourier/FourierPlan.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>

#include "core/filter/ComplexRowFft.h"

namespace tomo {
namespace {

using std::numbers::pi;

constexpr double kCandidateOversampling[] = {1.25, 1.5, 2.0, 3.0};

int gridLength(int n, double oversampling, FftSizeRule rule) {
    const auto atLeast = static_cast<std::size_t>(std::ceil(oversampling * n - 1e-9));
    return static_cast<int>(rule == FftSizeRule::PowerOfTwo ? powerOfTwoLength(atLeast)
                                                            : smoothLength(atLeast, true));
}

double log2d(double x) {
    return std::log2(std::max(x, 2.0));
}

/// Seconds per slice of a plan with these sizes (FourierCostModel).
double costPerSlice(const FourierCostModel& cost, int width, int mx, int my, int nx, int views,
                    int rowLength) {
    const double samples = 0.5 * views * (rowLength + 1.0);
    const double grid = double(mx) * my * log2d(mx) + double(nx) * my * log2d(my);
    const double rows = width * (width > 8 ? 2.0 : 1.0);  // vectors of 8 complex per row
    return samples * (cost.secondsPerSample + cost.secondsPerRow * rows +
                      cost.secondsPerTap * width * width) +
           cost.secondsPerFftPoint * grid +
           cost.rowSecondsPerPoint * 0.5 * views * rowLength * log2d(rowLength);
}

std::vector<float> deapodisation(const GriddingKernel& k, int n, int m) {
    std::vector<float> d(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) {
        const int j = i - n / 2;
        const double sign = (j % 2 == 0) ? 1.0 : -1.0;
        d[static_cast<std::size_t>(i)] = static_cast<float>(sign / k.transform(double(j) / m));
    }
    return d;
}

}  // namespace

Status GridrecOptions::validate() const {
    TOMO_RETURN_IF_ERROR(filter.validate());
    if (!(tolerance > 0 && tolerance < 1))
        return invalidArgument("gridrec tolerance " + std::to_string(tolerance) +
                               " is outside (0, 1)");
    if (oversampling != 0 && !(oversampling >= GriddingKernel::kMinOversampling &&
                               oversampling <= GriddingKernel::kMaxOversampling))
        return invalidArgument("gridrec oversampling " + std::to_string(oversampling) +
                               " is outside [1.1, 4] (0: automatic)");
    if (kernelWidth != 0 &&
        (kernelWidth < GriddingKernel::kMinWidth || kernelWidth > GriddingKernel::kMaxWidth))
        return invalidArgument("gridrec kernel width " + std::to_string(kernelWidth) +
                               " is outside [2, 16] (0: automatic)");
    return Status::ok();
}

Result<GridrecInterpolation> parseGridrecInterpolation(std::string_view name) {
    if (name == "linear") return GridrecInterpolation::Linear;
    if (name == "nearest") return GridrecInterpolation::Nearest;
    if (name == "trigonometric") return GridrecInterpolation::Trigonometric;
    return invalidArgument("gridrec interpolation '" + std::string(name) +
                           "': expected linear, nearest or trigonometric");
}

double interpolationResponse(GridrecInterpolation interpolation, double f) {
    if (interpolation == GridrecInterpolation::Trigonometric || f == 0) return 1.0;
    const double sinc = std::sin(pi * f) / (pi * f);  // the box of nearest; its square: linear
    return interpolation == GridrecInterpolation::Nearest ? sinc : sinc * sinc;
}

Result<GridrecPrecision> parseGridrecPrecision(std::string_view name) {
    if (name == "float32") return GridrecPrecision::Float32;
    if (name == "half") return GridrecPrecision::Half;
    return invalidArgument("gridrec precision '" + std::string(name) +
                           "': expected float32 or half");
}

const char* gridrecPrecisionName(GridrecPrecision p) {
    return p == GridrecPrecision::Half ? "half" : "float32";
}

Result<GriddingChoice> chooseGridding(const GridrecOptions& options, int nx, int ny, int views,
                                      int rowLength, FftSizeRule rule,
                                      const FourierCostModel& cost) {
    TOMO_RETURN_IF_ERROR(options.validate());
    std::vector<double> candidates(std::begin(kCandidateOversampling),
                                   std::end(kCandidateOversampling));
    if (options.oversampling > 0) candidates = {options.oversampling};
    GriddingChoice best;
    double bestCost = 0;
    for (double wanted : candidates) {
        // The kernel is designed for the oversampling the fast lengths give (a power of two
        // may give much more than asked for).
        const int mx = gridLength(nx, wanted, rule), my = gridLength(ny, wanted, rule);
        const double s =
            std::min({double(mx) / nx, double(my) / ny, GriddingKernel::kMaxOversampling});
        const int width =
            options.kernelWidth > 0 ? options.kernelWidth : widthForTolerance(options.tolerance, s);
        TOMO_ASSIGN_OR_RETURN(GriddingKernel k, GriddingKernel::create(width, s));
        const double error = k.predictedError();
        const bool meets = error <= options.tolerance || options.kernelWidth > 0;
        const double c = costPerSlice(cost, width, mx, my, nx, views, rowLength);
        // The cheapest choice that meets the tolerance; while none does, the most accurate.
        const bool bestMeets = best.width > 0 && best.predictedError <= options.tolerance;
        const bool better = best.width == 0 || (meets && !bestMeets) ||
                            (meets && bestMeets && c < bestCost) ||
                            (!meets && !bestMeets && error < best.predictedError);
        if (better) {
            best = {width, s, error};
            bestCost = c;
        }
    }
    return best;
}

Result<FourierPlan> FourierPlan::create(const ParallelGeometry& geom, const VolumeGeometry& vol,
                                        const GridrecOptions& options, FftSizeRule rule,
                                        const FourierCostModel& cost) {
    TOMO_RETURN_IF_ERROR(options.validate());
    TOMO_RETURN_IF_ERROR(vol.validate());
    TOMO_ASSIGN_OR_RETURN(
        RampFilter filter,
        RampFilter::create(geom.detectorCount(), geom.detectorPitch(), options.filter));
    FourierPlan plan;
    plan.m_detectors = geom.detectorCount();
    plan.m_rowLength = filter.paddedWidth();
    plan.m_nx = vol.nx;
    plan.m_ny = vol.ny;
    TOMO_ASSIGN_OR_RETURN(
        GriddingChoice choice,
        chooseGridding(options, vol.nx, vol.ny, geom.angleCount(), plan.m_rowLength, rule, cost));
    TOMO_ASSIGN_OR_RETURN(plan.m_kernel, GriddingKernel::create(choice.width, choice.oversampling));
    plan.m_gridX = gridLength(vol.nx, choice.oversampling, rule);
    plan.m_gridY = gridLength(vol.ny, choice.oversampling, rule);
    if (plan.m_gridX < 2 * choice.width || plan.m_gridY < 2 * choice.width)
        return invalidArgument("gridrec: a " + std::to_string(vol.nx) + "x" +
                               std::to_string(vol.ny) + " image is too small for a kernel of " +
                               std::to_string(choice.width) + " points");
    const std::span<const float> response = filter.response();
    plan.m_response.resize(response.size());
    for (std::size_t k = 0; k < response.size(); ++k)
        plan.m_response[k] =
            static_cast<float>(response[k] * interpolationResponse(options.interpolation,
                                                                   double(k) / plan.m_rowLength));

    // Views: positions per k, the phase of the axis and the grid origin, the angular weight.
    const double d = geom.detectorPitch(), v = vol.voxelSize, l = plan.m_rowLength;
    const double x0 = vol.x(vol.nx / 2), y0 = vol.y(vol.ny / 2);
    const std::vector<double> weights = geom.angularWeights();
    plan.m_views.resize(static_cast<std::size_t>(geom.angleCount()));
    for (int p = 0; p < geom.angleCount(); ++p) {
        const double c = std::cos(geom.angle(p)), s = std::sin(geom.angle(p));
        View& view = plan.m_views[static_cast<std::size_t>(p)];
        view.ux = c * v * plan.m_gridX / (l * d);
        view.uy = -s * v * plan.m_gridY / (l * d);
        view.phase = 2.0 * pi * (geom.center(p) + (x0 * c + y0 * s) / d) / l;
        view.weight = static_cast<float>(weights[static_cast<std::size_t>(p)]);
    }
    plan.m_deapodX = deapodisation(plan.m_kernel, vol.nx, plan.m_gridX);
    plan.m_deapodY = deapodisation(plan.m_kernel, vol.ny, plan.m_gridY);
    return plan;
}

GriddingChoice FourierPlan::choice() const {
    return {m_kernel.width(), m_kernel.oversampling(), m_kernel.predictedError()};
}

int FourierPlan::gridColumn(int ix) const {
    const int j = ix - m_nx / 2;
    return ((j % m_gridX) + m_gridX) % m_gridX;
}

int FourierPlan::gridRow(int iy) const {
    const int j = iy - m_ny / 2;
    return ((j % m_gridY) + m_gridY) % m_gridY;
}

double FourierPlan::predictedSeconds(const FourierCostModel& cost, int slices) const {
    return slices * costPerSlice(cost, m_kernel.width(), m_gridX, m_gridY, m_nx,
                                 static_cast<int>(m_views.size()), m_rowLength);
}

std::string FourierPlan::describe() const {
    char text[200];
    std::snprintf(text, sizeof text,
                  "kernel width %d, oversampling %.3g (%dx%d grid), rows of %d, predicted "
                  "gridding error %.1e",
                  m_kernel.width(), m_kernel.oversampling(), m_gridX, m_gridY, m_rowLength,
                  choice().predictedError);
    return text;
}

}  // namespace tomo
