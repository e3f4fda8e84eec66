// LocalityKernels.cu - the projector pair of paper 001 on CUDA (W. J. Palenstijn,
// K. J. Batenburg, J. Sijbers, J. Struct. Biol. 176(2), 2011, doi:10.1016/j.jsb.2011.07.017):
// ray-driven slice-interpolated forward projection in blocks of 16 angles x 32 rays with the
// four orderings, and voxel-driven back-projection on 32 x 16 tiles over consecutive angles.
// Compiled with --fmad=false (gpu/cuda/CMakeLists.txt): every operation rounds as the CPU
// operator's does, so the two agree to the rounding of the per-ray setup (LocalityKernels.h).
// The per-ray and per-(tile, projection) setup is in double, as on the CPU; the inner loops
// are float.
#include <cuda_runtime.h>

#include "gpu/cuda/internal/CudaHandles.h"
#include "gpu/cuda/locality/LocalityKernels.h"

namespace tomo::cuda {
namespace kernels {
namespace {

constexpr int kForwardThreads = kLocalityBlockAngles * kLocalityBlockDetectors;
constexpr int kBackThreads = kLocalityTileX * kLocalityTileY;

/// RayGeometry.h's activeLines(): lines k in [first, last) where pos0 + k step is in (-1, size).
__device__ int2 activeLines(double pos0, double step, int size, int count) {
    double lo = 0.0, hi = count;
    if (step > 0.0) {
        lo = fmax(lo, floor((-1.0 - pos0) / step));
        hi = fmin(hi, ceil((size - pos0) / step) + 1.0);
    } else if (step < 0.0) {
        lo = fmax(lo, floor((size - pos0) / step));
        hi = fmin(hi, ceil((-1.0 - pos0) / step) + 1.0);
    } else if (!(pos0 > -1.0 && pos0 < size)) {
        hi = 0.0;
    }
    if (!(hi > lo)) return make_int2(0, 0);
    return make_int2(static_cast<int>(lo), static_cast<int>(hi));
}

/// Pixel i of line k (a row when kRows, else a column) of the slice at @p base; 0 outside.
template <bool kRows>
__device__ __forceinline__ float linePixel(cudaTextureObject_t volume, size_t base, int nx,
                                           int size, int k, int i) {
    if (i < 0 || i >= size) return 0.0f;
    const size_t index =
        kRows ? base + static_cast<size_t>(k) * nx + i : base + static_cast<size_t>(i) * nx + k;
    return tex1Dfetch<float>(volume, static_cast<int>(index));
}

/// Sum of the samples of one ray over lines [first, last) (LocalityOperator.cpp's raySum).
template <bool kRows>
__device__ float raySum(cudaTextureObject_t volume, size_t base, int nx, int size, float pos0,
                        float d, int first, int last) {
    float sum = 0.0f;
    for (int k = first; k < last; ++k) {
        const float pos = pos0 + d * static_cast<float>(k);
        const float fl = floorf(pos);
        const int i = static_cast<int>(fl);
        const float f = pos - fl;
        const float v0 = linePixel<kRows>(volume, base, nx, size, k, i);
        const float v1 = linePixel<kRows>(volume, base, nx, size, k, i + 1);
        sum += v0 + f * (v1 - v0);
    }
    return sum;
}

/// One thread per ray (projection slot, detector j) of slice blockIdx.z; blockDim 32 x 16.
template <bool kRows, bool kSegments>
__global__ void __launch_bounds__(kForwardThreads) localityForward(LocalityForwardArgs args) {
    const LocalityOrdering& o = args.ordering;
    const int slot = o.spreadAngles
                         ? static_cast<int>(threadIdx.y * gridDim.y + blockIdx.y)
                         : static_cast<int>(blockIdx.y * kLocalityBlockAngles + threadIdx.y);
    const int j = o.spreadDetectors
                      ? static_cast<int>(threadIdx.x * gridDim.x + blockIdx.x)
                      : static_cast<int>(blockIdx.x * kLocalityBlockDetectors + threadIdx.x);
    const int z = static_cast<int>(blockIdx.z);
    const bool active = slot < args.count && j < args.detectors;
    const int lines = kRows ? args.ny : args.nx;
    const int size = kRows ? args.nx : args.ny;
    const size_t base = static_cast<size_t>(z) * args.volumeStride;

    int p = 0;
    LocalityRay ray;
    int2 range = make_int2(0, 0);
    double pos0d = 0.0;
    if (active) {
        p = args.projections[slot];
        ray = args.rays[p];
        pos0d = ray.a + ray.b * j;
        range = activeLines(pos0d, ray.d, size, lines);
    }
    const float pos0 = static_cast<float>(pos0d), d = static_cast<float>(ray.d);
    float sum = 0.0f;
    if (!kSegments) {
        if (active)
            sum = raySum<kRows>(args.volume, base, args.nx, size, pos0, d, range.x, range.y);
    } else {
        // (d): the whole block sweeps the slice slab by slab, so its working set is one slab.
        const int segment = (lines + kLocalitySegments - 1) / kLocalitySegments;
        for (int s0 = 0; s0 < lines; s0 += segment) {
            const int first = max(range.x, s0), last = min(range.y, s0 + segment);
            if (active && first < last)
                sum += raySum<kRows>(args.volume, base, args.nx, size, pos0, d, first, last);
            __syncthreads();
        }
    }
    if (active)
        args.sino[static_cast<size_t>(z) * args.sinoStride +
                  static_cast<size_t>((p - args.subsetFirst) / args.subsetStep) * args.detectors +
                  j] = sum * ray.step;
}

/// One thread per pixel of a 32 x 16 tile of slice blockIdx.z; the projections' constants are
/// staged in shared memory kBackThreads at a time.
__global__ void __launch_bounds__(kBackThreads) localityBack(LocalityBackArgs args) {
    __shared__ float su0[kBackThreads], sdux[kBackThreads], sduy[kBackThreads];
    __shared__ int srow[kBackThreads];
    const int tx0 = static_cast<int>(blockIdx.x) * kLocalityTileX;
    const int ty0 = static_cast<int>(blockIdx.y) * kLocalityTileY;
    const int z = static_cast<int>(blockIdx.z);
    const int tid = static_cast<int>(threadIdx.y * blockDim.x + threadIdx.x);
    const double xs = args.x0 + static_cast<double>(tx0) * args.voxelSize;
    const double ys = args.y0 - static_cast<double>(ty0) * args.voxelSize;
    const size_t base = static_cast<size_t>(z) * args.sinoStride;
    const float maxU = static_cast<float>(args.detectors);
    const float fx = static_cast<float>(threadIdx.x), fy = static_cast<float>(threadIdx.y);
    float acc = 0.0f;
    for (int b0 = 0; b0 < args.count; b0 += kBackThreads) {
        const int n = min(kBackThreads, args.count - b0);
        __syncthreads();
        if (tid < n) {
            const int p = args.projections[b0 + tid];
            const double c = args.cosines[p], s = args.sines[p];
            su0[tid] = static_cast<float>(args.centers[p] + (xs * c + ys * s) / args.pitch);
            sdux[tid] = static_cast<float>(args.voxelSize * c / args.pitch);
            sduy[tid] = static_cast<float>(-args.voxelSize * s / args.pitch);
            srow[tid] = (p - args.subsetFirst) / args.subsetStep * args.detectors;
        }
        __syncthreads();
        for (int q = 0; q < n; ++q) {
            const float u = (su0[q] + sduy[q] * fy) + sdux[q] * fx;
            if (!(u > -1.0f && u < maxU)) continue;
            const float fl = floorf(u);
            const int i = static_cast<int>(fl);
            const float f = u - fl;
            const int row = static_cast<int>(base) + srow[q];
            const float v0 = i >= 0 ? tex1Dfetch<float>(args.sino, row + i) : 0.0f;
            const float v1 =
                i + 1 < args.detectors ? tex1Dfetch<float>(args.sino, row + i + 1) : 0.0f;
            acc += v0 + f * (v1 - v0);
        }
    }
    const int ix = tx0 + static_cast<int>(threadIdx.x), iy = ty0 + static_cast<int>(threadIdx.y);
    if (ix < args.nx && iy < args.ny)
        args.volume[static_cast<size_t>(z) * args.volumeStride + static_cast<size_t>(iy) * args.nx +
                    ix] = acc * args.weight;
}

}  // namespace
}  // namespace kernels

Status launchLocalityForward(const LocalityForwardArgs& args, cudaStream_t stream) {
    if (args.count <= 0 || args.slices <= 0 || args.detectors <= 0) return Status::ok();
    const dim3 block(kLocalityBlockDetectors, kLocalityBlockAngles);
    const dim3 grid(
        static_cast<unsigned>((args.detectors + kLocalityBlockDetectors - 1) /
                              kLocalityBlockDetectors),
        static_cast<unsigned>((args.count + kLocalityBlockAngles - 1) / kLocalityBlockAngles),
        static_cast<unsigned>(args.slices));
    const bool seg = args.ordering.segments;
    if (args.alongRows && seg)
        kernels::localityForward<true, true><<<grid, block, 0, stream>>>(args);
    else if (args.alongRows)
        kernels::localityForward<true, false><<<grid, block, 0, stream>>>(args);
    else if (seg)
        kernels::localityForward<false, true><<<grid, block, 0, stream>>>(args);
    else
        kernels::localityForward<false, false><<<grid, block, 0, stream>>>(args);
    return cudaCheck(cudaGetLastError(), "launch of localityForward");
}

Status launchLocalityBack(const LocalityBackArgs& args, cudaStream_t stream) {
    if (args.count <= 0 || args.slices <= 0) return Status::ok();
    const dim3 block(kLocalityTileX, kLocalityTileY);
    const dim3 grid(static_cast<unsigned>((args.nx + kLocalityTileX - 1) / kLocalityTileX),
                    static_cast<unsigned>((args.ny + kLocalityTileY - 1) / kLocalityTileY),
                    static_cast<unsigned>(args.slices));
    kernels::localityBack<<<grid, block, 0, stream>>>(args);
    return cudaCheck(cudaGetLastError(), "launch of localityBack");
}

}  // namespace tomo::cuda
