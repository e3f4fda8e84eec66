// The CPU cone-beam back-projectors: the standard voxel-driven scheme (paper 003, Algorithm 2)
// and the symmetric column scheme (Algorithm 4). Both follow ConeBackProjector.h's arithmetic;
// the kernels are compiled for AVX-512, AVX2 and baseline x86-64 (target_clones: the loader
// picks the best the CPU has), with loops written for the vectoriser (gathers for the taps).

#include <algorithm>
#if defined(__x86_64__)
#include <immintrin.h>
#endif
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

/// col[j] += w * lerp(c, base + step * j) for j in [j0, j1): one detector column's linear
/// interpolation along a voxel column (scalar; the AVX2 version below computes the same).
void passScalar(float* __restrict col, int j0, int j1, float base, float step, float w,
                const float* __restrict c, float maxV) {
    for (int j = j0; j < j1; ++j) {
        const float v = std::clamp(base + step * static_cast<float>(j), -1.0f, maxV);
        const float fv0 = std::floor(v);
        const int iv = static_cast<int>(fv0);
        col[j] += w * (c[iv] + (v - fv0) * (c[iv + 1] - c[iv]));
    }
}

#if defined(__x86_64__)
/// The taps c[iv], c[iv + 1] of 8 lanes whose indices lie in [b0, b0 + 15): two unaligned
/// windows of 8 and a lane permutation, instead of a gather (microcoded on AMD Zen).
__attribute__((target("avx2,fma"))) inline void windowTaps(const float* c, __m256i iv, __m256& a,
                                                           __m256& b) {
    const int b0 = _mm256_cvtsi256_si32(iv);
    const __m256i rel = _mm256_sub_epi32(iv, _mm256_set1_epi32(b0));
    const __m256i upper = _mm256_cmpgt_epi32(rel, _mm256_set1_epi32(7));
    const __m256i rel1 = _mm256_add_epi32(rel, _mm256_set1_epi32(1));
    const __m256i upper1 = _mm256_cmpgt_epi32(rel1, _mm256_set1_epi32(7));
    const __m256 lo = _mm256_loadu_ps(c + b0), hi = _mm256_loadu_ps(c + b0 + 8);
    a = _mm256_blendv_ps(_mm256_permutevar8x32_ps(lo, rel), _mm256_permutevar8x32_ps(hi, rel),
                         _mm256_castsi256_ps(upper));
    b = _mm256_blendv_ps(_mm256_permutevar8x32_ps(lo, rel1), _mm256_permutevar8x32_ps(hi, rel1),
                         _mm256_castsi256_ps(upper1));
}

__attribute__((target("avx2,fma"))) void passAvx2(float* __restrict col, int j0, int j1, float base,
                                                  float step, float w, const float* __restrict c,
                                                  float maxV) {
    const __m256 vBase = _mm256_set1_ps(base), vStep = _mm256_set1_ps(step);
    const __m256 vw = _mm256_set1_ps(w), lo = _mm256_set1_ps(-1.0f), hi = _mm256_set1_ps(maxV);
    const __m256 lane = _mm256_setr_ps(0, 1, 2, 3, 4, 5, 6, 7);
    // 8 lanes span at most 7 step + 1 rows: a 15-row window holds every tap when step < 1.85.
    const bool window = step >= 0.0f && step < 1.85f;
    int j = j0;
    for (; j + 8 <= j1; j += 8) {
        const __m256 jf = _mm256_add_ps(_mm256_set1_ps(static_cast<float>(j)), lane);
        __m256 v = _mm256_add_ps(vBase, _mm256_mul_ps(vStep, jf));
        v = _mm256_min_ps(_mm256_max_ps(v, lo), hi);
        const __m256 fl = _mm256_floor_ps(v);
        const __m256i iv = _mm256_cvttps_epi32(fl);
        __m256 a, b;
        if (window) {
            windowTaps(c, iv, a, b);
        } else {
            a = _mm256_i32gather_ps(c, iv, 4);
            b = _mm256_i32gather_ps(c + 1, iv, 4);
        }
        const __m256 val = _mm256_fmadd_ps(_mm256_sub_ps(v, fl), _mm256_sub_ps(b, a), a);
        _mm256_storeu_ps(col + j, _mm256_fmadd_ps(vw, val, _mm256_loadu_ps(col + j)));
    }
    passScalar(col, j, j1, base, step, w, c, maxV);
}
#endif

}  // namespace

namespace cone::detail {
void columnPass(bool simd, float* col, int j0, int j1, float base, float step, float w,
                const float* c, float maxV) {
#if defined(__x86_64__)
    if (simd) return passAvx2(col, j0, j1, base, step, w, c, maxV);
#endif
    passScalar(col, j0, j1, base, step, w, c, maxV);
}
bool columnPassHasSimd() {
#if defined(__x86_64__)
    static const bool has = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    return has;
#else
    return false;
#endif
}
}  // namespace cone::detail

