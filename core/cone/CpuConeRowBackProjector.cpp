// cpu.fdk.rows: the voxel-driven scheme of cpu.fdk.standard (any geometry, ConeBackProjector.h's
// arithmetic) with an AVX2 row pass that reads its taps without gathers: along a row of voxels
// (x), eight consecutive voxels project to detector columns a few pixels apart and, in all but a
// few rows, to one pair of detector rows, so their taps come from two 16-float windows of each of
// the two rows, picked by lane permutation (as the symmetric kernel's column pass does along v).
// Lanes that straddle a detector row, or spread over more than 15 columns, take gathers.
//
// It is the kernel of the GUI's central-plane preview (app/jobs/ConePlane.h): a single plane
// (ny = 1) gives the symmetric scheme nothing to reuse along y, and gathers, microcoded on AMD
// Zen, dominate the standard kernel there. Not chosen automatically (preference -1): it is
// named by the caller.
#include <algorithm>
#if defined(__x86_64__)
#include <immintrin.h>
#endif
#include <cmath>
#include <optional>

#include "core/base/Parallel.h"
#include "core/cone/ConeBackProjector.h"
#include "core/cone/ConeKernelSupport.h"

namespace tomo {
namespace {

using cone::kPadBefore;

/// Floats read past a batch's last padded row by the window loads (never used).
constexpr std::size_t kWindowSlack = 16;

/// Voxels [i0, i1) of one row: h = (h0, h1, h2) + i (m0, m4, m8), scalar.
void rowScalar(float* acc, int i0, int i1, float h0, float h1, float h2, const float* m,
               const float* base, std::size_t stride, float maxU, float maxV) {
    for (int i = i0; i < i1; ++i) {
        const float fi = static_cast<float>(i);
        const float f = 1.0f / (h2 + m[8] * fi);
        const float u = std::clamp((h0 + m[0] * fi) * f, -1.0f, maxU);
        const float v = std::clamp((h1 + m[4] * fi) * f, -1.0f, maxV);
        const float fu0 = std::floor(u), fv0 = std::floor(v);
        const float fu = u - fu0, fv = v - fv0;
        const std::size_t at =
            static_cast<std::size_t>(static_cast<int>(fv0) + kPadBefore) * stride +
            static_cast<std::size_t>(static_cast<int>(fu0) + kPadBefore);
        const float top = base[at] + fu * (base[at + 1] - base[at]);
        const float bottom = base[at + stride] + fu * (base[at + stride + 1] - base[at + stride]);
        acc[i] += f * f * (top + fv * (bottom - top));
    }
}

#if defined(__x86_64__)
/// Taps c[rel] and c[rel + 1] of 8 lanes, rel in [0, 15), from two windows of 8.
__attribute__((target("avx2,fma"))) inline void taps(const float* c, __m256i rel, __m256& a,
                                                     __m256& b) {
    const __m256i rel1 = _mm256_add_epi32(rel, _mm256_set1_epi32(1));
    const __m256i seven = _mm256_set1_epi32(7);
    const __m256 lo = _mm256_loadu_ps(c), hi = _mm256_loadu_ps(c + 8);
    a = _mm256_blendv_ps(_mm256_permutevar8x32_ps(lo, rel), _mm256_permutevar8x32_ps(hi, rel),
                         _mm256_castsi256_ps(_mm256_cmpgt_epi32(rel, seven)));
    b = _mm256_blendv_ps(_mm256_permutevar8x32_ps(lo, rel1), _mm256_permutevar8x32_ps(hi, rel1),
                         _mm256_castsi256_ps(_mm256_cmpgt_epi32(rel1, seven)));
}

__attribute__((target("avx2,fma"))) void rowAvx2(float* acc, int nx, float h0, float h1, float h2,
                                                 const float* m, const float* base,
                                                 std::size_t stride, float maxU, float maxV) {
    const __m256 lane = _mm256_setr_ps(0, 1, 2, 3, 4, 5, 6, 7);
    const __m256 lo = _mm256_set1_ps(-1.0f), hiU = _mm256_set1_ps(maxU), hiV = _mm256_set1_ps(maxV),
                 one = _mm256_set1_ps(1.0f);
    const __m256 m0 = _mm256_set1_ps(m[0]), m4 = _mm256_set1_ps(m[4]), m8 = _mm256_set1_ps(m[8]);
    const __m256 vh0 = _mm256_set1_ps(h0), vh1 = _mm256_set1_ps(h1), vh2 = _mm256_set1_ps(h2);
    const __m256i pad = _mm256_set1_epi32(kPadBefore);
    const __m256i vstride = _mm256_set1_epi32(static_cast<int>(stride));
    int i = 0;
    for (; i + 8 <= nx; i += 8) {
        const __m256 fi = _mm256_add_ps(_mm256_set1_ps(static_cast<float>(i)), lane);
        const __m256 f = _mm256_div_ps(one, _mm256_fmadd_ps(m8, fi, vh2));
        const __m256 u =
            _mm256_min_ps(_mm256_max_ps(_mm256_mul_ps(_mm256_fmadd_ps(m0, fi, vh0), f), lo), hiU);
        const __m256 v =
            _mm256_min_ps(_mm256_max_ps(_mm256_mul_ps(_mm256_fmadd_ps(m4, fi, vh1), f), lo), hiV);
        const __m256 fu0 = _mm256_floor_ps(u), fv0 = _mm256_floor_ps(v);
        const __m256 fu = _mm256_sub_ps(u, fu0), fv = _mm256_sub_ps(v, fv0);
        const __m256i iu = _mm256_add_epi32(_mm256_cvttps_epi32(fu0), pad);
        const __m256i iv = _mm256_add_epi32(_mm256_cvttps_epi32(fv0), pad);
        alignas(32) int us[8], vs[8];
        _mm256_store_si256(reinterpret_cast<__m256i*>(us), iu);
        _mm256_store_si256(reinterpret_cast<__m256i*>(vs), iv);
        const int b0 = std::min(us[0], us[7]), span = std::max(us[0], us[7]) - b0;
        const bool oneRow = _mm256_movemask_ps(_mm256_castsi256_ps(
                                _mm256_cmpeq_epi32(iv, _mm256_set1_epi32(vs[0])))) == 0xff;
        __m256 a0, b0v, a1, b1;
        if (oneRow && span <= 14) {  // u is monotone along the row: its ends bound the lanes
            const __m256i rel = _mm256_sub_epi32(iu, _mm256_set1_epi32(b0));
            const float* top = base + static_cast<std::size_t>(vs[0]) * stride + b0;
            taps(top, rel, a0, b0v);
            taps(top + stride, rel, a1, b1);
        } else {
            const __m256i at = _mm256_add_epi32(_mm256_mullo_epi32(iv, vstride), iu);
            const __m256i at1 = _mm256_add_epi32(at, vstride);
            a0 = _mm256_i32gather_ps(base, at, 4);
            b0v = _mm256_i32gather_ps(base + 1, at, 4);
            a1 = _mm256_i32gather_ps(base, at1, 4);
            b1 = _mm256_i32gather_ps(base + 1, at1, 4);
        }
        const __m256 top = _mm256_fmadd_ps(fu, _mm256_sub_ps(b0v, a0), a0);
        const __m256 bottom = _mm256_fmadd_ps(fu, _mm256_sub_ps(b1, a1), a1);
        const __m256 val = _mm256_fmadd_ps(fv, _mm256_sub_ps(bottom, top), top);
        _mm256_storeu_ps(acc + i,
                         _mm256_fmadd_ps(_mm256_mul_ps(f, f), val, _mm256_loadu_ps(acc + i)));
    }
    rowScalar(acc, i, nx, h0, h1, h2, m, base, stride, maxU, maxV);
}

bool hasAvx2() {
    static const bool has = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    return has;
}
#endif

/// Row (j, k) of the slab, every view of the batch.
void projectRow(float* acc, int nx, int j, int k, const float* mats, int views, const float* proj,
                std::size_t image, std::size_t stride, float maxU, float maxV) {
    for (int p = 0; p < views; ++p) {
        const float* m = mats + 12 * p;
        const float* base = proj + image * static_cast<std::size_t>(p);
        const float fj = static_cast<float>(j), fk = static_cast<float>(k);
        const float h0 = m[1] * fj + m[2] * fk + m[3];
        const float h1 = m[5] * fj + m[6] * fk + m[7];
        const float h2 = m[9] * fj + m[10] * fk + m[11];
#if defined(__x86_64__)
        if (hasAvx2()) {
            rowAvx2(acc, nx, h0, h1, h2, m, base, stride, maxU, maxV);
            continue;
        }
#endif
        rowScalar(acc, 0, nx, h0, h1, h2, m, base, stride, maxU, maxV);
    }
}

class CpuConeRowBackProjector final : public ConeBackProjector {
  public:
    CpuConeRowBackProjector()
        : m_info{"cpu.fdk.rows",
                 "cpu",
                 "rows",
                 ConeSymmetry::General,
                 "CPU, voxel rows with gather-free AVX2 taps (any geometry; the one-plane "
                 "preview's kernel, named by the caller)",
                 -1} {}
    const ConeBackProjectorInfo& info() const override { return m_info; }

