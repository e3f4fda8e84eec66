#include "core/memxct/MemxctSystem.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <new>
#include <string>
#include <utility>

#include "core/base/Parallel.h"
#include "core/memxct/SiddonTracer.h"

#if defined(__unix__) || defined(__APPLE__)
#include <unistd.h>
#endif

namespace tomo {
namespace {

double secondsSince(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

std::string gib(std::size_t bytes) {
    char text[32];
    std::snprintf(text, sizeof text, "%.2f GiB", double(bytes) / double(1ull << 30));
    return text;
}

/// Pixels of the grid whose centre lies in the inscribed circle (radius min(nx, ny)/2 voxels
/// around the grid centre); empty when masking is off.
std::vector<std::uint8_t> circleMask(const VolumeGeometry& vol, bool enabled) {
    std::vector<std::uint8_t> mask;
    if (!enabled) return mask;
    mask.resize(static_cast<std::size_t>(vol.nx) * static_cast<std::size_t>(vol.ny));
    const double r = 0.5 * std::min(vol.nx, vol.ny);
    for (int iy = 0; iy < vol.ny; ++iy)
        for (int ix = 0; ix < vol.nx; ++ix) {
            const double u = ix - 0.5 * (vol.nx - 1), w = iy - 0.5 * (vol.ny - 1);
            mask[static_cast<std::size_t>(iy) * static_cast<std::size_t>(vol.nx) +
                 static_cast<std::size_t>(ix)] = u * u + w * w <= r * r ? 1 : 0;
        }
    return mask;
}

/// Length of the part of ray (theta, t) that can touch real pixels.
double usableChord(const VolumeGeometry& vol, double theta, double t, bool circle) {
    const double c = std::cos(theta), s = std::sin(theta), v = vol.voxelSize;
    // parameter range inside the grid box along direction (-s, c) from t * (c, s)
    double lo = -1e300, hi = 1e300;
    auto clip = [&](double p0, double d, double a, double b) {
        if (std::abs(d) < 1e-12) {
            if (p0 < a || p0 > b) hi = -1e300;
            return;
        }
        const double s1 = (a - p0) / d, s2 = (b - p0) / d;
        lo = std::max(lo, std::min(s1, s2));
        hi = std::min(hi, std::max(s1, s2));
    };
    clip(t * c, -s, vol.offsetX - 0.5 * vol.nx * v, vol.offsetX + 0.5 * vol.nx * v);
    clip(t * s, c, vol.offsetY - 0.5 * vol.ny * v, vol.offsetY + 0.5 * vol.ny * v);
    if (circle) {  // pixels touching the circle of centres: radius + half a pixel diagonal
        const double radius = (0.5 * std::min(vol.nx, vol.ny) + 0.7072) * v;
        const double tc = t - (vol.offsetX * c + vol.offsetY * s);
        if (std::abs(tc) >= radius) return 0.0;
        const double sc = -vol.offsetX * s + vol.offsetY * c,
                     h = std::sqrt(radius * radius - tc * tc);
        lo = std::max(lo, sc - h);
        hi = std::min(hi, sc + h);
    }
    return std::max(0.0, hi - lo);
}

/// Rays traced per work item.
constexpr std::size_t kTraceChunk = 512;

/// One stage of the build: a child of ctx.progress over [from, to] named @p stage (none when
/// the caller has no progress) and an ExecContext that reports into it.
class BuildPhase {
  public:
    BuildPhase(const ExecContext& parent, double from, double to, const char* stage)
        : m_scope(parent.progress ? parent.progress->child(from, to, stage) : Progress()),
          m_ctx{parent.threads, parent.stop, parent.progress ? &m_scope : nullptr} {}
    BuildPhase(const BuildPhase&) = delete;
    BuildPhase& operator=(const BuildPhase&) = delete;
    const ExecContext& ctx() const { return m_ctx; }

  private:
    Progress m_scope;
    ExecContext m_ctx;
};

struct TraceChunk {
    std::vector<std::uint64_t> counts;
    std::vector<std::uint32_t> columns;
    std::vector<float> values;
};

}  // namespace

const char* memxctKernelName(MemxctKernel k) {
    return k == MemxctKernel::Csr ? "csr" : "buffered";
}

Result<MemxctKernel> parseMemxctKernel(const std::string& name) {
    if (name == "csr") return MemxctKernel::Csr;
    if (name == "buffered") return MemxctKernel::Buffered;
    return invalidArgument("unknown MemXCT kernel '" + name + "' (valid: csr, buffered)");
}

Status MemxctOptions::validate() const {
    if (tileSize < 1 || tileSize > 4096 || (tileSize & (tileSize - 1)) != 0)
        return invalidArgument("MemXCT: tile size " + std::to_string(tileSize) +
                               " must be a power of two in [1, 4096]");
    if (partitionRows < 1 || partitionRows > 65536)
        return invalidArgument("MemXCT: partition rows " + std::to_string(partitionRows) +
                               " must lie in [1, 65536]");
    if (bufferFloats < 1 || bufferFloats > 65536)
        return invalidArgument("MemXCT: buffer size " + std::to_string(bufferFloats) +
                               " floats must lie in [1, 65536] (16-bit buffer indices)");
    return Status::ok();
}

std::size_t physicalMemoryBytes() {
#if defined(_SC_PHYS_PAGES) && defined(_SC_PAGESIZE)
    const long pages = ::sysconf(_SC_PHYS_PAGES), size = ::sysconf(_SC_PAGESIZE);
    if (pages > 0 && size > 0)
        return static_cast<std::size_t>(pages) * static_cast<std::size_t>(size);
#endif
    return 0;
}

Result<MemxctMemoryEstimate> estimateMemxctMemory(const ParallelGeometry& geom,
                                                  const VolumeGeometry& vol,
                                                  const MemxctOptions& options) {
    TOMO_RETURN_IF_ERROR(vol.validate());
    TOMO_RETURN_IF_ERROR(options.validate());
    MemxctMemoryEstimate e;
    std::size_t nnz = 0;
    for (int a = 0; a < geom.angleCount(); ++a)
        for (int d = 0; d < geom.detectorCount(); ++d) {
            const double t = (d - geom.center(a)) * geom.detectorPitch();
            const double len = usableChord(vol, geom.angle(a), t, options.circleMask);
            if (len > 0) nnz += siddonCellBound(geom.angle(a), len, vol.voxelSize);
        }
    e.nonzeros = nnz;
    const std::size_t rays = static_cast<std::size_t>(geom.angleCount()) *
                             static_cast<std::size_t>(geom.detectorCount());
    const std::size_t pixels = static_cast<std::size_t>(vol.nx) * static_cast<std::size_t>(vol.ny);
    const std::size_t orderings = (rays + pixels) * 8;
    const std::size_t csr = 2 * nnz * 8 + (rays + pixels + 2) * 8;
    // Buffered: a partition of Hilbert-ordered rows touches a compact patch; its distinct
    // inputs are bounded by its nonzeros, estimated here as a quarter of them.
    const std::size_t pr = static_cast<std::size_t>(options.partitionRows);
    const std::size_t buf = static_cast<std::size_t>(options.bufferFloats);
    auto buffered = [&](std::size_t rows) {
        const std::size_t parts = (rows + pr - 1) / pr;
        const std::size_t mapEntries = nnz / 4;
        const std::size_t stages = parts + mapEntries / buf;
        return parts * 4 + stages * 8 + mapEntries * 4 + (stages * pr + 1) * 8 + nnz * 6;
    };
    const std::size_t buf2 = buffered(rays) + buffered(pixels);
    if (options.kernel == MemxctKernel::Csr) {
        e.residentBytes = csr + orderings;
        e.peakBytes = csr + nnz * 8 + orderings;  // tracing holds chunk copies of A
    } else {
        e.residentBytes = buf2 + orderings + (options.keepCsr ? csr : 0);
        e.peakBytes = std::max(csr + nnz * 8, csr + 2 * buf2) + orderings;
    }
    e.budgetBytes =
        options.memoryBudgetBytes != 0 ? options.memoryBudgetBytes : physicalMemoryBytes() / 4 * 3;
    if (e.budgetBytes == 0) e.budgetBytes = e.peakBytes;  // unknown machine: do not refuse
    return e;
}

std::size_t MemxctSystem::residentBytes() const {
    return m_forward.bytes() + m_adjoint.bytes() + m_forwardBuf.bytes() + m_adjointBuf.bytes() +
           m_image.curveIndices().size() * 4 + m_image.pixels().size() * 4 +
           m_sino.curveIndices().size() * 4 + m_sino.pixels().size() * 4;
}

Result<MemxctOrderings> memxctOrderings(const ParallelGeometry& geom, const VolumeGeometry& vol,
                                        const MemxctOptions& options) {
    const std::vector<std::uint8_t> mask = circleMask(vol, options.circleMask);
    auto order = [&](int w, int h, std::span<const std::uint8_t> m) {
        return options.rowMajor ? HilbertOrdering::rowMajor(w, h, m)
                                : HilbertOrdering::create(w, h, options.tileSize, m);
    };
    MemxctOrderings o;
    TOMO_ASSIGN_OR_RETURN(o.image, order(vol.nx, vol.ny, mask));
    TOMO_ASSIGN_OR_RETURN(o.sinogram, order(geom.detectorCount(), geom.angleCount(), {}));
    return o;
}

Result<CsrMatrix> traceMemxctRows(const ParallelGeometry& geom, const VolumeGeometry& vol,
                                  const HilbertOrdering& image, const HilbertOrdering& sino,
                                  std::size_t first, std::size_t count, const ExecContext& ctx) {
    if (first > sino.size() || count > sino.size() - first)
        return invalidArgument("MemXCT: rays past the sinogram");
    const std::size_t chunks = (count + kTraceChunk - 1) / kTraceChunk;
    if (ctx.progress) ctx.progress->setTotal(std::max<std::size_t>(chunks, 1));
    std::vector<TraceChunk> parts(chunks);
    const int nDet = geom.detectorCount();
    TOMO_RETURN_IF_ERROR(parallelFor(chunks, ctx.threads, ctx.stop, [&](std::size_t c, int) {
        TraceChunk& out = parts[c];
        const std::size_t r0 = first + c * kTraceChunk,
                          r1 = std::min(first + count, r0 + kTraceChunk);
        out.counts.assign(r1 - r0, 0);
        auto ray = [&](std::size_t r, double& theta, double& t) {
            const std::uint32_t pixel = sino.pixelAt(r);
            const int a = static_cast<int>(pixel / static_cast<std::uint32_t>(nDet));
            const int d = static_cast<int>(pixel % static_cast<std::uint32_t>(nDet));
            theta = geom.angle(a);
            t = (d - geom.center(a)) * geom.detectorPitch();
        };
        std::size_t bound = 0;  // one allocation per chunk
        for (std::size_t r = r0; r < r1; ++r) {
            double theta = 0, t = 0;
            ray(r, theta, t);
            bound += siddonCellBound(theta, usableChord(vol, theta, t, false), vol.voxelSize);
        }
        out.columns.reserve(bound);
        out.values.reserve(bound);
        // Entries stay in traversal order along the ray (the tiles of the image curve are
        // visited consecutively); A^T rows come out sorted by the transpose.
        for (std::size_t r = r0; r < r1; ++r) {
            double theta = 0, t = 0;
            ray(r, theta, t);
            const std::size_t before = out.columns.size();
            traceSiddon(vol, theta, t, [&](int ix, int iy, double len) {
                const std::int32_t col = image.curveIndex(static_cast<std::size_t>(iy) *
                                                              static_cast<std::size_t>(vol.nx) +
                                                          static_cast<std::size_t>(ix));
                if (col >= 0) {
                    out.columns.push_back(static_cast<std::uint32_t>(col));
                    out.values.push_back(float(len));
                }
            });
            out.counts[r - r0] = out.columns.size() - before;
        }
        if (ctx.progress) ctx.progress->advance();
    }));
    CsrMatrix a;
    a.rows = count;
    a.cols = image.size();
    a.rowPtr.assign(count + 1, 0);
    std::size_t nnz = 0;
    for (std::size_t c = 0; c < chunks; ++c)
        for (std::size_t k = 0; k < parts[c].counts.size(); ++k) {
            nnz += parts[c].counts[k];
            a.rowPtr[c * kTraceChunk + k + 1] = nnz;
        }
    a.columns.resize(nnz);
    a.values.resize(nnz);
    TOMO_RETURN_IF_ERROR(parallelFor(chunks, ctx.threads, ctx.stop, [&](std::size_t c, int) {
        const std::size_t at = a.rowPtr[c * kTraceChunk];
        std::copy(parts[c].columns.begin(), parts[c].columns.end(),
                  a.columns.begin() + static_cast<std::ptrdiff_t>(at));
        std::copy(parts[c].values.begin(), parts[c].values.end(),
                  a.values.begin() + static_cast<std::ptrdiff_t>(at));
        parts[c] = TraceChunk{};
    }));
    return a;
}

Result<MemxctSystem> MemxctSystem::build(const ParallelGeometry& geom, const VolumeGeometry& vol,
                                         const MemxctOptions& options, const ExecContext& ctx) {
    TOMO_ASSIGN_OR_RETURN(MemxctMemoryEstimate estimate, estimateMemxctMemory(geom, vol, options));
    if (!estimate.fits())
        return outOfMemory("MemXCT: the system matrix of " + std::to_string(geom.angleCount()) +
                           " angles x " + std::to_string(geom.detectorCount()) +
                           " detectors on a " + std::to_string(vol.nx) + "x" +
                           std::to_string(vol.ny) + " grid needs about " + gib(estimate.peakBytes) +
                           " while building (~" + std::to_string(estimate.nonzeros / 1000000) +
                           " M nonzeros) but the budget is " + gib(estimate.budgetBytes) +
                           "; use fewer angles or a coarser grid, or the on-the-fly projectors");
    MemxctSystem sys;
    sys.m_options = options;
    try {
        auto t0 = std::chrono::steady_clock::now();
        TOMO_ASSIGN_OR_RETURN(MemxctOrderings orderings, memxctOrderings(geom, vol, options));
        sys.m_image = std::move(orderings.image);
        sys.m_sino = std::move(orderings.sinogram);
        sys.m_times.ordering = secondsSince(t0);

        // Shares of the progress bar, after the stage times of docs/performance.md (ADS2:
        // tracing 2.2 s, transpose 1.2 s, buffering 7.2 s).
        const bool buffered = options.kernel == MemxctKernel::Buffered;
        const double traced = buffered ? 0.25 : 0.6, transposed = buffered ? 0.4 : 1.0;

        // Tracing: rays in sinogram curve order.
        t0 = std::chrono::steady_clock::now();
        {
            BuildPhase tracing(ctx, 0.0, traced, "MemXCT: tracing rays");
            TOMO_ASSIGN_OR_RETURN(sys.m_forward,
                                  traceMemxctRows(geom, vol, sys.m_image, sys.m_sino, 0,
                                                  sys.m_sino.size(), tracing.ctx()));
        }
        CsrMatrix& a = sys.m_forward;
        const std::size_t nnz = a.nonzeros();
        sys.m_nonzeros = nnz;
        sys.m_times.tracing = secondsSince(t0);

        t0 = std::chrono::steady_clock::now();
        {
            BuildPhase transposing(ctx, traced, transposed, "MemXCT: transposing");
            TOMO_ASSIGN_OR_RETURN(sys.m_adjoint, transposeCsr(a, transposing.ctx()));
        }
        sys.m_times.transpose = secondsSince(t0);

        if (buffered) {
            t0 = std::chrono::steady_clock::now();
            const auto pr = static_cast<std::size_t>(options.partitionRows);
            const auto buf = static_cast<std::size_t>(options.bufferFloats);
            const double half = 0.5 * (1.0 + transposed);
            BuildPhase stagingA(ctx, transposed, half, "MemXCT: staging buffers");
            TOMO_ASSIGN_OR_RETURN(sys.m_forwardBuf, buildBuffered(a, pr, buf, stagingA.ctx()));
            if (!options.keepCsr) a = CsrMatrix{};
            BuildPhase stagingAt(ctx, half, 1.0, "MemXCT: staging buffers");
            TOMO_ASSIGN_OR_RETURN(sys.m_adjointBuf,
                                  buildBuffered(sys.m_adjoint, pr, buf, stagingAt.ctx()));
            if (!options.keepCsr) sys.m_adjoint = CsrMatrix{};
            sys.m_times.buffering = secondsSince(t0);
        }
    } catch (const std::bad_alloc&) {
        return outOfMemory(
            "MemXCT: allocation failed while building the system matrix (estimated " +
            gib(estimate.peakBytes) + " at peak)");
    }
    return sys;
}

Status MemxctSystem::forward(MemxctKernel kernel, std::span<const float> x, std::span<float> y,
                             const ExecContext& ctx) const {
    if (kernel == MemxctKernel::Buffered) {
        if (m_forwardBuf.rows == 0 && m_sino.size() != 0)
            return invalidArgument("MemXCT: the buffered matrices were not built");
        return spmvBuffered(m_forwardBuf, x, y, ctx);
    }
    if (m_forward.rowPtr.empty()) return invalidArgument("MemXCT: the CSR matrices were not kept");
    return spmvCsr(m_forward, x, y, ctx);
}

Status MemxctSystem::adjoint(MemxctKernel kernel, std::span<const float> y, std::span<float> x,
                             const ExecContext& ctx) const {
    if (kernel == MemxctKernel::Buffered) {
        if (m_adjointBuf.rows == 0 && m_image.size() != 0)
            return invalidArgument("MemXCT: the buffered matrices were not built");
        return spmvBuffered(m_adjointBuf, y, x, ctx);
    }
    if (m_adjoint.rowPtr.empty()) return invalidArgument("MemXCT: the CSR matrices were not kept");
    return spmvCsr(m_adjoint, y, x, ctx);
}

}  // namespace tomo
