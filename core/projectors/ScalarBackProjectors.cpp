// cpu.reference.* (double) and cpu.scalar.* (float, one slice at a time): see CpuBackProjectors.h.

#include <cmath>
#include <vector>

#include "core/base/Parallel.h"
#include "core/projectors/BackProjectionKernels.h"
#include "core/projectors/CpuBackProjectors.h"

namespace tomo {
namespace {

BackProjectorInfo cpuInfo(const std::string& kind, Interpolation interpolation) {
    BackProjectorInfo info;
    info.id = "cpu." + kind + (interpolation == Interpolation::Linear ? ".lin" : ".nn");
    info.backend = "cpu";
    info.interpolation = interpolation;
    info.slicesPerPass = 1;
    info.exact = true;
    return info;
}

/// Independent double-precision reference: world coordinates of each pixel, t = x cos + y sin,
/// samples outside the detector read as zero. Threaded over (slice, row).
class ReferenceBackProjector final : public BackProjector {
  public:
    explicit ReferenceBackProjector(Interpolation interpolation)
        : m_info(cpuInfo("reference", interpolation)) {
        m_info.family = "reference";
        m_info.description = std::string("double-precision reference, ") +
                             interpolationName(interpolation) + " interpolation (slow; for tests)";
        m_info.parameters = {{"accumulation", "float64"}, {"threads", "per row"}};
    }
    const BackProjectorInfo& info() const override { return m_info; }

    Status backProject(const Sinograms& sino, const ParallelGeometry& geom,
                       const VolumeGeometry& vol, std::span<const float> weights, Volume& out,
                       const ExecContext& ctx) override {
        TOMO_RETURN_IF_ERROR(prepareBackProjection(sino, geom, vol, weights, out));
        const int angles = geom.angleCount(), n = geom.detectorCount();
        std::vector<double> cosines(static_cast<std::size_t>(angles));
        std::vector<double> sines(cosines.size()), centers(cosines.size());
        for (int p = 0; p < angles; ++p) {
            cosines[static_cast<std::size_t>(p)] = std::cos(geom.angle(p));
            sines[static_cast<std::size_t>(p)] = std::sin(geom.angle(p));
            centers[static_cast<std::size_t>(p)] = geom.center(p);
        }
        const double pitch = geom.detectorPitch();
        const bool linear = m_info.interpolation == Interpolation::Linear;
        const std::size_t rows =
            static_cast<std::size_t>(vol.nz) * static_cast<std::size_t>(vol.ny);
        if (ctx.progress) ctx.progress->setTotal(rows);
        return parallelFor(rows, ctx.threads, ctx.stop, [&](std::size_t item, int) {
            const std::size_t z = item / static_cast<std::size_t>(vol.ny);
            const int iy = static_cast<int>(item % static_cast<std::size_t>(vol.ny));
            float* dst = out.row(z, static_cast<std::size_t>(iy)).data();
            const double y = vol.y(iy);
            for (int ix = 0; ix < vol.nx; ++ix) {
                const double x = vol.x(ix);
                double sum = 0.0;
                for (int p = 0; p < angles; ++p) {
                    const std::size_t pi = static_cast<std::size_t>(p);
                    const float* row = sino.row(z, pi).data();
                    auto sample = [&](double k) {
                        return k >= 0 && k < n ? double(row[static_cast<std::size_t>(k)]) : 0.0;
                    };
                    const double u = centers[pi] + (x * cosines[pi] + y * sines[pi]) / pitch;
                    double value;
                    if (linear) {
                        const double i0 = std::floor(u), f = u - i0;
                        value = (1.0 - f) * sample(i0) + f * sample(i0 + 1.0);
                    } else {
                        value = sample(std::floor(u + 0.5));
                    }
                    sum += double(weights[pi]) * value;
                }
                dst[ix] = static_cast<float>(sum);
            }
            if (ctx.progress) ctx.progress->advance();
        });
    }

