// CGLS against the dense least-squares solution of the same operator, built column by column
// from unit vectors and solved through the normal equations in double.
#include <gtest/gtest.h>

#include <cmath>

#include "SolverTestSupport.h"
#include "core/solvers/Cgls.h"
#include "core/solvers/VectorOps.h"

namespace tomo {
namespace {

/// Solves (A^T A + lambda^2 I) x = A^T b by Cholesky in double.
std::vector<double> denseLeastSquares(LinearOperator& op, std::span<const float> b, double lambda) {
    const std::size_t m = op.rangeSize(), n = op.domainSize();
    std::vector<double> a(m * n);  // column-major: column j = A e_j
    std::vector<float> e(n, 0.f), col(m);
    for (std::size_t j = 0; j < n; ++j) {
        e[j] = 1.f;
        EXPECT_TRUE(op.forward(e, col, {}).isOk());
        e[j] = 0.f;
        for (std::size_t i = 0; i < m; ++i)
            a[j * m + i] = col[i];
    }
    std::vector<double> g(n * n), rhs(n, 0.0);
    for (std::size_t j = 0; j < n; ++j) {
        for (std::size_t k = 0; k <= j; ++k) {
            double s = 0;
            for (std::size_t i = 0; i < m; ++i)
                s += a[j * m + i] * a[k * m + i];
            g[j * n + k] = g[k * n + j] = s;
        }
        g[j * n + j] += lambda * lambda;
        for (std::size_t i = 0; i < m; ++i)
            rhs[j] += a[j * m + i] * b[i];
    }
    // Cholesky g = L L^T (lower triangle in place).
    for (std::size_t j = 0; j < n; ++j) {
        double d = g[j * n + j];
        for (std::size_t k = 0; k < j; ++k)
            d -= g[j * n + k] * g[j * n + k];
        EXPECT_GT(d, 0.0);
        g[j * n + j] = std::sqrt(d);
        for (std::size_t i = j + 1; i < n; ++i) {
            double s = g[i * n + j];
            for (std::size_t k = 0; k < j; ++k)
                s -= g[i * n + k] * g[j * n + k];
            g[i * n + j] = s / g[j * n + j];
        }
    }
    std::vector<double> y(n), x(n);
    for (std::size_t i = 0; i < n; ++i) {
        double s = rhs[i];
        for (std::size_t k = 0; k < i; ++k)
            s -= g[i * n + k] * y[k];
        y[i] = s / g[i * n + i];
    }
    for (std::size_t i = n; i-- > 0;) {
        double s = y[i];
        for (std::size_t k = i + 1; k < n; ++k)
            s -= g[k * n + i] * x[k];
        x[i] = s / g[i * n + i];
    }
    return x;
}

double relativeError(std::span<const float> x, const std::vector<double>& ref) {
    double num = 0, den = 0;
    for (std::size_t i = 0; i < ref.size(); ++i) {
        num += (x[i] - ref[i]) * (x[i] - ref[i]);
        den += ref[i] * ref[i];
    }
    return std::sqrt(num / den);
}

class CglsDense : public ::testing::TestWithParam<double> {};

TEST_P(CglsDense, EqualsTheDenseLeastSquaresSolution) {
    const double lambda = GetParam();
    // 8 x 8 image, 14 angles x 12 detectors: 168 equations, 64 unknowns, full column rank.
    test::SmallProblem p = test::makeSmallProblem(8, 14);
    // Inconsistent data: the phantom's projections plus noise.
    std::vector<float> b = p.data, noise = test::randomVector(b.size(), 7, -0.3f, 0.3f);
    axpby(1.0, noise, 1.0, b);
    const std::vector<double> ref = denseLeastSquares(*p.op, b, lambda);

    std::vector<float> x(p.op->domainSize(), 0.f);
    CglsOptions o;
    o.iterations = 200;
    o.lambda = lambda;
    SolverSummary summary;
    ASSERT_TRUE(solveCgls(*p.op, b, x, o, {}, summary, {}).isOk());
    EXPECT_LT(relativeError(x, ref), 1e-4) << "lambda " << lambda;
    // The optimal residual: ||A x - b|| of the dense solution.
    std::vector<float> xr(ref.begin(), ref.end()), r(b.size());
    ASSERT_TRUE(p.op->forward(xr, r, {}).isOk());
    axpby(1.0, b, -1.0, r);
    EXPECT_NEAR(summary.history.back().residualNorm, norm(r), 1e-4 * norm(r));
}

INSTANTIATE_TEST_SUITE_P(Lambdas, CglsDense, ::testing::Values(0.0, 0.7));

TEST(Cgls, ResidualNonIncreasingAndMatchedPairRequired) {
    test::SmallProblem p = test::makeSmallProblem(16, 20);
    std::vector<float> x(p.op->domainSize(), 0.f);
    CglsOptions o;
    o.iterations = 25;
    SolverSummary summary;
    ASSERT_TRUE(solveCgls(*p.op, p.data, x, o, {}, summary, {}).isOk());
    EXPECT_EQ(summary.algorithm, "cgls");
    // CGLS minimises the residual over growing Krylov spaces: it never increases.
    for (std::size_t k = 1; k < summary.history.size(); ++k)
        EXPECT_LE(summary.history[k].residualNorm,
                  summary.history[k - 1].residualNorm * (1 + 1e-6));
    EXPECT_LT(summary.history.back().residualNorm, 0.01 * norm(p.data));

    struct Unmatched final : LinearOperator {
        LinearOperator& inner;
        explicit Unmatched(LinearOperator& o) : inner(o) {}
        std::size_t domainSize() const override { return inner.domainSize(); }
        std::size_t rangeSize() const override { return inner.rangeSize(); }
        bool matchedAdjoint() const override { return false; }
        std::string name() const override { return "unmatched"; }
        Status forward(std::span<const float> a, std::span<float> b,
                       const ExecContext& c) override {
            return inner.forward(a, b, c);
        }
        Status adjoint(std::span<const float> a, std::span<float> b,
                       const ExecContext& c) override {
            return inner.adjoint(a, b, c);
        }
    } unmatched(*p.op);
    EXPECT_EQ(solveCgls(unmatched, p.data, x, o, {}, summary, {}).code(),
              ErrorCode::InvalidArgument);
}

}  // namespace
}  // namespace tomo
