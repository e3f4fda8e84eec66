// The double-precision reference FDK (Fdk.h): the tests' oracle for every back-projector.

#include <cmath>
#include <vector>

#include "core/base/Parallel.h"
#include "core/cone/Fdk.h"
#include "core/geometry/ParallelGeometry.h"

namespace tomo {
namespace {

/// The spatial kernel g[m], m = 0 .. width-1, whose convolution equals RampFilter's response:
/// g = IDFT(R) with R[k] = d DFT(h)[k] window(k / N), N the padded length (RampFilter.h).
std::vector<double> spatialKernel(int width, double pitch, const FilterOptions& filter) {
    int n = 2;
    while (n < 2 * width)
        n *= 2;
    std::vector<double> h(static_cast<std::size_t>(n), 0.0);
    h[0] = 1.0 / (4 * pitch * pitch);
    for (int m = 1; m < n / 2; m += 2) {
        const double v = -1.0 / (m * m * kPi * kPi * pitch * pitch);
        h[static_cast<std::size_t>(m)] = v;
        h[static_cast<std::size_t>(n - m)] = v;
    }
    std::vector<double> response(static_cast<std::size_t>(n / 2 + 1));
    for (int k = 0; k <= n / 2; ++k) {
        double sum = 0;
        for (int m = 0; m < n; ++m)
            sum +=
                h[static_cast<std::size_t>(m)] * std::cos(2 * kPi * static_cast<double>(k) * m / n);
        response[static_cast<std::size_t>(k)] =
            pitch * sum * filterWindowValue(filter, static_cast<double>(k) / n);
    }
    std::vector<double> g(static_cast<std::size_t>(width));
    for (int m = 0; m < width; ++m) {
        double sum = 0;
        for (int k = 0; k < n; ++k)
            sum += response[static_cast<std::size_t>(std::min(k, n - k))] *
                   std::cos(2 * kPi * static_cast<double>(k) * m / n);
        g[static_cast<std::size_t>(m)] = sum / n;
    }
    return g;
}

/// Bilinear over the projection extended by zeros, coordinates clamped to [-1, n].
double sample(const std::vector<double>& q, int nu, int nv, double u, double v) {
    u = std::clamp(u, -1.0, static_cast<double>(nu));
    v = std::clamp(v, -1.0, static_cast<double>(nv));
    const int iu = static_cast<int>(std::floor(u)), iv = static_cast<int>(std::floor(v));
    const double fu = u - iu, fv = v - iv;
    auto at = [&](int a, int b) {
        return a < 0 || b < 0 || a >= nu || b >= nv
                   ? 0.0
                   : q[static_cast<std::size_t>(b) * nu + static_cast<std::size_t>(a)];
    };
    const double top = at(iu, iv) + fu * (at(iu + 1, iv) - at(iu, iv));
    const double bottom = at(iu, iv + 1) + fu * (at(iu + 1, iv + 1) - at(iu, iv + 1));
    return top + fv * (bottom - top);
}

}  // namespace

Result<Volume> referenceFdk(const ConeGeometry& geometry, const Array3<float>& projections,
                            const ConeVolumeGrid& grid, const FdkOptions& options,
                            const ExecContext& ctx) {
    TOMO_RETURN_IF_ERROR(options.validate());
    TOMO_RETURN_IF_ERROR(grid.validate());
    const DetectorGrid& d = geometry.detector();
    const int np = geometry.viewCount(), nu = d.nu, nv = d.nv;
    if (projections.dim(0) != static_cast<std::size_t>(np) ||
        projections.dim(1) != static_cast<std::size_t>(nv) ||
        projections.dim(2) != static_cast<std::size_t>(nu))
        return invalidArgument("reference FDK: projections do not match the geometry");
    TOMO_ASSIGN_OR_RETURN(FdkWeights weights, FdkWeights::create(geometry, options.weights));
    const std::vector<double> g = spatialKernel(nu, d.pitchU, options.filter);
    std::vector<std::vector<double>> filtered(static_cast<std::size_t>(np));
    TOMO_RETURN_IF_ERROR(
        parallelFor(static_cast<std::size_t>(np), ctx.threads, ctx.stop, [&](std::size_t k, int) {
            std::vector<double> p(static_cast<std::size_t>(nu));
            auto& q = filtered[k];
            q.assign(static_cast<std::size_t>(nu) * nv, 0.0);
            for (int iv = 0; iv < nv; ++iv) {
                auto row = projections.row(k, static_cast<std::size_t>(iv));
                for (int iu = 0; iu < nu; ++iu)
                    p[static_cast<std::size_t>(iu)] = row[static_cast<std::size_t>(iu)] *
                                                      weights.weight(static_cast<int>(k), iu, iv);
                for (int iu = 0; iu < nu; ++iu) {
                    double sum = 0;
                    for (int s = 0; s < nu; ++s)
                        sum += p[static_cast<std::size_t>(s)] *
                               g[static_cast<std::size_t>(std::abs(iu - s))];
                    q[static_cast<std::size_t>(iv) * nu + static_cast<std::size_t>(iu)] = sum;
                }
            }
        }));
    std::vector<Matrix34> mats;
    for (int k = 0; k < np; ++k)
        mats.push_back(geometry.indexMatrix(k, grid));
    TOMO_ASSIGN_OR_RETURN(Volume out, Volume::create(static_cast<std::size_t>(grid.nz),
                                                     static_cast<std::size_t>(grid.ny),
                                                     static_cast<std::size_t>(grid.nx)));
    TOMO_RETURN_IF_ERROR(parallelFor(
        static_cast<std::size_t>(grid.nz) * grid.ny, ctx.threads, ctx.stop,
        [&](std::size_t item, int) {
            const double k = static_cast<double>(item / grid.ny);
            const double j = static_cast<double>(item % grid.ny);
            auto row = out.rows().row(item);
            for (int i = 0; i < grid.nx; ++i) {
                double sum = 0;
                for (int p = 0; p < np; ++p) {
                    const Matrix34& m = mats[static_cast<std::size_t>(p)];
                    const double h0 = m[0][0] * i + m[0][1] * j + m[0][2] * k + m[0][3];
                    const double h1 = m[1][0] * i + m[1][1] * j + m[1][2] * k + m[1][3];
                    const double h2 = m[2][0] * i + m[2][1] * j + m[2][2] * k + m[2][3];
                    sum += sample(filtered[static_cast<std::size_t>(p)], nu, nv, h0 / h2, h1 / h2) /
                           (h2 * h2);
                }
                row[static_cast<std::size_t>(i)] = static_cast<float>(sum);
            }
        }));
    return out;
}

}  // namespace tomo