    Status begin(const ConeGeometry& geometry, const ConeVolumeGrid& grid, int firstPlane,
                 int planes, const ExecContext& ctx) override {
        TOMO_RETURN_IF_ERROR(cone::checkBegin(m_info, geometry, grid, firstPlane, planes).status());
        m_geometry.emplace(geometry);
        m_grid = grid;
        m_first = firstPlane;
        m_planes = planes;
        return m_acc.allocate(grid.slab(firstPlane, planes).voxels(), ctx);
    }

    Status add(int first, const Array3<float>& views, const ExecContext& ctx) override {
        if (!m_geometry) return internalError("ConeBackProjector::add before begin");
        const int n = static_cast<int>(views.dim(0));
        const std::vector<float> mats = cone::batchMatrices(*m_geometry, m_grid, first, n);
        cone::packViews(views, false, m_packed);
        m_packed.data.resize(m_packed.data.size() + kWindowSlack, 0.0f);
        const DetectorGrid& d = m_geometry->detector();
        const float maxU = static_cast<float>(d.nu), maxV = static_cast<float>(d.nv);
        const ConeVolumeGrid& g = m_grid;
        return parallelFor(static_cast<std::size_t>(m_planes) * g.ny, ctx.threads, ctx.stop,
                           [&](std::size_t item, int) {
                               const int k = static_cast<int>(item / g.ny);
                               const int j = static_cast<int>(item % g.ny);
                               projectRow(m_acc.data() + item * g.nx, g.nx, j, k + m_first,
                                          mats.data(), n, m_packed.data.data(),
                                          m_packed.imageSize(), m_packed.stride(), maxU, maxV);
                           });
    }

