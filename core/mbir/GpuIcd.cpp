#include "core/mbir/GpuIcd.h"

#include <algorithm>
#include <atomic>
#include <cmath>

#include "core/base/Parallel.h"

namespace tomo {
namespace {

bool isPowerOfTwo(int n) {
    return n > 0 && (n & (n - 1)) == 0;
}

/// The SVs of side @p side: bands, colours and randomised voxel orders.
void buildSuperVoxels(const MbirSliceGeometry& g, const GpuIcdOptions& options, GpuIcdLayout& l) {
    const int side = options.side;
    for (int sy = 0, y0 = 0; y0 < g.ny(); ++sy, y0 += side)
        for (int sx = 0, x0 = 0; x0 < g.nx(); ++sx, x0 += side) {
            const int x1 = std::min(g.nx(), x0 + side), y1 = std::min(g.ny(), y0 + side);
            const SvBand band = superVoxelBand(g, x0, y0, x1, y1);
            l.svBase.insert(l.svBase.end(), band.base.begin(), band.base.end());
            l.rows = std::max(l.rows, *std::max_element(band.width.begin(), band.width.end()));
            std::vector<std::uint32_t> voxels;
            for (int iy = y0; iy < y1; ++iy)
                for (int ix = x0; ix < x1; ++ix)
                    voxels.push_back(std::uint32_t(iy * g.nx() + ix));
            shuffleSeeded(voxels, options.seed, 0, l.colour.size() + 1);
            l.svFirst.push_back(std::int32_t(l.order.size()));
            l.svSize.push_back(std::int32_t(voxels.size()));
            l.order.insert(l.order.end(), voxels.begin(), voxels.end());
            l.colour.push_back((sx % 2) + 2 * (sy % 2));
        }
}

/// Voxel (ix, iy)'s run starts as rows of its SV's band, per view (into @p rows).
const std::int32_t* bandRows(const MbirSliceGeometry& g, const GpuIcdLayout& l, int ix, int iy,
                             std::vector<std::int32_t>& rows) {
    const int svx = (g.nx() + l.side - 1) / l.side;
    const std::size_t sv = std::size_t(iy / l.side) * std::size_t(svx) + std::size_t(ix / l.side);
    const std::int32_t* base = l.svBase.data() + sv * std::size_t(l.views);
    rows.resize(std::size_t(l.views));
    g.firstChannels(ix, iy, 0, l.views, rows.data());
    for (int v = 0; v < l.views; ++v)
        rows[std::size_t(v)] -= base[v];
    return rows.data();
}

/// Voxel (ix, iy)'s chunks: the band rows [rowStart, rowStart + rowCount) its runs reach over
/// each chunk's views, into chunkMeta's second words.
void measureChunks(const MbirSliceGeometry& g, GpuIcdLayout& l, int ix, int iy,
                   std::vector<std::int32_t>& scratch) {
    const std::int32_t* row = bandRows(g, l, ix, iy, scratch);
    const std::size_t j = std::size_t(iy) * std::size_t(g.nx()) + std::size_t(ix);
    std::uint32_t* meta = l.chunkMeta.data() + 2 * j * std::size_t(l.chunks);
    for (int c = 0; c < l.chunks; ++c) {
        const int v0 = c * kIcdChunkViews, v1 = std::min(g.views(), v0 + kIcdChunkViews);
        int lo = 1 << 30, hi = 0;
        for (int v = v0; v < v1; ++v) {
            lo = std::min(lo, row[v]);
            hi = std::max(hi, row[v] + g.count(v));
        }
        if (v1 <= v0) lo = hi = 0;
        meta[2 * c + 1] = std::uint32_t(lo) | std::uint32_t(hi - lo) << 16;
    }
}

/// Voxel (ix, iy)'s 8-bit entries into its tiles (zeroed) of @p tiles.
void fillTiles(const MbirSliceGeometry& g, const MbirMatrix& a, const GpuIcdLayout& l, int ix,
               int iy, std::uint8_t* tiles, std::vector<std::int32_t>& scratch) {
    const std::int32_t* row = bandRows(g, l, ix, iy, scratch);
    const std::size_t j = std::size_t(iy) * std::size_t(g.nx()) + std::size_t(ix);
    const std::uint32_t* meta = l.chunkMeta.data() + 2 * j * std::size_t(l.chunks);
    for (int c = 0; c < l.chunks; ++c) {
        const int v0 = c * kIcdChunkViews, v1 = std::min(g.views(), v0 + kIcdChunkViews);
        const int rowStart = int(meta[2 * c + 1] & 0xffffu);
        std::uint8_t* tile = tiles + std::size_t(meta[2 * c]) * kIcdChunkViews;
        for (int v = v0; v < v1; ++v) {
            const int r = row[v] - rowStart;
            const std::uint8_t* codes = a.codes(j) + g.offset(v);
            for (int k = 0; k < g.count(v); ++k)
                tile[std::size_t(r + k) * kIcdChunkViews + std::size_t(v - v0)] = codes[k];
        }
    }
}

}  // namespace

Status GpuIcdOptions::validate() const {
    if (side < 1 || batch < 0 || blocksPerSv < 1)
        return invalidArgument(
            "GPU-ICD: sv_side and blocks per SV must be at least 1, batch 0 "
            "(automatic) or more");
    if (!isPowerOfTwo(groupSize) || groupSize < kIcdLanes || groupSize > 1024)
        return invalidArgument("GPU-ICD: the work-group size must be a power of two in [16, 1024]");
    if (!(fraction > 0 && fraction <= 1))
        return invalidArgument("GPU-ICD: fraction must be in (0, 1]");
    return Status::ok();
}

std::size_t GpuIcdLayout::deviceBytes(int batch, int slices) const {
    std::size_t bytes = 0;
    for (const IcdBufferSpec& b : icdBuffers(*this, batch, slices))
        bytes += b.bytes;
    return bytes;
}

std::array<IcdBufferSpec, kIcdBufferCount> icdBuffers(const GpuIcdLayout& l, int batch, int slices,
                                                      const std::vector<float>* x,
                                                      const std::vector<float>* e,
                                                      const std::vector<float>* w) {
    const std::size_t nz = std::size_t(std::max(1, slices));
    const std::size_t sino = nz * std::size_t(l.views) * std::size_t(l.channels + 2 * l.padding);
    const std::size_t slots = std::size_t(icdLaunchSize(batch, slices));
    const std::size_t svb = slots * std::size_t(l.rows) * std::size_t(l.pitch) * 4;
    const std::size_t entries = nz * l.svCount() * 4;  // the pass list and its statistics
    const std::size_t svs = l.svCount() * 4;
    auto spec = [](const void* init, std::size_t bytes, const char* what) {
        return IcdBufferSpec{init, std::max<std::size_t>(bytes, 4), what};
    };
    std::array<IcdBufferSpec, kIcdBufferCount> b;
    b[kIcdImage] = spec(x ? x->data() : nullptr, nz * l.voxels() * 4, "image");
    b[kIcdError] = spec(e ? e->data() : nullptr, sino * 4, "error sinogram");
    b[kIcdWeight] = spec(w ? w->data() : nullptr, sino * 4, "weight sinogram");
    b[kIcdTiles] = spec(nullptr, l.tileBytes(), "chunked matrix");
    b[kIcdChunkMeta] = spec(l.chunkMeta.data(), l.chunkMeta.size() * 4, "chunk table");
    b[kIcdScale] = spec(l.scale.data(), l.scale.size() * 4, "voxel scales");
    b[kIcdOrder] = spec(l.order.data(), l.order.size() * 4, "voxel orders");
    b[kIcdSvBase] = spec(l.svBase.data(), l.svBase.size() * 4, "SV bands");
    b[kIcdSvFirst] = spec(l.svFirst.data(), svs, "SV starts");
    b[kIcdSvSize] = spec(l.svSize.data(), svs, "SV sizes");
    b[kIcdChannelTerms] =
        spec(l.channelTerms.data(), l.channelTerms.size() * sizeof(double), "channel terms");
    b[kIcdViewRuns] = spec(l.viewRuns.data(), l.viewRuns.size() * 4, "view runs");
    b[kIcdCodes] =
        spec(nullptr, std::min(l.voxels(), l.slabVoxels()) * l.columnSize, "matrix codes");
    b[kIcdPassList] = spec(nullptr, entries, "pass list");
    b[kIcdMoved] = spec(nullptr, entries, "SV updates");
    b[kIcdUpdates] = spec(nullptr, entries, "SV update counts");
    b[kIcdCounters] = spec(nullptr, slots * 4, "voxel counters");
    b[kIcdSvbError] = spec(nullptr, svb, "SVB errors");
    b[kIcdSvbOld] = spec(nullptr, svb, "SVB snapshots");
    b[kIcdSvbWeight] = spec(nullptr, svb, "SVB weights");
    return b;
}

bool icdLayoutBuffer(int b) {
    return b >= kIcdTiles && b <= kIcdViewRuns;
}

std::size_t GpuIcdLayout::slabVoxels() const {
    return std::max<std::size_t>(1, codeSlabBytes / std::max<std::size_t>(1, columnSize));
}

GpuIcdLayout GpuIcdLayout::sizesOf(const MbirSliceGeometry& g, const GpuIcdOptions& options) {
    GpuIcdLayout l;
    l.views = g.views();
    l.channels = g.channels();
    l.padding = g.padding();
    l.nx = g.nx();
    l.ny = g.ny();
    l.side = options.side;
    l.chunks = (g.views() + kIcdChunkViews - 1) / kIcdChunkViews;
    l.pitch = l.chunks * kIcdChunkViews;
    l.columnSize = g.columnSize();
    l.channelTerms = g.firstChannelTerms();
    l.viewRuns.assign(g.offsets32(), g.offsets32() + g.views());
    l.viewRuns.insert(l.viewRuns.end(), g.counts(), g.counts() + g.views());
    return l;
}

Result<GpuIcdLayout> GpuIcdLayout::build(const MbirSliceGeometry& g, const MbirMatrix& a,
                                         const GpuIcdOptions& options, std::size_t budget,
                                         const ExecContext& ctx) {
    TOMO_RETURN_IF_ERROR(options.validate());
    if (a.type() != MbirEntryType::Uint8)
        return invalidArgument("GPU-ICD reads 8-bit matrix entries (matrix=uint8)");
    if (a.voxels() != g.voxels()) return invalidArgument("GPU-ICD: matrix and geometry differ");
    GpuIcdLayout l = GpuIcdLayout::sizesOf(g, options);
    buildSuperVoxels(g, options, l);
    if (l.rows >= (1 << 16))
        return invalidArgument("GPU-ICD: an SV band is " + std::to_string(l.rows) +
                               " channels wide; use a smaller sv_side");
    l.scale.resize(g.voxels());
    for (std::size_t j = 0; j < g.voxels(); ++j)
        l.scale[j] = a.scale(j);
    l.chunkMeta.assign(2 * g.voxels() * std::size_t(l.chunks), 0);
    TOMO_RETURN_IF_ERROR(
        parallelFor(std::size_t(g.ny()), ctx.threads, ctx.stop, [&](std::size_t iy, int) {
            std::vector<std::int32_t> scratch;
            for (int ix = 0; ix < g.nx(); ++ix)
                measureChunks(g, l, ix, int(iy), scratch);
        }));
    for (std::size_t k = 0; k < l.chunkMeta.size(); k += 2) {
        l.chunkMeta[k] = std::uint32_t(l.tileRows);
        l.tileRows += l.chunkMeta[k + 1] >> 16;
    }
    if (l.tileBytes() > budget || l.tileRows >= (std::size_t(1) << 32))
        return outOfMemory("GPU-ICD: the chunked matrix needs " +
                           std::to_string(l.tileBytes() >> 20) + " MiB, over the budget of " +
                           std::to_string(budget >> 20) + " MiB");
    l.id = newGpuIcdLayoutId();
    return l;
}

Result<std::vector<std::uint8_t>> GpuIcdLayout::hostTiles(const MbirSliceGeometry& g,
                                                          const MbirMatrix& a,
                                                          const ExecContext& ctx) const {
    if (a.type() != MbirEntryType::Uint8 || a.voxels() != voxels() ||
        a.columnSize() != columnSize || g.nx() != nx || g.ny() != ny || g.views() != views)
        return invalidArgument("GPU-ICD: the tiles of another matrix or geometry");
    std::vector<std::uint8_t> tiles(tileBytes());
    TOMO_RETURN_IF_ERROR(
        parallelFor(std::size_t(ny), ctx.threads, ctx.stop, [&](std::size_t iy, int) {
            std::vector<std::int32_t> scratch;
            for (int ix = 0; ix < nx; ++ix)
                fillTiles(g, a, *this, ix, int(iy), tiles.data(), scratch);
        }));
    return tiles;
}

std::uint64_t newGpuIcdLayoutId() {
    static std::atomic<std::uint64_t> ids{0};  // identities, not device state
    return ++ids;
}

int automaticBatch(const GpuIcdLayout& layout) {
    return int(std::clamp<std::size_t>(layout.svCount() / 32, 1, 32));
}

int icdLaunchSize(int batch, int slices) {
    batch = std::max(1, batch);
    const int perColour = (std::max(1, slices) + 1) / 2;
    return batch * std::max(1, std::min(perColour, kIcdMaxLaunch / batch));
}

std::vector<int> icdStackColours(const GpuIcdLayout& layout, int slices) {
    std::vector<int> colours;
    colours.reserve(layout.svCount() * std::size_t(std::max(1, slices)));
    for (int z = 0; z < std::max(1, slices); ++z)
        for (int c : layout.colour)
            colours.push_back(slices > 1 ? c + 4 * (z % 2) : c);
    return colours;
}

IcdKernelConstants icdKernelConstants(const Qggmrf& prior, const NeighbourWeights& weights,
                                      double invSigmaY2, bool positivity, bool zeroSkip) {
    const QggmrfParams& p = prior.params();
    IcdKernelConstants k;
    k.invSigmaY2 = float(invSigmaY2);
    k.p = float(p.p);
    k.q = float(p.q);
    k.invSigmaP = float(std::pow(p.sigmaX, -p.p));
    k.invTs = float(1.0 / (p.T * p.sigmaX));
    k.floor = float(1e-6 * p.T * p.sigmaX);
    k.nearest = weights.nearest;
    k.diagonal = weights.diagonal;
    k.across = weights.across;
    k.positivity = positivity ? 1 : 0;
    k.zeroSkip = zeroSkip ? 1 : 0;
    return k;
}

GpuIcdPlan::GpuIcdPlan(const GpuIcdLayout& layout, const GpuIcdOptions& options, IcdDevice& device,
                       int slices)
    : m_layout(layout),
      m_options(options),
      m_device(device),
      m_slices(std::max(1, slices)),
      m_colour(icdStackColours(layout, m_slices)),
      m_lastMoved(m_colour.size(), 0.0) {}

namespace {

/// One colour's launches: each slice's entries in a random order, so that a launch is spread
/// over the image rather than rows of SVs (the SVs of a launch update against the same stale
/// error sinogram, and a ray through many of them would have its error corrected many times
/// over), at most @p batch of one slice per launch and up to kIcdMaxLaunch / batch slices, the
/// slices in turn. One slice: consecutive runs of @p batch of its shuffled entries.
std::vector<std::vector<std::uint32_t>> colourLaunches(const std::vector<std::size_t>& chosen,
                                                       std::size_t first, std::size_t last,
                                                       std::size_t svCount, int slices, int batch,
                                                       std::uint64_t seed, int iteration) {
    std::vector<std::vector<std::uint32_t>> bySlice(static_cast<std::size_t>(slices));
    for (std::size_t i = first; i < last; ++i)
        bySlice[chosen[i] / svCount].push_back(std::uint32_t(chosen[i]));
    std::vector<std::size_t> present, taken;  // slices with entries of this colour, how many used
    for (std::size_t z = 0; z < bySlice.size(); ++z) {
        if (bySlice[z].empty()) continue;
        shuffleSeeded(bySlice[z], seed, std::uint64_t(iteration), 0xc01042u + first + (z << 32));
        present.push_back(z);
    }
    taken.assign(present.size(), 0);
    const std::size_t perLaunch = std::size_t(std::max(1, kIcdMaxLaunch / batch));
    std::vector<std::vector<std::uint32_t>> launches;
    for (std::size_t next = 0, left = last - first; left > 0;) {
        std::vector<std::uint32_t> launch;
        const std::size_t start = next;
        for (std::size_t k = 0, used = 0; k < present.size() && used < perLaunch; ++k) {
            const std::size_t p = (start + k) % present.size();
            const std::vector<std::uint32_t>& slice = bySlice[present[p]];
            const std::size_t n = std::min(std::size_t(batch), slice.size() - taken[p]);
            if (n == 0) continue;
            launch.insert(launch.end(), slice.begin() + std::ptrdiff_t(taken[p]),
                          slice.begin() + std::ptrdiff_t(taken[p] + n));
            taken[p] += n;
            left -= n;
            ++used;
            next = p + 1;
        }
        launches.push_back(std::move(launch));
    }
    return launches;
}

}  // namespace

Status GpuIcdPlan::iterate(int iteration, const ExecContext& ctx, PsvIterationStats& stats,
                           bool skipZeros) {
    const std::vector<std::size_t> chosen = chooseSuperVoxels(
        iteration, m_lastMoved, m_colour, m_options.fraction, m_options.seed, false);
    const int batch = m_options.batch > 0 ? m_options.batch : automaticBatch(m_layout);
    const std::size_t svCount = m_layout.svCount();
    std::vector<std::int32_t> list;
    std::vector<std::pair<int, int>> batches;  // (first entry, count)
    for (std::size_t first = 0; first < chosen.size();) {
        std::size_t last = first;  // one colour: [first, last)
        while (last < chosen.size() && m_colour[chosen[last]] == m_colour[chosen[first]])
            ++last;
        const auto launches = colourLaunches(chosen, first, last, svCount, m_slices, batch,
                                             m_options.seed, iteration);
        const std::size_t threshold = std::max<std::size_t>(1, launches.front().size() / 4);
        for (std::size_t b = 0; b < launches.size(); ++b) {
            const std::vector<std::uint32_t>& launch = launches[b];
            // Paper 004's launch threshold, in partial passes and after a colour's first batch.
            if (iteration > 1 && b > 0 && launch.size() < threshold) break;
            batches.emplace_back(int(list.size()), int(launch.size()));
            list.insert(list.end(), launch.begin(), launch.end());
        }
        first = last;
    }
    stats = {};
    if (list.empty()) return Status::ok();
    TOMO_RETURN_IF_ERROR(
        m_device.beginPass(list, std::uint32_t(iteration) * 2654435761u, skipZeros));
    for (const auto& [first, count] : batches) {
        if (ctx.stop.stop_requested()) return cancelled();
        TOMO_RETURN_IF_ERROR(m_device.runBatch(first, count));
    }
    std::vector<float> moved;
    std::vector<std::int32_t> updates;
    TOMO_RETURN_IF_ERROR(m_device.endPass(moved, updates));
    if (moved.size() != list.size() || updates.size() != list.size())
        return internalError("GPU-ICD: the device returned statistics of another pass");
    for (std::size_t i = 0; i < list.size(); ++i) {
        const std::size_t entry = std::size_t(list[i]);
        m_lastMoved[entry] = double(moved[i]);
        stats.moved += double(moved[i]);
        stats.updates += std::size_t(updates[i]);
        stats.visited += std::size_t(m_layout.svSize[entry % svCount]);
    }
    stats.superVoxels = list.size();
    return Status::ok();
}

}  // namespace tomo
