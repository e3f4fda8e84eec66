#include "core/projectors/BackProjectionKernels.h"
#include "core/projectors/GpuProjectionConstants.h"

#include <algorithm>
#include <cmath>

namespace tomo::detail {

namespace {

/// Portable tiled kernel: the same arithmetic as the SIMD kernels, one lane at a time (the
/// compiler vectorises the slice loop with the baseline SSE2).
template <int S, int G, bool Linear>
void tileGeneric(const TileTask& t) {
    constexpr int kBinFloats = Linear ? 2 * S : S;
    float local[G * S];
    for (int pb = 0; pb < t.angles; pb += t.angleBlock) {
        const int pe = std::min(pb + t.angleBlock, t.angles);
        for (int r = 0; r < t.height; ++r) {
            const float fiy = static_cast<float>(t.y0 + r);
            for (int g = 0; g < t.width; g += G) {
                float* acc = t.acc + (static_cast<std::size_t>(r) * t.tileStride + g) * S;
                std::copy(acc, acc + G * S, local);
                for (int p = pb; p < pe; ++p) {
                    const ProjectionConstants c = t.constants[p];
                    const float base = c.a + fiy * c.cy;
                    const float* row = t.compound + static_cast<std::size_t>(p) * t.angleStride;
                    for (int k = 0; k < G; ++k) {
                        const float u = base + static_cast<float>(t.x0 + g + k) * c.cx;
                        float* a = local + k * S;
                        if constexpr (Linear) {
                            float fl = std::floor(u);
                            const float f = u - fl;
                            fl = std::min(std::max(fl, -2.f), t.maxIndex);
                            const float* e = row + (static_cast<int>(fl) + kPadLeft) * kBinFloats;
                            for (int s = 0; s < S; ++s)
                                a[s] += e[s] + f * e[S + s];
                        } else {
                            float fl = std::floor(u + 0.5f);
                            fl = std::min(std::max(fl, -2.f), t.maxIndex);
                            const float* e = row + (static_cast<int>(fl) + kPadLeft) * kBinFloats;
                            for (int s = 0; s < S; ++s)
                                a[s] += e[s];
                        }
                    }
                }
                std::copy(local, local + G * S, acc);
            }
        }
    }
}

}  // namespace

std::vector<ProjectionConstants> projectionConstants(const ParallelGeometry& geom,
                                                     const VolumeGeometry& vol) {
    std::vector<ProjectionConstants> out(static_cast<std::size_t>(geom.angleCount()));
    const double x0 = vol.x(0), y0 = vol.y(0), pitch = geom.detectorPitch();
    for (int p = 0; p < geom.angleCount(); ++p) {
        const double c = std::cos(geom.angle(p)), s = std::sin(geom.angle(p));
        ProjectionConstants& k = out[static_cast<std::size_t>(p)];
        k.a = static_cast<float>(geom.center(p) + (x0 * c + y0 * s) / pitch);
        k.cx = static_cast<float>(vol.voxelSize * c / pitch);
        k.cy = static_cast<float>(-vol.voxelSize * s / pitch);
    }
    return out;
}

}  // namespace tomo::detail

namespace tomo {

std::vector<GpuProjectionConstants> gpuProjectionConstants(const ParallelGeometry& geom,
                                                           const VolumeGeometry& vol,
                                                           std::span<const float> weights) {
    const std::vector<detail::ProjectionConstants> k = detail::projectionConstants(geom, vol);
    std::vector<GpuProjectionConstants> out(k.size());
    for (std::size_t p = 0; p < k.size(); ++p)
        out[p] = {k[p].cx, k[p].cy, k[p].a, weights[p]};
    return out;
}

}  // namespace tomo

namespace tomo::detail {

void buildPaddedRow(const float* src, int n, float w, float* v, float* d) {
    const int bins = paddedBins(n);
    v[0] = v[1] = 0.f;
    for (int k = 0; k < n; ++k)
        v[k + kPadLeft] = w * src[k];
    v[bins - 1] = 0.f;
    for (int b = 0; b + 1 < bins; ++b)
        d[b] = v[b + 1] - v[b];
    d[bins - 1] = 0.f;
}

int simdGroup(CpuIsa isa) {
    return isa == CpuIsa::Avx512 ? 16 : 8;
}

void backProjectTile(CpuIsa isa, bool linear, const TileTask& task) {
    switch (isa) {
        case CpuIsa::Avx2:
            backProjectTileAvx2(linear, task);
            return;
        case CpuIsa::Avx512:
            backProjectTileAvx512(linear, task);
            return;
        case CpuIsa::Generic:
            if (linear) {
                tileGeneric<8, 8, true>(task);
            } else {
                tileGeneric<8, 8, false>(task);
            }
            return;
    }
}

}  // namespace tomo::detail
