// The CPU cone-beam back-projectors: the standard voxel-driven scheme (paper 003, Algorithm 2)
// and the symmetric column scheme (Algorithm 4). Both follow ConeBackProjector.h's arithmetic;
// the kernels are compiled for AVX-512, AVX2 and baseline x86-64 (target_clones: the loader
// picks the best the CPU has), with loops written for the vectoriser (gathers for the taps).

#include <algorithm>
#include <cmath>
#include <optional>

#include "core/base/Parallel.h"
#include "core/cone/ConeBackProjector.h"
#include "core/cone/ConeKernelSupport.h"

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define TOMO_CONE_CLONES \
    __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#else
#define TOMO_CONE_CLONES
#endif

namespace tomo {
namespace {

using cone::kPadBefore;

/// One row (k, j) of the slab, every view of the batch: h evaluated per voxel.
TOMO_CONE_CLONES
void standardRow(float* __restrict acc, int nx, int j, int k, const float* __restrict mats,
                 int views, const float* __restrict proj, std::size_t image, std::size_t stride,
                 float maxU, float maxV) {
    for (int p = 0; p < views; ++p) {
        const float* m = mats + 12 * p;
        const float* base = proj + image * static_cast<std::size_t>(p);
        const float h0 = m[1] * j + m[2] * k + m[3];
        const float h1 = m[5] * j + m[6] * k + m[7];
        const float h2 = m[9] * j + m[10] * k + m[11];
        for (int i = 0; i < nx; ++i) {
            const float f = 1.0f / (h2 + m[8] * i);
            const float u = std::clamp((h0 + m[0] * i) * f, -1.0f, maxU);
            const float v = std::clamp((h1 + m[4] * i) * f, -1.0f, maxV);
            const float fu0 = std::floor(u), fv0 = std::floor(v);
            const float fu = u - fu0, fv = v - fv0;
            const std::size_t at =
                static_cast<std::size_t>(static_cast<int>(fv0) + kPadBefore) * stride +
                static_cast<std::size_t>(static_cast<int>(fu0) + kPadBefore);
            const float top = base[at] + fu * (base[at + 1] - base[at]);
            const float bottom =
                base[at + stride] + fu * (base[at + stride + 1] - base[at + stride]);
            acc[i] += f * f * (top + fv * (bottom - top));
        }
    }
}

/// One voxel column (k, i) along y, every view of the batch, on transposed projections.
TOMO_CONE_CLONES
void symmetricColumn(float* __restrict col, int ny, bool mirror, int i, int k,
                     const float* __restrict mats, int views, const float* __restrict proj,
                     std::size_t image, std::size_t stride, float maxU, float maxV, float nv1) {
    const int half = mirror ? ny / 2 : 0;
    for (int p = 0; p < views; ++p) {
        const float* m = mats + 12 * p;
        const float f = 1.0f / (m[8] * i + m[10] * k + m[11]);
        const float u = std::clamp((m[0] * i + m[2] * k + m[3]) * f, -1.0f, maxU);
        const float w = f * f;
        const float fu0 = std::floor(u), fu = u - fu0;
        const float* a = proj + image * static_cast<std::size_t>(p) +
                         static_cast<std::size_t>(static_cast<int>(fu0) + kPadBefore) * stride +
                         kPadBefore;
        const float* b = a + stride;
        const float v0 = (m[4] * i + m[6] * k + m[7]) * f, dv = m[5] * f;
        auto tap = [&](float v) {
            v = std::clamp(v, -1.0f, maxV);
            const float fv0 = std::floor(v), fv = v - fv0;
            const int iv = static_cast<int>(fv0);
            const float left = a[iv] + fu * (b[iv] - a[iv]);
            const float right = a[iv + 1] + fu * (b[iv + 1] - a[iv + 1]);
            return left + fv * (right - left);
        };
        for (int j = 0; j < half; ++j) {
            const float v = v0 + dv * j;
            col[j] += w * tap(v);
            col[ny - 1 - j] += w * tap(nv1 - v);
        }
        for (int j = half; j < ny - half; ++j)
            col[j] += w * tap(v0 + dv * j);
    }
}

class CpuConeBackProjector final : public ConeBackProjector {
  public:
    explicit CpuConeBackProjector(bool symmetric) : m_symmetric(symmetric) {
        m_info.backend = "cpu";
        if (symmetric) {
            m_info = {"cpu.fdk.symmetric",
                      "cpu",
                      "symmetric",
                      ConeSymmetry::Column,
                      "CPU, paper 003's symmetric scheme: u and depth once per voxel column, "
                      "mirrored voxel pairs, transposed projections",
                      10};
        } else {
            m_info = {"cpu.fdk.standard",
                      "cpu",
                      "standard",
                      ConeSymmetry::General,
                      "CPU, standard voxel-driven scheme (any geometry)",
                      0};
        }
    }
    const ConeBackProjectorInfo& info() const override { return m_info; }

