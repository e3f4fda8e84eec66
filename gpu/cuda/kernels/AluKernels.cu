// AluKernels.cu - the ALU kernel with a shared-memory cache (paper 002, S. Chilingaryan et al.,
// J. Real-Time Image Proc. 17, 2020, doi:10.1007/s11554-019-00883-w, section 6; algorithm in
// AluTile.cuh) and its launcher. Only the configurations of the registered variants are
// instantiated (TOMO_CUDA_ALU_CONFIGS), which keeps the fat binary's compile time small; a
// configuration outside the list is Unsupported, never silently replaced.
//
// Occupancy target: __launch_bounds__(threads, minBlocks) with minBlocks chosen so that a
// thread keeps about Q x slices accumulators + 40 registers (65536 registers per SM on every
// architecture from sm_75 to sm_90), capped at 1024 threads per SM (full occupancy on sm_75,
// half or two thirds on the others: the register budget per thread stays >= 32). The column
// `occ` overrides it (0 = that budget): the `.occ1` variants ask for one block per SM, leaving
// the compiler every register, the other end of the occupancy sweep (paper 002 §6.9: +15% at
// full occupancy for linear on Pascal, +7% at 50% for nearest).
#include "gpu/cuda/internal/CudaHandles.h"
#include "gpu/cuda/kernels/AluTile.cuh"

// (tile, threads, projections per batch, slices, linear, acm, hx, fpround, half, occ);
// fpround 0 floorf + F2I, 1 the 2^23 floor (balanced), 2 also the byte offset in FP (SFU-free)
#define TOMO_CUDA_ALU_CONFIGS(X)        \
    X(32, 256, 16, 1, 1, 0, 0, 0, 0, 0) \
    X(32, 256, 16, 1, 0, 0, 0, 0, 0, 0) \
    X(32, 128, 16, 1, 1, 0, 0, 0, 0, 0) \
    X(64, 256, 8, 1, 1, 0, 0, 0, 0, 0)  \
    X(32, 256, 16, 2, 1, 0, 0, 0, 0, 0) \
    X(64, 256, 8, 2, 1, 0, 0, 0, 0, 0)  \
    X(32, 256, 8, 4, 1, 0, 0, 0, 0, 0)  \
    X(64, 256, 8, 4, 0, 0, 0, 0, 0, 0)  \
    X(32, 256, 16, 1, 1, 1, 0, 0, 0, 0) \
    X(64, 256, 8, 1, 1, 1, 0, 0, 0, 0)  \
    X(64, 256, 8, 4, 1, 1, 1, 0, 0, 0)  \
    X(32, 256, 16, 1, 1, 0, 1, 0, 0, 0) \
    X(32, 256, 16, 1, 1, 0, 0, 1, 0, 0) \
    X(64, 256, 8, 1, 0, 0, 0, 1, 0, 0)  \
    X(32, 256, 16, 1, 1, 0, 0, 2, 0, 0) \
    X(64, 256, 8, 1, 0, 0, 0, 2, 0, 0)  \
    X(64, 256, 8, 1, 1, 0, 0, 0, 1, 0)  \
    X(64, 256, 8, 4, 1, 0, 0, 0, 1, 0)  \
    X(32, 256, 16, 1, 1, 0, 0, 0, 0, 1) \
    X(64, 256, 8, 2, 1, 0, 0, 0, 0, 1)

