// OversampleKernels.cu - the oversampling back-projector (paper 002, S. Chilingaryan et al.,
// J. Real-Time Image Proc. 17, 2020, doi:10.1007/s11554-019-00883-w, section 7.2) and its
// launcher; the same algorithm as gpu/opencl/kernels/oversample.cl. While filling the cache,
// each cached bin b is sampled at b + 0, .25, .5, .75 by linear interpolation - by the ALUs
// from the sinogram buffer, or (SAMPLER) by the texture unit's linear filter at j + k/4 + 0.5
// (k/4 is exact in the texture unit's 8-bit fixed-point weights) - and the accumulation looks
// up the nearest quarter-bin sample, idx = floor(4 h + 0.5): one shared fetch per update, the
// result within 1/8 bin of linear interpolation in position. Approximate.
#include "gpu/cuda/internal/CudaHandles.h"
#include "gpu/cuda/kernels/AluTile.cuh"

namespace tomo::cuda {
namespace kernels {
namespace {

constexpr int kOvs = 4;

template <int TILE, int WG, int PPB, int S, bool SAMPLER>
__global__ void __launch_bounds__(WG, 2) oversampleKernel(LaunchArgs a) {
    using Tile = AluTile<TILE, WG, PPB, S, false, false, false, 0, false>;
    constexpr int BINS = Tile::BINS, RT = Tile::RT, Q = Tile::Q;
    __shared__ Vec<S> cache[PPB * kOvs * BINS];
    __shared__ ProjSlot slots[PPB];
    const int t = threadIdx.x;
    const int2 pix = Tile::tilePixel(t);
    const int x0 = blockIdx.x * TILE, band0 = blockIdx.y * TILE;
    const float x0f = static_cast<float>(x0), y0f = static_cast<float>(a.rowBegin + band0);
    const float pxf = static_cast<float>(pix.x);
    float fy[Q];
    Vec<S> acc[Q];
#pragma unroll
    for (int i = 0; i < Q; ++i) {
        fy[i] = static_cast<float>(pix.y + i * Tile::RPS);
        acc[i] = vzero<S>();
    }
    auto quarter = [&](const ProjSlot& s, int p, int idx) -> Vec<S> {
        if constexpr (SAMPLER) {
            const float x = static_cast<float>(s.jm + (idx >> 2)) +
                            (0.25f * static_cast<float>(idx & 3) + 0.5f);
            return vscale(s.w, fetch<S>(a.sino.texture, x, static_cast<float>(p) + 0.5f));
        } else {
            const int b = idx >> 2;
            return vlerp(loadBin<S>(a.sino, p, s.jm + b, s.w),
                         loadBin<S>(a.sino, p, s.jm + b + 1, s.w),
                         0.25f * static_cast<float>(idx & 3));
        }
    };
    const int g = t / RT, lane = t % RT;
    for (int p0 = a.projBegin; p0 < a.projEnd; p0 += PPB) {
        {
            const int p = p0 + g;
            const bool valid = p < a.projEnd;
            const ProjSlot s = projectionSlot<TILE, BINS>(
                valid ? loadConst(a.consts, p) : make_float4(0.f, 0.f, 0.f, 0.f), x0f, y0f, valid);
            if (lane == 0) slots[g] = s;
            Vec<S>* row = cache + g * (kOvs * BINS);
            if (s.wide || !valid) {
                for (int b = lane; b < kOvs * BINS; b += RT)
                    row[b] = vzero<S>();
            } else if constexpr (SAMPLER) {
                for (int b = lane; b < kOvs * BINS; b += RT)
                    row[b] = quarter(s, p, b);
            } else {
                for (int b = lane; b < BINS; b += RT) {
                    const Vec<S> v0 = loadBin<S>(a.sino, p, s.jm + b, s.w);
                    const Vec<S> v1 = loadBin<S>(a.sino, p, s.jm + b + 1, s.w);
#pragma unroll
                    for (int k = 0; k < kOvs; ++k)
                        row[kOvs * b + k] = vlerp(v0, v1, 0.25f * k);
                }
            }
        }
        __syncthreads();
#pragma unroll
        for (int j = 0; j < PPB; ++j) {
            const ProjSlot s = slots[j];
            const float hx = s.wide ? 4.0f : kOvs * s.off + pxf * (kOvs * s.cx);
            const float cy4 = s.wide ? 0.0f : kOvs * s.cy;
            const Vec<S>* row = cache + j * (kOvs * BINS);
#pragma unroll
            for (int i = 0; i < Q; ++i)
                vadd(acc[i], row[static_cast<int>(hx + fy[i] * cy4 + 0.5f)]);
        }
        for (int j = 0; j < PPB; ++j) {
            const ProjSlot s = slots[j];
            if (s.wide) {
                const float hx = kOvs * s.off + pxf * (kOvs * s.cx);
                for (int i = 0; i < Q; ++i)
                    vadd(acc[i],
                         quarter(s, p0 + j, static_cast<int>(hx + fy[i] * (kOvs * s.cy) + 0.5f)));
            }
        }
        __syncthreads();
    }
    Tile::storeTile(a, acc, x0, band0, pix);
}

}  // namespace
}  // namespace kernels

Status launchOversample(const AluConfig& c, const LaunchArgs& a, cudaStream_t stream) {
    if (std::string why = aluSupport(c); !why.empty() || c.family != AluFamily::Oversampling)
        return unsupported("oversampling: " +
                           (why.empty() ? std::string("not oversampling") : why));
    const dim3 grid((a.nx + c.tile - 1) / c.tile, (a.rows + c.tile - 1) / c.tile);
    if (c.slices == 2)
        kernels::oversampleKernel<64, 256, 4, 2, false><<<grid, 256, 0, stream>>>(a);
    else if (c.samplerFill)
        kernels::oversampleKernel<32, 256, 8, 1, true><<<grid, 256, 0, stream>>>(a);
    else
        kernels::oversampleKernel<32, 256, 8, 1, false><<<grid, 256, 0, stream>>>(a);
    return cudaCheck(cudaGetLastError(), "launch of the oversampling kernel");
}

}  // namespace tomo::cuda
