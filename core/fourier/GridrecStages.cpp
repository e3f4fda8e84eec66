// The four stages of the CPU gridrec (GridrecStages.h, Gridrec.h).
#include "core/fourier/GridrecStages.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "core/base/Parallel.h"

namespace tomo::detail {
namespace {

using cf = std::complex<float>;

Result<AlignedBuffer<cf>> allocate(std::size_t count, const char* what, bool huge = false) {
    AlignedBuffer<cf> b;
    if (!b.tryAllocate(count, huge))
        return outOfMemory(std::string("gridrec: cannot allocate the ") + what + " (" +
                           std::to_string(count * sizeof(cf) >> 20) + " MiB)");
    return b;
}

/// Writes view @p v's samples for k = kFirst..kFirst + count - 1: m_k w R[|k|] exp(i k phase)
/// X[k], X[k] = spectrum(k) (k in [-L/2, L/2]); m_k halves the two Nyquist terms of whole lines
/// and doubles the inner terms of half lines (FourierPlan.h).
template <class Spectrum>
void writeSamples(const FourierPlan& plan, const FourierPlan::View& v, int kFirst, int count,
                  bool halfLine, Spectrum spectrum, cf* out) {
    const int half = plan.rowLength() / 2;
    const std::span<const float> response = plan.response();
    double pr = std::cos(kFirst * v.phase), pi = std::sin(kFirst * v.phase);
    const double sr = std::cos(v.phase), si = std::sin(v.phase);
    for (int i = 0; i < count; ++i) {
        const int k = kFirst + i;
        const int a = std::abs(k);
        double m = v.weight * response[static_cast<std::size_t>(a)];
        if (a == half)
            m *= halfLine ? 1.0 : 0.5;
        else if (halfLine && k != 0)
            m *= 2.0;
        const cf x = spectrum(k);
        const double xr = x.real() * m, xi = x.imag() * m;
        out[i] = cf(static_cast<float>(xr * pr - xi * pi), static_cast<float>(xr * pi + xi * pr));
        const double nr = pr * sr - pi * si;  // exp(i (k + 1) phase) by recurrence
        pi = pr * si + pi * sr;
        pr = nr;
    }
}

/// Fills rows of the block with a + i b (zero-padded to the row length).
void packRow(cf* row, std::span<const float> a, std::span<const float> b, std::size_t length) {
    const std::size_t n = a.size();
    if (b.empty())
        for (std::size_t j = 0; j < n; ++j)
            row[j] = cf(a[j], 0.f);
    else
        for (std::size_t j = 0; j < n; ++j)
            row[j] = cf(a[j], b[j]);
    std::fill(row + n, row + length, cf{});
}

/// The layout of the working memory of @p plan (no buffers), whole lines or half lines.
GridrecWork layoutFor(const FourierPlan& plan, bool pairs = true) {
    GridrecWork w;
    w.plan = &plan;
    const auto l = static_cast<std::size_t>(plan.rowLength());
    w.rowDistance = alignedCount<cf>(l);
    w.columnDistance = alignedCount<cf>(static_cast<std::size_t>(plan.gridY()));
    w.gridStride = alignedCount<cf>(static_cast<std::size_t>(plan.gridX()) + kGuardColumns);
    w.sampleStride = alignedCount<cf>(pairs ? l + 1 : l / 2 + 1);
    return w;
}

std::size_t workBytes(const GridrecWork& w, int workers) {
    const FourierPlan& plan = *w.plan;
    return sizeof(cf) *
           (plan.views().size() * w.sampleStride +
            static_cast<std::size_t>(plan.gridY()) * w.gridStride +
            static_cast<std::size_t>(workers) * kBlockRows * (w.rowDistance + w.columnDistance));
}

}  // namespace

Result<GridrecWork> GridrecWork::create(const FourierPlan& plan, int workers, bool pairs) {
    GridrecWork w = layoutFor(plan, pairs);
    const auto l = static_cast<std::size_t>(plan.rowLength());
    const auto mx = static_cast<std::size_t>(plan.gridX());
    const auto my = static_cast<std::size_t>(plan.gridY());
    TOMO_ASSIGN_OR_RETURN(w.rowFft, ComplexRowFft::create(l, kBlockRows, w.rowDistance));
    TOMO_ASSIGN_OR_RETURN(w.gridRowFft, ComplexRowFft::create(mx, kBlockRows, w.gridStride));
    TOMO_ASSIGN_OR_RETURN(w.columnFft, ComplexRowFft::create(my, kBlockRows, w.columnDistance));
    TOMO_ASSIGN_OR_RETURN(w.samples,
                          allocate(plan.views().size() * w.sampleStride, "samples", true));
    TOMO_ASSIGN_OR_RETURN(w.grid, allocate(my * w.gridStride, "grid", true));
    for (int k = 0; k < workers; ++k) {
        TOMO_ASSIGN_OR_RETURN(auto rows, allocate(kBlockRows * w.rowDistance, "row block"));
        TOMO_ASSIGN_OR_RETURN(auto columns,
                              allocate(kBlockRows * w.columnDistance, "column block"));
        w.rowScratch.push_back(std::move(rows));
        w.columnScratch.push_back(std::move(columns));
    }
    w.coefficients = SpreadCoefficients::of(plan.kernel());
    return w;
}

Status computeSpectra(GridrecWork& work, const GridrecGroup& group, const ExecContext& ctx) {
    const FourierPlan& plan = *work.plan;
    const std::size_t views = plan.views().size();
    const auto l = static_cast<std::size_t>(plan.rowLength());
    const int half = plan.rowLength() / 2;
    const Sinograms& sino = *group.sino;
    const std::size_t blocks = (views + kBlockRows - 1) / kBlockRows;
    // Half lines pack two views of the slice per row: a block of 16 views is 8 rows.
    const std::size_t perRow = group.pair ? 1 : 2;
    return parallelFor(
        blocks, static_cast<int>(work.rowScratch.size()), ctx.stop,
        [&](std::size_t block, int worker) {
            cf* rows = work.rowScratch[static_cast<std::size_t>(worker)].data();
            const std::size_t first = block * kBlockRows;
            const std::size_t count = std::min(kBlockRows, views - first);
            const std::size_t nrows = (count + perRow - 1) / perRow;
            for (std::size_t r = 0; r < nrows; ++r) {
                const std::size_t p = first + r * perRow;
                const auto a = sino.row(group.a, p);
                const auto b = group.pair ? sino.row(group.a + 1, p)
                                          : (p + 1 < views ? sino.row(group.a, p + 1)
                                                           : std::span<const float>{});
                packRow(rows + r * work.rowDistance, a, b, l);
            }
            work.rowFft.forward(rows, nrows);
            for (std::size_t r = 0; r < nrows; ++r) {
                const cf* z = rows + r * work.rowDistance;
                const std::size_t p = first + r * perRow;
                cf* out = work.samples.data() + p * work.sampleStride;
                if (group.pair) {
                    writeSamples(
                        plan, plan.views()[p], -half, plan.rowLength() + 1, false,
                        [&](int k) { return z[(k + static_cast<int>(l)) % l]; }, out);
                    continue;
                }
                // Two real rows in one transform: A = (Z[k] + conj Z[-k]) / 2, B = (Z[k] -
                // conj Z[-k]) / 2i.
                auto separated = [&](int k, bool second) {
                    const cf zk = z[k], zc = std::conj(z[(l - k) % l]);
                    return second ? cf(0.5f * (zk - zc).imag(), -0.5f * (zk - zc).real())
                                  : 0.5f * (zk + zc);
                };
                writeSamples(
                    plan, plan.views()[p], 0, half + 1, true,
                    [&](int k) { return separated(k, false); }, out);
                if (p + 1 < views)
                    writeSamples(
                        plan, plan.views()[p + 1], 0, half + 1, true,
                        [&](int k) { return separated(k, true); }, out + work.sampleStride);
            }
        });
}

Status spreadSamples(GridrecWork& work, bool pair, const ExecContext& ctx) {
    const FourierPlan& plan = *work.plan;
    const int bands = (plan.gridY() + kBandRows - 1) / kBandRows;
    SpreadBand band;
    band.samples = work.samples.data();
    band.sampleStride = work.sampleStride;
    band.kFirst = pair ? -plan.rowLength() / 2 : 0;
    band.kCount = pair ? plan.rowLength() + 1 : plan.rowLength() / 2 + 1;
    band.views = plan.views();
    band.grid = work.grid.data();
    band.gridStride = work.gridStride;
    band.gridX = plan.gridX();
    band.gridY = plan.gridY();
    return parallelFor(static_cast<std::size_t>(bands), static_cast<int>(work.rowScratch.size()),
                       ctx.stop, [&](std::size_t b, int) {
                           SpreadBand mine = band;
                           mine.rowBegin = static_cast<int>(b) * kBandRows;
                           mine.rowEnd = std::min(plan.gridY(), mine.rowBegin + kBandRows);
                           spreadBand(mine, work.coefficients);
                       });
}

Status transformGridRows(GridrecWork& work, const ExecContext& ctx) {
    const auto my = static_cast<std::size_t>(work.plan->gridY());
    const std::size_t blocks = (my + kBlockRows - 1) / kBlockRows;
    return parallelFor(blocks, static_cast<int>(work.rowScratch.size()), ctx.stop,
                       [&](std::size_t block, int) {
                           const std::size_t first = block * kBlockRows;
                           work.gridRowFft.inverse(work.grid.data() + first * work.gridStride,
                                                   std::min(kBlockRows, my - first));
                       });
}

Status transformColumns(GridrecWork& work, const GridrecGroup& group, const ExecContext& ctx) {
    const FourierPlan& plan = *work.plan;
    const auto nx = static_cast<std::size_t>(plan.nx());
    const auto my = static_cast<std::size_t>(plan.gridY());
    const std::size_t blocks = (nx + kBlockRows - 1) / kBlockRows;
    const std::span<const float> dx = plan.deapodisationX(), dy = plan.deapodisationY();
    return parallelFor(
        blocks, static_cast<int>(work.columnScratch.size()), ctx.stop,
        [&](std::size_t block, int worker) {
            cf* cols = work.columnScratch[static_cast<std::size_t>(worker)].data();
            const std::size_t first = block * kBlockRows;
            const std::size_t count = std::min(kBlockRows, nx - first);
            std::size_t source[kBlockRows];
            for (std::size_t c = 0; c < count; ++c)
                source[c] = static_cast<std::size_t>(plan.gridColumn(static_cast<int>(first + c)));
            for (std::size_t gy = 0; gy < my; ++gy) {
                const cf* g = work.grid.data() + gy * work.gridStride;
                for (std::size_t c = 0; c < count; ++c)
                    cols[c * work.columnDistance + gy] = g[source[c]];
            }
            work.columnFft.inverse(cols, count);
            for (int iy = 0; iy < plan.ny(); ++iy) {
                const auto row = static_cast<std::size_t>(plan.gridRow(iy));
                const float wy = dy[static_cast<std::size_t>(iy)];
                float* a = group.out->row(group.a, static_cast<std::size_t>(iy)).data() + first;
                float* b =
                    group.pair
                        ? group.out->row(group.a + 1, static_cast<std::size_t>(iy)).data() + first
                        : nullptr;
                for (std::size_t c = 0; c < count; ++c) {
                    const cf v = cols[c * work.columnDistance + row] * (wy * dx[first + c]);
                    a[c] = v.real();
                    if (b) b[c] = v.imag();
                }
            }
        });
}

}  // namespace tomo::detail

namespace tomo {

std::size_t gridrecWorkBytes(const FourierPlan& plan, int workers) {
    return detail::workBytes(detail::layoutFor(plan), workers);
}

}  // namespace tomo
