// HybridKernels.cu - the SM-partitioned texture + ALU hybrid (paper 002, S. Chilingaryan et al.,
// J. Real-Time Image Proc. 17, 2020, doi:10.1007/s11554-019-00883-w, section 7.1) and its
// launcher. A block reads the id of the SM it runs on (%smid), takes a ticket from that SM's
// atomic counter and runs the ALU path (AluTile.cuh: shared cache, ALU interpolation) when
// ticket mod (ratioAlu + ratioTex) < ratioAlu, else the texture path (linear texture fetches
// for its Q pixels per projection). So every SM runs the two kinds of block in the requested
// ratio (paper: 5:3 for one slice, 1:1 for two), keeping its texture units and its ALUs and
// shared memory busy at once. Both paths compute the same tile with the same thread-to-pixel
// mapping; the counters (kSmCounters, zeroed before each launch by the caller) make the split
// per SM instead of per block id as on OpenCL.
#include "gpu/cuda/internal/CudaHandles.h"
#include "gpu/cuda/kernels/AluTile.cuh"

namespace tomo::cuda {
namespace kernels {
namespace {

__device__ __forceinline__ unsigned smId() {
    unsigned id;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(id));
    return id;
}

template <int TILE, int WG, int PPB, int S>
__global__ void __launch_bounds__(WG, 2) hybridKernel(LaunchArgs a, int ratioAlu, int ratioTex) {
    using Tile = AluTile<TILE, WG, PPB, S, true, false, false, 0, false>;
    __shared__ typename Tile::Shared shared;
    __shared__ int useAlu;
    if (threadIdx.x == 0) {
        const unsigned ticket = atomicAdd(&a.smCounters[smId() % kSmCounters], 1u);
        useAlu = static_cast<int>(ticket % static_cast<unsigned>(ratioAlu + ratioTex)) < ratioAlu;
    }
    __syncthreads();
    if (useAlu) {  // uniform per block: every thread reaches the barriers inside run()
        Tile::run(a, blockIdx.x, blockIdx.y, shared);
        return;
    }
    const int2 pix = Tile::tilePixel(threadIdx.x);
    const int x0 = blockIdx.x * TILE, band0 = blockIdx.y * TILE;
    const float fx = static_cast<float>(x0 + pix.x);
    Vec<S> acc[Tile::Q];
#pragma unroll
    for (int i = 0; i < Tile::Q; ++i)
        acc[i] = vzero<S>();
    for (int p = a.projBegin; p < a.projEnd; ++p) {
        const float4 c = loadConst(a.consts, p);
        const float hx = fx * c.x;
        const float py = static_cast<float>(p) + 0.5f;
#pragma unroll
        for (int i = 0; i < Tile::Q; ++i) {
            const float fy = static_cast<float>(a.rowBegin + band0 + pix.y + i * Tile::RPS);
            const float u = (c.z + fy * c.y) + hx;
            vadd(acc[i], vscale(c.w, fetch<S>(a.sino.texture, u + 0.5f, py)));
        }
    }
    Tile::storeTile(a, acc, x0, band0, pix);
}

}  // namespace
}  // namespace kernels

Status launchHybrid(const AluConfig& c, const LaunchArgs& a, cudaStream_t stream) {
    if (std::string why = aluSupport(c); !why.empty() || c.family != AluFamily::Hybrid)
        return unsupported("hybrid: " + (why.empty() ? std::string("not a hybrid config") : why));
    if (a.smCounters == nullptr) return invalidArgument("hybrid: no SM counters");
    TOMO_RETURN_IF_ERROR(
        cudaCheck(cudaMemsetAsync(a.smCounters, 0, kSmCounters * sizeof(unsigned), stream),
                  "cudaMemsetAsync(SM counters)"));
    const dim3 grid((a.nx + c.tile - 1) / c.tile, (a.rows + c.tile - 1) / c.tile);
    if (c.slices == 1)
        kernels::hybridKernel<64, 256, 8, 1><<<grid, 256, 0, stream>>>(a, c.ratioAlu, c.ratioTex);
    else
        kernels::hybridKernel<64, 256, 8, 2><<<grid, 256, 0, stream>>>(a, c.ratioAlu, c.ratioTex);
    return cudaCheck(cudaGetLastError(), "launch of the hybrid kernel");
}

}  // namespace tomo::cuda
