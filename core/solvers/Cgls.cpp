#include "core/solvers/Cgls.h"

#include <cmath>
#include <vector>

#include "core/solvers/VectorOps.h"

namespace tomo {
namespace {

Status cglsOnce(LinearOperator& op, std::span<const float> b, std::span<float> x,
                const CglsOptions& options, const IterationCallback& onIteration,
                SolverSummary& summary, const ExecContext& ctx) {
    TOMO_RETURN_IF_ERROR(options.validate(op, b, x));
    if (!(options.lambda >= 0) || !std::isfinite(options.lambda))
        return invalidArgument("lambda: must be finite and >= 0");
    if (!op.matchedAdjoint())
        return invalidArgument("CGLS needs an exactly matched projector pair; operator " +
                               op.name() + " has an approximate adjoint");
    IterationMonitor monitor("cgls", options, onIteration, summary, ctx);
    const ExecContext& in = monitor.inner();
    const double l2 = options.lambda * options.lambda;
    const std::size_t m = op.rangeSize(), n = op.domainSize();
    std::vector<float> r(m), q(m), s(n), p(n);
    monitor.setData(b);

    if (Status st = op.forward(x, r, in); !st) return monitor.fail(st);
    axpby(1.0, b, -1.0, r, in);
    if (Status st = op.adjoint(r, s, in); !st) return monitor.fail(st);
    if (l2 > 0) axpby(-l2, x, 1.0, s, in);
    std::copy(s.begin(), s.end(), p.begin());
    double gamma = dot(s, s, in);
    for (;;) {
        if (!(gamma > 0)) return monitor.breakdown();
        if (Status st = op.forward(p, q, in); !st) return monitor.fail(st);
        const double delta = dot(q, q, in) + (l2 > 0 ? l2 * dot(p, p, in) : 0.0);
        if (!(delta > 0)) return monitor.breakdown();
        const double alpha = gamma / delta;
        axpby(alpha, p, 1.0, x, in);
        axpby(-alpha, q, 1.0, r, in);
        if (Status st = op.adjoint(r, s, in); !st) return monitor.fail(st);
        if (l2 > 0) axpby(-l2, x, 1.0, s, in);
        const double gammaNew = dot(s, s, in);
        axpby(1.0, s, gammaNew / gamma, p, in);
        gamma = gammaNew;
        const double xNorm = norm(x, in);
        if (!monitor.afterIteration(norm(r, in), xNorm, l2 * xNorm * xNorm, x)) break;
    }
    return monitor.finish(x);
}

}  // namespace

Status solveCgls(LinearOperator& op, std::span<const float> b, std::span<float> x,
                 const CglsOptions& options, const IterationCallback& onIteration,
                 SolverSummary& summary, const ExecContext& ctx) {
    return solveKeepingIterate(
        options, x, onIteration, summary, ctx,
        [&](const CglsOptions& o, const IterationCallback& cb, const ExecContext& c, bool) {
            return cglsOnce(op, b, x, o, cb, summary, c);
        });
}

}  // namespace tomo
