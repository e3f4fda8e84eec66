// The exact transpose of Joseph's forward projector (JosephTranspose.h).
#include "core/projectors/JosephTranspose.h"

#include <algorithm>
#include <cmath>
#include <new>
#include <vector>

#include "core/base/Parallel.h"
#include "core/projectors/JosephRays.h"

namespace tomo {
namespace {

/// One projection's rays with their start positions and the factor each value is spread with.
struct Projection {
    JosephRays rays;
    std::vector<double> starts;  ///< start(j) for every ray
    double perLine = 0;          ///< d start / d j (pixels per ray), for the rays' range
    double scale = 0;            ///< weight * pitch / voxelSize^2 * step
    int index = 0;
};

/// Rays [first, last) whose position on @p line can lie in (-1, length): the affine estimate
/// widened by a ray on each side (the exact test is the interpolation's own bounds).
std::pair<std::size_t, std::size_t> raysOnLine(const Projection& p, int line, int length,
                                               std::size_t rays) {
    const double at0 = p.starts.front() + line * p.rays.slope;
    double lo = (-1.0 - at0) / p.perLine, hi = (length - at0) / p.perLine;
    if (lo > hi) std::swap(lo, hi);
    lo = std::max(std::floor(lo) - 1.0, 0.0);
    hi = std::min(std::ceil(hi) + 2.0, static_cast<double>(rays));
    if (!(hi > lo)) return {0, 0};
    return {static_cast<std::size_t>(lo), static_cast<std::size_t>(hi)};
}

/// Adds the projections' rays crossing image line @p line (a row or a column of @p length
/// pixels, contiguous in @p acc) into it: (1 - f) to floor(position), f to the next pixel.
void spreadLine(const std::vector<Projection>& projections, const Sinograms& sino,
                std::size_t slice, int line, int length, double* acc) {
    const std::size_t rays = sino.dim(2);
    for (const Projection& p : projections) {
        const float* values = sino.row(slice, static_cast<std::size_t>(p.index)).data();
        const auto [first, last] = raysOnLine(p, line, length, rays);
        for (std::size_t j = first; j < last; ++j) {
            const double position = p.starts[j] + line * p.rays.slope;
            const double fl = std::floor(position);
            const double f = position - fl;
            const int i = static_cast<int>(fl);
            const double v = p.scale * static_cast<double>(values[j]);
            if (i >= 0 && i < length) acc[i] += v * (1.0 - f);
            if (i + 1 >= 0 && i + 1 < length) acc[i + 1] += v * f;
        }
    }
}

class JosephTransposeBackProjector final : public BackProjector {
  public:
    JosephTransposeBackProjector() {
        m_info.id = kJosephTransposeId;
        m_info.backend = "cpu";
        m_info.family = "joseph-transpose";
        m_info.interpolation = Interpolation::Linear;
        m_info.slicesPerPass = 1;
        m_info.exact = true;
        m_info.description =
            "exact transpose of Joseph's forward projector (ASTRA's 'linear' projector), double "
            "accumulation";
        m_info.parameters = {{"accumulation", "float64"}, {"threads", "per image line"}};
    }
    const BackProjectorInfo& info() const override { return m_info; }

    Status backProject(const Sinograms& sino, const ParallelGeometry& geom,
                       const VolumeGeometry& vol, std::span<const float> weights, Volume& out,
                       const ExecContext& ctx) override {
        TOMO_RETURN_IF_ERROR(prepareBackProjection(sino, geom, vol, weights, out));
        const std::size_t nz = std::size_t(vol.nz), ny = std::size_t(vol.ny),
                          nx = std::size_t(vol.nx);
        TOMO_ASSIGN_OR_RETURN(Array3<double> acc, Array3<double>::create(nz, ny, nx));
        std::vector<Projection> rowWise, columnWise;
        for (int p = 0; p < geom.angleCount(); ++p) {
            Projection q;
            q.rays = josephRays(geom, vol, p);
            q.index = p;
            q.starts.resize(sino.dim(2));
            for (std::size_t j = 0; j < q.starts.size(); ++j)
                q.starts[j] = q.rays.start(j);
            q.perLine = q.rays.alongRows ? q.rays.pitch / (q.rays.cosine * vol.voxelSize)
                                         : -q.rays.pitch / (q.rays.sine * vol.voxelSize);
            q.scale = double(weights[std::size_t(p)]) * geom.detectorPitch() /
                      (vol.voxelSize * vol.voxelSize) * q.rays.step;
            (q.rays.alongRows ? rowWise : columnWise).push_back(std::move(q));
        }
        if (ctx.progress) ctx.progress->setTotal(nz * (ny + nx));
        // Rows first (each item owns one image row), then columns (each owns one column).
        TOMO_RETURN_IF_ERROR(
            parallelFor(nz * ny, ctx.threads, ctx.stop, [&](std::size_t item, int) {
                const std::size_t z = item / ny, iy = item % ny;
                double* row = acc.row(z, iy).data();
                std::fill(row, row + nx, 0.0);
                spreadLine(rowWise, sino, z, int(iy), vol.nx, row);
                if (ctx.progress) ctx.progress->advance();
            }));
        // A column is gathered in a contiguous buffer of its worker, then added in one pass.
        std::vector<std::vector<double>> columns(std::size_t(resolveThreads(ctx.threads)));
        try {
            for (auto& c : columns)
                c.resize(ny);
        } catch (const std::bad_alloc&) {
            return outOfMemory("back-projection: cannot allocate column accumulators");
        }
        TOMO_RETURN_IF_ERROR(
            parallelFor(nz * nx, ctx.threads, ctx.stop, [&](std::size_t item, int worker) {
                const std::size_t z = item / nx, ix = item % nx;
                std::vector<double>& column = columns[std::size_t(worker)];
                std::fill(column.begin(), column.end(), 0.0);
                spreadLine(columnWise, sino, z, int(ix), vol.ny, column.data());
                for (std::size_t iy = 0; iy < ny; ++iy)
                    out.row(z, iy)[ix] = static_cast<float>(acc.row(z, iy)[ix] + column[iy]);
                if (ctx.progress) ctx.progress->advance();
            }));
        return Status::ok();
    }

  private:
    BackProjectorInfo m_info;
};

}  // namespace

std::unique_ptr<BackProjector> makeJosephTransposeBackProjector() {
    return std::make_unique<JosephTransposeBackProjector>();
}

}  // namespace tomo