namespace tomo::cuda {
namespace kernels {
namespace {

constexpr int minBlocks(int threads, int accumulators) {
    const int byRegisters = 65536 / (threads * (accumulators + 40));
    const int full = 1024 / threads;  // sm_75 runs at most 1024 threads per SM
    return byRegisters < 1 ? 1 : (byRegisters > full ? full : byRegisters);
}

template <int TILE, int WG, int PPB, int S, bool LINEAR, bool ACM, bool HX, int FPROUND, bool HALF,
          int OCC>
__global__ void __launch_bounds__(WG, OCC > 0 ? OCC : minBlocks(WG, TILE* TILE / WG * S))
    aluKernel(LaunchArgs a) {
    using Tile = AluTile<TILE, WG, PPB, S, LINEAR, ACM, HX, FPROUND, HALF>;
    __shared__ typename Tile::Shared shared;
    Tile::run(a, blockIdx.x, blockIdx.y, shared);
}

struct Key {
    int tile, threads, ppb, slices;
    bool linear, acm, hx;
    int fp;  ///< FPROUND: 0, 1 or 2
    bool half;
    int occ;
};

Key keyOf(const AluConfig& c) {
    return {c.tile,
            c.threads,
            c.projectionsPerBatch,
            c.slices,
            c.interpolation == Interpolation::Linear,
            c.acm,
            c.hxCache,
            c.fpRounding ? (c.fpOffset ? 2 : 1) : 0,
            c.cacheHalf,
            c.minBlocksPerSm};
}

bool same(const Key& k, int tile, int wg, int ppb, int s, int lin, int acm, int hx, int fp,
          int half, int occ) {
    return k.tile == tile && k.threads == wg && k.ppb == ppb && k.slices == s &&
           k.linear == (lin != 0) && k.acm == (acm != 0) && k.hx == (hx != 0) && k.fp == fp &&
           k.half == (half != 0) && k.occ == occ;
}

}  // namespace
}  // namespace kernels

std::size_t aluSharedBytes(const AluConfig& c) {
    const std::size_t entry = (c.cacheHalf ? 2u : 4u) * static_cast<std::size_t>(c.slices) *
                              (c.acm ? 2u : 1u) * (c.family == AluFamily::Oversampling ? 4u : 1u);
    const std::size_t hx = c.hxCache ? 4u * static_cast<std::size_t>(c.tile) : 0u;
    return static_cast<std::size_t>(c.projectionsPerBatch) *
           (static_cast<std::size_t>(c.bins()) * entry + sizeof(kernels::ProjSlot) + hx);
}

std::string aluSupport(const AluConfig& c) {
    using namespace kernels;
    if (c.fpOffset && (!c.fpRounding || c.family != AluFamily::Alu))
        return "the FP byte offset needs FP rounding and the ALU family";
    if (c.family == AluFamily::Alu) {
        const Key k = keyOf(c);
#define TOMO_MATCH(t, w, p, s, l, a, h, f, hf, o) \
    if (same(k, t, w, p, s, l, a, h, f, hf, o)) return {};
        TOMO_CUDA_ALU_CONFIGS(TOMO_MATCH)
#undef TOMO_MATCH
        return "ALU configuration not compiled (see TOMO_CUDA_ALU_CONFIGS in AluKernels.cu)";
    }
    if (c.family == AluFamily::Oversampling) {
        const bool ok = c.slices == 1
                            ? c.tile == 32 && c.threads == 256 && c.projectionsPerBatch == 8
                            : c.slices == 2 && c.tile == 64 && c.threads == 256 &&
                                  c.projectionsPerBatch == 4 && !c.samplerFill;
        return ok ? std::string() : "oversampling configuration not compiled";
    }
    const bool ok = c.tile == 64 && c.threads == 256 && c.projectionsPerBatch == 8 &&
                    (c.slices == 1 || c.slices == 2) && c.interpolation == Interpolation::Linear &&
                    !c.acm && !c.hxCache && !c.fpRounding && !c.cacheHalf && c.ratioAlu >= 0 &&
                    c.ratioTex >= 0 && c.ratioAlu + c.ratioTex > 0;
    return ok ? std::string() : "hybrid configuration not compiled";
}

Status launchAlu(const AluConfig& c, const LaunchArgs& a, cudaStream_t stream) {
    using namespace kernels;
    const Key k = keyOf(c);
    const dim3 grid((a.nx + c.tile - 1) / c.tile, (a.rows + c.tile - 1) / c.tile);
#define TOMO_LAUNCH(t, w, p, s, l, a_, h, f, hf, o)                                               \
    if (same(k, t, w, p, s, l, a_, h, f, hf, o)) {                                                \
        aluKernel<t, w, p, s, l != 0, a_ != 0, h != 0, f, hf != 0, o><<<grid, w, 0, stream>>>(a); \
        return cudaCheck(cudaGetLastError(), "launch of the ALU kernel");                         \
    }
    TOMO_CUDA_ALU_CONFIGS(TOMO_LAUNCH)
#undef TOMO_LAUNCH
    return unsupported("ALU configuration not compiled (see TOMO_CUDA_ALU_CONFIGS)");
}

}  // namespace tomo::cuda