    Result<Volume> finish(const ExecContext&) override {
        const ConeVolumeGrid g = m_grid.slab(m_first, m_planes);
        TOMO_ASSIGN_OR_RETURN(Volume out, Volume::create(static_cast<std::size_t>(g.nz),
                                                         static_cast<std::size_t>(g.ny),
                                                         static_cast<std::size_t>(g.nx)));
        for (std::size_t r = 0; r < static_cast<std::size_t>(g.nz) * g.ny; ++r)
            std::copy_n(m_acc.data() + r * g.nx, g.nx, out.rows().row(r).begin());
        m_acc.reset();
        m_geometry.reset();
        return out;
    }

  private:
    ConeBackProjectorInfo m_info;
    std::optional<ConeGeometry> m_geometry;
    ConeVolumeGrid m_grid;  ///< the whole volume
    int m_first = 0, m_planes = 0;
    cone::ZeroSlab m_acc;
    cone::PaddedViews m_packed;
};

}  // namespace

void registerCpuConeRowBackProjector(ConeBackProjectorRegistry& registry) {
    CpuConeRowBackProjector probe;
    registry.add(probe.info(), []() -> Result<std::unique_ptr<ConeBackProjector>> {
        return std::unique_ptr<ConeBackProjector>(std::make_unique<CpuConeRowBackProjector>());
    });
}

}  // namespace tomo
