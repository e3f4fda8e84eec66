#include "core/solvers/VectorOps.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <vector>

#include "core/base/Parallel.h"

namespace tomo {
namespace {

std::size_t blockCount(std::size_t n) {
    return (n + kVectorBlock - 1) / kVectorBlock;
}

/// Calls fn(first, last) for every block of [0, n) on ctx.threads workers. The helpers ignore
/// ctx.stop: a half-applied update would leave a vector in no defined state.
template <class F>
void forBlocks(std::size_t n, const ExecContext& ctx, F&& fn) {
    const std::size_t blocks = blockCount(n);
    const int threads = blocks < 4 ? 1 : ctx.threads;
    (void)parallelFor(blocks, threads, std::stop_token{}, [&](std::size_t b, int) {
        const std::size_t first = b * kVectorBlock;
        fn(first, std::min(n, first + kVectorBlock));
    });
}

/// Deterministic sum of per-block partial sums.
template <class F>
double reduceBlocks(std::size_t n, const ExecContext& ctx, F&& partial) {
    std::vector<double> sums(blockCount(n), 0.0);
    forBlocks(n, ctx, [&](std::size_t first, std::size_t last) {
        sums[first / kVectorBlock] = partial(first, last);
    });
    double total = 0.0;
    for (double s : sums)
        total += s;
    return total;
}

}  // namespace

double sumAcrossRanks(double local, const ExecContext& ctx) {
    if (!ctx.across) return local;
    double value[1] = {local};
    ctx.across->sum(value);
    return value[0];
}

double dot(std::span<const float> a, std::span<const float> b, const ExecContext& ctx) {
    assert(a.size() == b.size());
    const std::size_t n = std::min(a.size(), b.size());
    return sumAcrossRanks(reduceBlocks(n, ctx,
                                       [&](std::size_t first, std::size_t last) {
                                           double s = 0.0;
                                           for (std::size_t i = first; i < last; ++i)
                                               s += double(a[i]) * double(b[i]);
                                           return s;
                                       }),
                          ctx);
}

double norm(std::span<const float> a, const ExecContext& ctx) {
    return std::sqrt(dot(a, a, ctx));
}

void axpby(double alpha, std::span<const float> x, double beta, std::span<float> y,
           const ExecContext& ctx) {
    assert(x.size() == y.size());
    const std::size_t n = std::min(x.size(), y.size());
    const float a = static_cast<float>(alpha), b = static_cast<float>(beta);
    forBlocks(n, ctx, [&](std::size_t first, std::size_t last) {
        if (b == 0.f) {
            for (std::size_t i = first; i < last; ++i)
                y[i] = a * x[i];
        } else {
            for (std::size_t i = first; i < last; ++i)
                y[i] = a * x[i] + b * y[i];
        }
    });
}

void fill(std::span<float> y, float value, const ExecContext& ctx) {
    forBlocks(y.size(), ctx, [&](std::size_t first, std::size_t last) {
        std::fill(y.begin() + static_cast<std::ptrdiff_t>(first),
                  y.begin() + static_cast<std::ptrdiff_t>(last), value);
    });
}

void multiply(std::span<const float> w, std::span<float> y, const ExecContext& ctx) {
    assert(w.size() == y.size());
    forBlocks(std::min(w.size(), y.size()), ctx, [&](std::size_t first, std::size_t last) {
        for (std::size_t i = first; i < last; ++i)
            y[i] *= w[i];
    });
}

void clampNonNegative(std::span<float> y, const ExecContext& ctx) {
    forBlocks(y.size(), ctx, [&](std::size_t first, std::size_t last) {
        for (std::size_t i = first; i < last; ++i)
            y[i] = std::max(y[i], 0.f);
    });
}

void invertWeights(std::span<const float> v, std::span<float> w, float eps,
                   const ExecContext& ctx) {
    assert(v.size() == w.size());
    forBlocks(std::min(v.size(), w.size()), ctx, [&](std::size_t first, std::size_t last) {
        for (std::size_t i = first; i < last; ++i)
            w[i] = v[i] > eps ? 1.f / v[i] : 0.f;
    });
}

double rmsDifference(std::span<const float> a, std::span<const float> b, const ExecContext& ctx) {
    assert(a.size() == b.size());
    const std::size_t n = std::min(a.size(), b.size());
    double sums[2] = {0.0, double(n)};  // squares and count, summed across ranks
    sums[0] = reduceBlocks(n, ctx, [&](std::size_t first, std::size_t last) {
        double acc = 0.0;
        for (std::size_t i = first; i < last; ++i) {
            const double d = double(a[i]) - double(b[i]);
            acc += d * d;
        }
        return acc;
    });
    if (ctx.across) ctx.across->sum(sums);
    return sums[1] > 0 ? std::sqrt(sums[0] / sums[1]) : 0.0;
}

}  // namespace tomo
