#include "core/mbir/SuperVoxels.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "core/base/Parallel.h"

namespace tomo {
namespace {

/// splitmix64: a small, exactly specified generator, so that orders are the same everywhere.
std::uint64_t splitmix(std::uint64_t& state) {
    std::uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

template <class T>
void shuffle(std::vector<T>& items, std::uint64_t seed) {
    std::uint64_t state = seed;
    for (std::size_t i = items.size(); i > 1; --i)
        std::swap(items[i - 1], items[splitmix(state) % i]);
}

std::uint64_t mixSeed(std::uint64_t seed, std::uint64_t a, std::uint64_t b) {
    std::uint64_t state = seed ^ (a * 0x9e3779b97f4a7c15ull) ^ (b * 0xc2b2ae3d27d4eb4full);
    return splitmix(state);
}

}  // namespace

SvBand superVoxelBand(const MbirSliceGeometry& g, int x0, int y0, int x1, int y1) {
    SvBand band;
    for (int v = 0; v < g.views(); ++v) {
        int lo = 0, hi = 0;
        for (int corner = 0; corner < 4; ++corner) {
            const int ix = corner & 1 ? x1 - 1 : x0;
            const int iy = corner & 2 ? y1 - 1 : y0;
            const int first = g.firstChannel(v, ix, iy);
            lo = corner == 0 ? first : std::min(lo, first);
            hi = corner == 0 ? first + g.count(v) : std::max(hi, first + g.count(v));
        }
        // One channel of margin on each side covers rounding between the corners.
        band.base.push_back(lo - 1);
        band.width.push_back(hi + 1 - (lo - 1));
    }
    return band;
}

std::vector<std::size_t> chooseSuperVoxels(int iteration, const std::vector<double>& lastMoved,
                                           const std::vector<int>& colour, double fraction,
                                           std::uint64_t seed, bool all) {
    std::vector<std::size_t> chosen(colour.size());
    std::iota(chosen.begin(), chosen.end(), std::size_t(0));
    if (iteration > 1 && !all && chosen.size() > 1) {
        const std::size_t take =
            std::max<std::size_t>(1, std::size_t(std::ceil(fraction * double(chosen.size()))));
        if (iteration % 2 == 0) {
            std::stable_sort(chosen.begin(), chosen.end(), [&](std::size_t a, std::size_t b) {
                return lastMoved[a] > lastMoved[b];
            });
        } else {
            shuffle(chosen, mixSeed(seed, std::uint64_t(iteration), 0x5eedu));
        }
        chosen.resize(std::min(take, chosen.size()));
    }
    std::vector<std::size_t> ordered;
    const int colours = colour.empty() ? 0 : *std::max_element(colour.begin(), colour.end()) + 1;
    for (int c = 0; c < colours; ++c)
        for (std::size_t i : chosen)
            if (colour[i] == c) ordered.push_back(i);
    return ordered;
}

void shuffleSeeded(std::vector<std::uint32_t>& items, std::uint64_t seed, std::uint64_t a,
                   std::uint64_t b) {
    shuffle(items, mixSeed(seed, a, b));
}

SuperVoxelPlan::SuperVoxelPlan(const MbirSliceGeometry& g, const PsvOptions& options)
    : m_g(g), m_options(options) {
    const int side = options.sequential ? std::max(g.nx(), g.ny()) : std::max(1, options.side);
    for (int sy = 0, y0 = 0; y0 < g.ny(); ++sy, y0 += side)
        for (int sx = 0, x0 = 0; x0 < g.nx(); ++sx, x0 += side) {
            Sv sv;
            sv.x0 = x0;
            sv.y0 = y0;
            sv.x1 = std::min(g.nx(), x0 + side);
            sv.y1 = std::min(g.ny(), y0 + side);
            SvBand band = superVoxelBand(g, sv.x0, sv.y0, sv.x1, sv.y1);
            for (int v = 0; v < g.views(); ++v) {
                sv.rowStart.push_back(sv.channels);
                sv.channels += std::size_t(band.width[std::size_t(v)]);
            }
            sv.base = std::move(band.base);
            m_svs.push_back(std::move(sv));
            m_colour.push_back((sx % 2) + 2 * (sy % 2));
        }
}

std::vector<std::size_t> SuperVoxelPlan::choose(int iteration) const {
    std::vector<double> lastMoved;
    for (const Sv& sv : m_svs)
        lastMoved.push_back(sv.lastMoved);
    return chooseSuperVoxels(iteration, lastMoved, m_colour, m_options.fraction, m_options.seed,
                             m_options.sequential);
}

void SuperVoxelPlan::runSv(std::size_t index, int iteration, const IcdSettings& settings,
                           std::vector<float>& x, const MbirSinograms& sino,
                           std::vector<float>& buffer, PsvIterationStats& stats) {
    Sv& sv = m_svs[index];
    const int nz = sino.slices();
    const std::size_t n = sv.channels * std::size_t(nz);
    buffer.resize(3 * n);
    float* e = buffer.data();
    float* w = buffer.data() + 2 * n;
    for (int v = 0; v < m_g.views(); ++v) {
        const std::size_t width =
            (v + 1 < m_g.views() ? sv.rowStart[std::size_t(v) + 1] : sv.channels) -
            sv.rowStart[std::size_t(v)];
        const std::size_t from = sino.index(v, sv.base[std::size_t(v)], 0);
        const std::size_t to = sv.rowStart[std::size_t(v)] * nz;
        std::copy_n(sino.error().data() + from, width * nz, e + to);
        std::copy_n(sino.weight().data() + from, width * nz, w + to);
    }
    std::copy_n(e, n, buffer.data() + n);  // the snapshot, for the write-back
    std::vector<std::size_t> rowStart(sv.rowStart.size());
    std::vector<std::int32_t> shift(nz == 1 ? sv.rowStart.size() : 0);
    for (std::size_t v = 0; v < rowStart.size(); ++v)
        rowStart[v] = sv.rowStart[v] * std::size_t(nz);
    for (std::size_t v = 0; v < shift.size(); ++v)
        shift[v] = std::int32_t(sv.rowStart[v]) - sv.base[v];
    const SinoBand band{
        e, w, rowStart.data(), sv.base.data(), nz, shift.empty() ? nullptr : shift.data()};

    std::vector<std::uint32_t> order;
    for (int iy = sv.y0; iy < sv.y1; ++iy)
        for (int ix = sv.x0; ix < sv.x1; ++ix)
            order.push_back(std::uint32_t(iy) << 16 | std::uint32_t(ix));
    shuffleSeeded(order, m_options.seed, std::uint64_t(iteration), index + 1);
    IcdScratch scratch;
    double moved = 0;
    for (std::uint32_t voxel : order)
        moved += icdUpdateLine(settings, band, x, int(voxel & 0xffffu), int(voxel >> 16), scratch,
                               stats.updates);
    sv.lastMoved = moved;
    stats.moved = moved;
    stats.superVoxels = 1;
    stats.visited = order.size() * std::size_t(sino.slices());
}

Status SuperVoxelPlan::iterate(int iteration, const IcdSettings& settings, std::vector<float>& x,
                               MbirSinograms& sino, const ExecContext& ctx,
                               PsvIterationStats& stats) {
    const std::vector<std::size_t> chosen = choose(iteration);
    const std::size_t batch = std::size_t(std::max(1, m_options.batch));
    std::vector<std::vector<float>> buffers(std::min(batch, chosen.size()));
    std::vector<PsvIterationStats> perSv(buffers.size());
    const int nz = sino.slices();
    stats = {};
    for (std::size_t first = 0; first < chosen.size();) {
        // A batch never mixes colours: same-colour SVs are never neighbours.
        std::size_t last = first + 1;
        const int colour = m_colour[chosen[first]];
        while (last < chosen.size() && last - first < batch && m_colour[chosen[last]] == colour)
            ++last;
        if (ctx.stop.stop_requested()) return cancelled();
        // A batch runs to its end (a few SVs) so that the image and the error sinogram agree.
        Status status = parallelFor(last - first, ctx.threads, {}, [&](std::size_t i, int) {
            perSv[i] = {};
            runSv(chosen[first + i], iteration, settings, x, sino, buffers[i], perSv[i]);
        });
        if (!status) return status;
        for (std::size_t i = 0; i < last - first; ++i) {
            const Sv& sv = m_svs[chosen[first + i]];
            const std::size_t n = sv.channels * std::size_t(nz);
            const float* now = buffers[i].data();
            const float* before = buffers[i].data() + n;
            for (int v = 0; v < m_g.views(); ++v) {
                const std::size_t width =
                    (v + 1 < m_g.views() ? sv.rowStart[std::size_t(v) + 1] : sv.channels) -
                    sv.rowStart[std::size_t(v)];
                float* e = sino.error().data() + sino.index(v, sv.base[std::size_t(v)], 0);
                const std::size_t at = sv.rowStart[std::size_t(v)] * nz;
                for (std::size_t k = 0; k < width * nz; ++k)
                    e[k] += now[at + k] - before[at + k];
            }
            stats.updates += perSv[i].updates;
            stats.moved += perSv[i].moved;
            stats.superVoxels += perSv[i].superVoxels;
            stats.visited += perSv[i].visited;
        }
        first = last;
    }
    return Status::ok();
}

}  // namespace tomo