    Status begin(const ConeGeometry& geometry, const ConeVolumeGrid& grid, int firstPlane,
                 int planes, const ExecContext&) override {
        TOMO_RETURN_IF_ERROR(grid.validate());
        if (firstPlane < 0 || planes < 1 || firstPlane + planes > grid.nz)
            return invalidArgument("cone slab outside the volume");
        const ConeVolumeGrid slab = grid.slab(firstPlane, planes);
        const ConeSymmetry has = geometry.symmetry(grid);
        if (!handles(m_info.needs, has))
            return invalidArgument(m_info.id + " needs a geometry without tilts (" +
                                   coneSymmetryName(has) + " given); use cpu.fdk.standard");
        m_geometry.emplace(geometry);
        m_grid = grid;
        m_first = firstPlane;
        m_planes = planes;
        m_mirror = has == ConeSymmetry::Mirror;
        try {
            m_acc.assign(slab.voxels(), 0.0f);
        } catch (const std::bad_alloc&) {
            return outOfMemory("cone volume slab of " + std::to_string(slab.voxels() * 4 >> 20) +
                               " MiB");
        }
        return Status::ok();
    }

    Status add(int first, const Array3<float>& views, const ExecContext& ctx) override {
        if (!m_geometry) return internalError("ConeBackProjector::add before begin");
        const int n = static_cast<int>(views.dim(0));
        const std::vector<float> mats = cone::batchMatrices(*m_geometry, m_grid, first, n);
        cone::packViews(views, m_symmetric, m_packed);
        const DetectorGrid& d = m_geometry->detector();
        const float maxU = static_cast<float>(d.nu), maxV = static_cast<float>(d.nv);
        const ConeVolumeGrid& g = m_grid;
        const int first0 = m_first;
        if (!m_symmetric)
            return parallelFor(static_cast<std::size_t>(m_planes) * g.ny, ctx.threads, ctx.stop,
                               [&](std::size_t item, int) {
                                   const int k = static_cast<int>(item / g.ny);
                                   const int j = static_cast<int>(item % g.ny);
                                   standardRow(m_acc.data() + item * g.nx, g.nx, j, k + first0,
                                               mats.data(), n, m_packed.data.data(),
                                               m_packed.imageSize(), m_packed.stride(), maxU, maxV);
                               });
        constexpr int kColumns = 8;
        const std::size_t perPlane = (static_cast<std::size_t>(g.nx) + kColumns - 1) / kColumns;
        return parallelFor(
            static_cast<std::size_t>(m_planes) * perPlane, ctx.threads, ctx.stop,
            [&](std::size_t item, int) {
                const int k = static_cast<int>(item / perPlane);
                const int i0 = static_cast<int>(item % perPlane) * kColumns;
                for (int i = i0; i < std::min(g.nx, i0 + kColumns); ++i)
                    symmetricColumn(m_acc.data() + (static_cast<std::size_t>(k) * g.nx + i) * g.ny,
                                    g.ny, m_mirror, i, k + first0, mats.data(), n,
                                    m_packed.data.data(), m_packed.imageSize(), m_packed.stride(),
                                    maxU, maxV, static_cast<float>(d.nv - 1));
            });
    }

    Result<Volume> finish(const ExecContext&) override {
        const ConeVolumeGrid g = m_grid.slab(m_first, m_planes);
        TOMO_ASSIGN_OR_RETURN(Volume out, Volume::create(static_cast<std::size_t>(g.nz),
                                                         static_cast<std::size_t>(g.ny),
                                                         static_cast<std::size_t>(g.nx)));
        if (m_symmetric) {
            cone::columnsToVolume(m_acc, g.nx, g.ny, g.nz, out);
        } else {
            for (std::size_t r = 0; r < static_cast<std::size_t>(g.nz) * g.ny; ++r)
                std::copy_n(m_acc.data() + r * g.nx, g.nx, out.rows().row(r).begin());
        }
        m_acc = {};
        m_geometry.reset();
        return out;
    }

  private:
    bool m_symmetric;
    bool m_mirror = false;
    ConeBackProjectorInfo m_info;
    std::optional<ConeGeometry> m_geometry;
    ConeVolumeGrid m_grid;  ///< the whole volume
    int m_first = 0, m_planes = 0;
    std::vector<float> m_acc;
    cone::PaddedViews m_packed;
};

}  // namespace

void registerCpuConeBackProjectors(ConeBackProjectorRegistry& registry) {
    for (bool symmetric : {false, true}) {
        CpuConeBackProjector probe(symmetric);
        registry.add(probe.info(), [symmetric]() -> Result<std::unique_ptr<ConeBackProjector>> {
            return std::unique_ptr<ConeBackProjector>(
                std::make_unique<CpuConeBackProjector>(symmetric));
        });
    }
}

}  // namespace tomo