namespace {

/// Floats of one worker's blended column: the padded rows and 16 more that windowTaps may
/// load (never use).
std::size_t blendSize(int nv) {
    return static_cast<std::size_t>(nv) + cone::kPadBefore + cone::kPadAfter + 16;
}

/// Voxel columns (k, i0 .. i1-1) along y, every view of the batch (views outermost, so that
/// the columns stay in L1 and one view's projection in L2), on transposed projections. Per
/// view, u and the depth are constant along the column (paper 003, Theorems 2 and 3): the two
/// detector columns around u are blended once into @p blend over the rows the column reaches,
/// then every voxel is a linear interpolation in that one column, v = v0 + dv * j (one
/// multiply-add; paper 003's mirror, Theorem 1, would save nothing more here). @p blend holds
/// blendSize(nv) floats.
TOMO_CONE_CLONES
void symmetricColumns(float* __restrict cols, int ny, int i0, int i1, int k,
                      const float* __restrict mats, int views, const float* __restrict proj,
                      std::size_t image, std::size_t stride, float maxU, float maxV,
                      float* __restrict blend) {
    const bool simd = cone::detail::columnPassHasSimd();
    for (int p = 0; p < views; ++p)
        for (int i = i0; i < i1; ++i) {
            float* col = cols + static_cast<std::size_t>(i - i0) * ny;
            const float* m = mats + 12 * p;
            const float f = 1.0f / (m[8] * i + m[10] * k + m[11]);
            const float u = std::clamp((m[0] * i + m[2] * k + m[3]) * f, -1.0f, maxU);
            const float fu0 = std::floor(u), fu = u - fu0;
            const float* a = proj + image * static_cast<std::size_t>(p) +
                             static_cast<std::size_t>(static_cast<int>(fu0) + kPadBefore) * stride;
            const float* b = a + stride;
            const float v0 = (m[4] * i + m[6] * k + m[7]) * f, dv = m[5] * f;
            // Padded rows the column's taps can reach (clamped coordinates).
            const float vEnd = v0 + dv * static_cast<float>(ny - 1);
            const float lo = std::clamp(std::min(v0, vEnd), -1.0f, maxV);
            const float hi = std::clamp(std::max(v0, vEnd), -1.0f, maxV);
            const int r0 = static_cast<int>(std::floor(lo)) + kPadBefore;
            const int r1 = static_cast<int>(std::floor(hi)) + kPadBefore + 1;
            for (int r = r0; r <= r1; ++r)
                blend[r] = a[r] + fu * (b[r] - a[r]);
            cone::detail::columnPass(simd, col, 0, ny, v0, dv, f * f, blend + kPadBefore, maxV);
        }
}

class CpuConeBackProjector final : public ConeBackProjector {
  public:
    explicit CpuConeBackProjector(bool symmetric) : m_symmetric(symmetric) {
        m_info.backend = "cpu";
        if (symmetric) {
            m_info = {
                "cpu.fdk.symmetric",
                "cpu",
                "symmetric",
                ConeSymmetry::Column,
                "CPU, paper 003's symmetric scheme: u and depth once per voxel column, "
                "one blended detector column per voxel column and view, transposed projections",
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
                 int planes, const ExecContext& ctx) override {
        TOMO_RETURN_IF_ERROR(cone::checkBegin(m_info, geometry, grid, firstPlane, planes).status());
        const ConeVolumeGrid slab = grid.slab(firstPlane, planes);
        m_geometry.emplace(geometry);
        m_grid = grid;
        m_first = firstPlane;
        m_planes = planes;
        return m_acc.allocate(slab.voxels(), ctx);
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
        constexpr int kColumns = 16;
        m_blend.assign(static_cast<std::size_t>(resolveThreads(ctx.threads)) * blendSize(d.nv),
                       0.0f);
        const std::size_t perPlane = (static_cast<std::size_t>(g.nx) + kColumns - 1) / kColumns;
        return parallelFor(
            static_cast<std::size_t>(m_planes) * perPlane, ctx.threads, ctx.stop,
            [&](std::size_t item, int worker) {
                const int k = static_cast<int>(item / perPlane);
                const int i0 = static_cast<int>(item % perPlane) * kColumns;
                float* blend = m_blend.data() + static_cast<std::size_t>(worker) * blendSize(d.nv);
                symmetricColumns(m_acc.data() + (static_cast<std::size_t>(k) * g.nx + i0) * g.ny,
                                 g.ny, i0, std::min(g.nx, i0 + kColumns), k + first0, mats.data(),
                                 n, m_packed.data.data(), m_packed.imageSize(), m_packed.stride(),
                                 maxU, maxV, blend);
            });
    }

    Result<Volume> finish(const ExecContext&) override {
        const ConeVolumeGrid g = m_grid.slab(m_first, m_planes);
        TOMO_ASSIGN_OR_RETURN(Volume out, Volume::create(static_cast<std::size_t>(g.nz),
                                                         static_cast<std::size_t>(g.ny),
                                                         static_cast<std::size_t>(g.nx)));
        if (m_symmetric) {
            cone::columnsToVolume(m_acc.data(), g.nx, g.ny, g.nz, out);
        } else {
            for (std::size_t r = 0; r < static_cast<std::size_t>(g.nz) * g.ny; ++r)
                std::copy_n(m_acc.data() + r * g.nx, g.nx, out.rows().row(r).begin());
        }
        m_acc.reset();
        m_geometry.reset();
        return out;
    }

  private:
    bool m_symmetric;
    ConeBackProjectorInfo m_info;
    std::optional<ConeGeometry> m_geometry;
    ConeVolumeGrid m_grid;  ///< the whole volume
    int m_first = 0, m_planes = 0;
    cone::ZeroSlab m_acc;
    cone::PaddedViews m_packed;
    std::vector<float> m_blend;  ///< per worker: one blended detector column
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
    registerCpuConeRowBackProjector(registry);
}

}  // namespace tomo