  private:
    BackProjectorInfo m_info;
};

/// Float scalar path: one slice at a time, threaded over image rows; the arithmetic of
/// BackProjectionKernels.h on padded weighted rows.
class ScalarBackProjector final : public BackProjector {
  public:
    explicit ScalarBackProjector(Interpolation interpolation)
        : m_info(cpuInfo("scalar", interpolation)) {
        m_info.family = "cpu";
        m_info.description = std::string("float scalar code, one slice per pass, ") +
                             interpolationName(interpolation) + " interpolation";
        m_info.parameters = {{"threads", "per row"}};
    }
    const BackProjectorInfo& info() const override { return m_info; }

    Status backProject(const Sinograms& sino, const ParallelGeometry& geom,
                       const VolumeGeometry& vol, std::span<const float> weights, Volume& out,
                       const ExecContext& ctx) override {
        TOMO_RETURN_IF_ERROR(prepareBackProjection(sino, geom, vol, weights, out));
        const int angles = geom.angleCount(), n = geom.detectorCount();
        const std::size_t bins = static_cast<std::size_t>(detail::paddedBins(n));
        const std::vector<detail::ProjectionConstants> constants =
            detail::projectionConstants(geom, vol);
        const bool linear = m_info.interpolation == Interpolation::Linear;
        const float maxIndex = static_cast<float>(n);
        m_values.assign(static_cast<std::size_t>(angles) * bins, 0.f);
        m_diffs.assign(m_values.size(), 0.f);
        m_rowAcc.resize(static_cast<std::size_t>(resolveThreads(ctx.threads)));
        for (auto& acc : m_rowAcc)
            acc.assign(static_cast<std::size_t>(vol.nx), 0.f);
        if (ctx.progress) ctx.progress->setTotal(static_cast<std::uint64_t>(vol.nz) * vol.ny);

        for (std::size_t z = 0; z < static_cast<std::size_t>(vol.nz); ++z) {
            TOMO_RETURN_IF_ERROR(checkStop(ctx.stop));
            for (int p = 0; p < angles; ++p) {
                const std::size_t off = static_cast<std::size_t>(p) * bins;
                detail::buildPaddedRow(sino.row(z, static_cast<std::size_t>(p)).data(), n,
                                       weights[static_cast<std::size_t>(p)], &m_values[off],
                                       &m_diffs[off]);
            }
            TOMO_RETURN_IF_ERROR(parallelFor(
                static_cast<std::size_t>(vol.ny), ctx.threads, ctx.stop,
                [&](std::size_t iyIndex, int worker) {
                    std::vector<float>& acc = m_rowAcc[static_cast<std::size_t>(worker)];
                    std::fill(acc.begin(), acc.end(), 0.f);
                    const float fiy = static_cast<float>(iyIndex);
                    for (int p = 0; p < angles; ++p) {
                        const detail::ProjectionConstants c =
                            constants[static_cast<std::size_t>(p)];
                        const float base = c.a + fiy * c.cy;
                        const float* v = &m_values[static_cast<std::size_t>(p) * bins];
                        const float* d = &m_diffs[static_cast<std::size_t>(p) * bins];
                        for (int ix = 0; ix < vol.nx; ++ix) {
                            const float u = base + static_cast<float>(ix) * c.cx;
                            float fl = std::floor(linear ? u : u + 0.5f);
                            const float f = u - fl;
                            fl = std::min(std::max(fl, -2.f), maxIndex);
                            const int i = static_cast<int>(fl) + detail::kPadLeft;
                            acc[static_cast<std::size_t>(ix)] += linear ? v[i] + f * d[i] : v[i];
                        }
                    }
                    std::copy(acc.begin(), acc.end(), out.row(z, iyIndex).data());
                    if (ctx.progress) ctx.progress->advance();
                }));
        }
        return Status::ok();
    }

  private:
    BackProjectorInfo m_info;
    std::vector<float> m_values;  ///< [angle][padded bin] weighted values of the current slice
    std::vector<float> m_diffs;   ///< [angle][padded bin] forward differences
    std::vector<std::vector<float>> m_rowAcc;  ///< one row accumulator per worker
};

}  // namespace

std::unique_ptr<BackProjector> makeCpuReferenceBackProjector(Interpolation interpolation) {
    return std::make_unique<ReferenceBackProjector>(interpolation);
}

std::unique_ptr<BackProjector> makeCpuScalarBackProjector(Interpolation interpolation) {
    return std::make_unique<ScalarBackProjector>(interpolation);
}

}  // namespace tomo
