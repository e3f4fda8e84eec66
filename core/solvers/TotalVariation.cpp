#include "core/solvers/TotalVariation.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/base/Parallel.h"
#include "core/solvers/VectorOps.h"

namespace tomo {
namespace {

/// Work items of the difference operators: one per (slice, row).
std::size_t rowItems(const VolumeShape& s) {
    return s.nz * s.ny;
}

/// qx, qy += sigma * D xbar, then each pixel's (qx, qy) is projected onto the disc of radius
/// lambda.
void dualTvStep(std::span<const float> xbar, std::span<float> qx, std::span<float> qy,
                const VolumeShape& s, float sigma, float lambda, const ExecContext& ctx) {
    (void)parallelFor(rowItems(s), ctx.threads, std::stop_token{}, [&](std::size_t item, int) {
        const std::size_t iy = item % s.ny;
        const std::size_t base = item * s.nx;
        for (std::size_t ix = 0; ix < s.nx; ++ix) {
            const std::size_t i = base + ix;
            const float v = xbar[i];
            const float dx = ix + 1 < s.nx ? xbar[i + 1] - v : 0.f;
            const float dy = iy + 1 < s.ny ? xbar[i + s.nx] - v : 0.f;
            const float px = qx[i] + sigma * dx, py = qy[i] + sigma * dy;
            const float mag = std::sqrt(px * px + py * py);
            const float scale = mag > lambda ? lambda / mag : 1.f;
            qx[i] = px * scale;
            qy[i] = py * scale;
        }
    });
}

/// out += D^T q (D^T = -div with the Neumann boundary of the forward differences).
void addDivergenceTranspose(std::span<const float> qx, std::span<const float> qy,
                            std::span<float> out, const VolumeShape& s, const ExecContext& ctx) {
    (void)parallelFor(rowItems(s), ctx.threads, std::stop_token{}, [&](std::size_t item, int) {
        const std::size_t iy = item % s.ny;
        const std::size_t base = item * s.nx;
        for (std::size_t ix = 0; ix < s.nx; ++ix) {
            const std::size_t i = base + ix;
            // (D_x^T q)_i = -q_i (if i has a right neighbour) + q_{i-1} (if i has a left one).
            float v = 0.f;
            if (ix + 1 < s.nx) v -= qx[i];
            if (ix > 0) v += qx[i - 1];
            if (iy + 1 < s.ny) v -= qy[i];
            if (iy > 0) v += qy[i - s.nx];
            out[i] += v;
        }
    });
}

}  // namespace

double totalVariation(std::span<const float> x, const VolumeShape& s, const ExecContext& ctx) {
    std::vector<double> rows(rowItems(s), 0.0);
    (void)parallelFor(rowItems(s), ctx.threads, std::stop_token{}, [&](std::size_t item, int) {
        const std::size_t iy = item % s.ny;
        const std::size_t base = item * s.nx;
        double sum = 0.0;
        for (std::size_t ix = 0; ix < s.nx; ++ix) {
            const std::size_t i = base + ix;
            const double dx = ix + 1 < s.nx ? double(x[i + 1]) - x[i] : 0.0;
            const double dy = iy + 1 < s.ny ? double(x[i + s.nx]) - x[i] : 0.0;
            sum += std::sqrt(dx * dx + dy * dy);
        }
        rows[item] = sum;
    });
    double total = 0.0;
    for (double r : rows)
        total += r;
    return sumAcrossRanks(total, ctx);
}

namespace {

Status tvOnce(LinearOperator& op, std::span<const float> b, std::span<float> x,
              const TvOptions& options, const IterationCallback& onIteration,
              SolverSummary& summary, const ExecContext& ctx) {
    TOMO_RETURN_IF_ERROR(options.validate(op, b, x));
    if (options.shape.size() != op.domainSize())
        return invalidArgument("TV needs the volume shape (options.shape) of the " +
                               std::to_string(op.domainSize()) + "-voxel image");
    if (!(options.lambda > 0) || !std::isfinite(options.lambda))
        return invalidArgument("lambda: TV needs a finite lambda > 0");
    if (!(options.stepBalance > 0) || !std::isfinite(options.stepBalance))
        return invalidArgument("TV: the step balance must be finite and > 0");
    IterationMonitor monitor("tv", options, onIteration, summary, ctx);
    const ExecContext& in = monitor.inner();
    const VolumeShape& shape = options.shape;
    const std::size_t m = op.rangeSize(), n = op.domainSize();
    std::vector<float> sigma(m), tau(n), p(m, 0.f), ax(m), axbar(m), qx(n, 0.f), qy(n, 0.f),
        grad(n), xOld(n);
    const float balance = static_cast<float>(options.stepBalance);
    const float sigmaTv = 0.5f / balance, lambda = static_cast<float>(options.lambda);

    // sigma = 1 / A 1 on data rows; tau = 1 / (A^T 1 + 4).
    fill(grad, 1.f, in);
    if (Status st = op.forward(grad, ax, in); !st) return monitor.fail(st);
    invertWeights(ax, sigma, 1e-12f, in);
    for (float& s : sigma)
        s /= balance;
    fill(p, 1.f, in);
    if (Status st = op.adjoint(p, grad, in); !st) return monitor.fail(st);
    for (std::size_t j = 0; j < n; ++j)
        tau[j] = balance / (std::max(grad[j], 0.f) + 4.f);
    fill(p, 0.f, in);
    monitor.setData(b);
    if (options.nonNegative) clampNonNegative(x, in);

    if (Status st = op.forward(x, ax, in); !st) return monitor.fail(st);
    std::copy(ax.begin(), ax.end(), axbar.begin());
    std::vector<float> xbar(x.begin(), x.end());
    for (;;) {
        // Dual steps.
        for (std::size_t i = 0; i < m; ++i)
            p[i] = (p[i] + sigma[i] * (axbar[i] - b[i])) / (1.f + sigma[i]);
        dualTvStep(xbar, qx, qy, shape, sigmaTv, lambda, in);
        // Primal step.
        if (Status st = op.adjoint(p, grad, in); !st) return monitor.fail(st);
        addDivergenceTranspose(qx, qy, grad, shape, in);
        std::copy(x.begin(), x.end(), xOld.begin());
        for (std::size_t j = 0; j < n; ++j)
            x[j] -= tau[j] * grad[j];
        if (options.nonNegative) clampNonNegative(x, in);
        for (std::size_t j = 0; j < n; ++j)
            xbar[j] = 2.f * x[j] - xOld[j];
        // A x' and A xbar = 2 A x' - A x.
        std::swap(ax, axbar);  // axbar now holds the old A x (scratch)
        if (Status st = op.forward(x, ax, in); !st) return monitor.fail(st);
        for (std::size_t i = 0; i < m; ++i)
            axbar[i] = 2.f * ax[i] - axbar[i];
        // Residual from ax (reuse grad-free scratch: compute the norm directly).
        double res = 0.0;
        for (std::size_t i = 0; i < m; ++i) {
            const double d = double(ax[i]) - b[i];
            res += d * d;
        }
        const double tv = totalVariation(x, shape, in);
        if (!monitor.afterIteration(std::sqrt(sumAcrossRanks(res, in)), norm(x, in),
                                    options.lambda * tv, x))
            break;
    }
    return monitor.finish(x);
}

}  // namespace

Status solveTv(LinearOperator& op, std::span<const float> b, std::span<float> x,
               const TvOptions& options, const IterationCallback& onIteration,
               SolverSummary& summary, const ExecContext& ctx) {
    return solveKeepingIterate(
        options, x, onIteration, summary, ctx,
        [&](const TvOptions& o, const IterationCallback& cb, const ExecContext& c, bool) {
            return tvOnce(op, b, x, o, cb, summary, c);
        });
}

}  // namespace tomo
