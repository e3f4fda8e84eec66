// GPU-ICD kernels on CUDA (IcdKernels.h; core/mbir/GpuIcd.h for the layout).
#include "gpu/cuda/internal/CudaHandles.h"
#include "gpu/cuda/mbir/IcdKernels.h"

namespace tomo::cuda {
namespace kernels {
namespace {

constexpr int kChunk = kIcdChunkViews;
constexpr int kLanes = kIcdLanes;

__global__ void icdGather(IcdSheetArgs a) {
    const int v = int(blockIdx.x * blockDim.x + threadIdx.x);
    const int r = int(blockIdx.y * blockDim.y + threadIdx.y);
    const int slot = int(blockIdx.z);
    if (v >= a.pitch || r >= a.rows) return;
    const int entry = a.list[a.first + slot], sv = entry % a.svCount;
    const size_t sheet = size_t(entry / a.svCount) * a.views * a.rowLength;  // the SV's slice
    const size_t at = (size_t(slot) * a.rows + r) * a.pitch + v;
    float ev = 0.f, wv = 0.f;
    if (v < a.views) {
        const int c = a.svBase[size_t(sv) * a.views + v] + r + a.padding;
        if (c >= 0 && c < a.rowLength) {
            ev = a.e[sheet + size_t(v) * a.rowLength + c];
            wv = a.w[sheet + size_t(v) * a.rowLength + c];
        }
    }
    a.svbE[at] = ev;
    a.svbOld[at] = ev;
    a.svbW[at] = wv;
    if (v == 0 && r == 0) a.counters[slot] = 0;
}

__global__ void icdWriteBack(IcdSheetArgs a) {
    const int v = int(blockIdx.x * blockDim.x + threadIdx.x);
    const int r = int(blockIdx.y * blockDim.y + threadIdx.y);
    const int slot = int(blockIdx.z);
    if (v >= a.views || r >= a.rows) return;
    const size_t at = (size_t(slot) * a.rows + r) * a.pitch + v;
    const float change = a.svbE[at] - a.svbOld[at];
    if (change == 0.f) return;
    const int entry = a.list[a.first + slot], sv = entry % a.svCount;
    const size_t sheet = size_t(entry / a.svCount) * a.views * a.rowLength;
    const int c = a.svBase[size_t(sv) * a.views + v] + r + a.padding;
    if (c >= 0 && c < a.rowLength) atomicAdd(a.e + sheet + size_t(v) * a.rowLength + c, change);
}

/// rho'(d) / (2 d) of the q-GGMRF (core/mbir/Qggmrf.cpp surrogate()).
__device__ float surrogate(float d, const IcdKernelConstants& k) {
    float ad = fabsf(d);
    if (k.p < 2.f) ad = fmaxf(ad, k.floor);
    const float u = powf(ad * k.invTs, k.p - k.q);
    const float near = k.p == 2.f ? 1.f : powf(ad, k.p - 2.f);
    return 0.5f * near * k.invSigmaP * (1.f + (k.q / k.p) * u) / ((1.f + u) * (1.f + u));
}

/// Whether voxel (ix, iy) of plane x has a neighbour in the slice below and above
/// (core/mbir/IcdUpdate.cpp gatherNeighbours).
struct Across {
    bool below = false, above = false;
};

/// One surrogate step of voxel (ix, iy) of plane @p x, over its 8 in-slice neighbours and the 2
/// across slices (core/mbir/IcdUpdate.cpp icdVoxelStep).
__device__ float voxelStep(const float* x, int ix, int iy, int nx, int ny, Across z, float value,
                           float t1, float t2, const IcdKernelConstants& k) {
    float num = t1, den = t2;
    for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx) {
            if ((dx == 0 && dy == 0) || ix + dx < 0 || ix + dx >= nx || iy + dy < 0 ||
                iy + dy >= ny)
                continue;
            const float d = value - __ldcg(x + (iy + dy) * nx + ix + dx);
            const float b = (dx == 0 || dy == 0) ? k.nearest : k.diagonal;
            const float s = b * surrogate(d, k);
            num += 2.f * s * d;
            den += 2.f * s;
        }
    const size_t plane = size_t(nx) * ny, j = size_t(iy) * nx + ix;
    for (int n = 0; n < 2; ++n) {
        if (!(n == 0 ? z.below : z.above)) continue;
        const float d = value - __ldcg(n == 0 ? x + j - plane : x + j + plane);
        const float s = k.across * surrogate(d, k);
        num += 2.f * s * d;
        den += 2.f * s;
    }
    if (!(den > 0.f)) return value;
    float next = value - num / den;
    if (k.positivity) next = fmaxf(next, 0.f);
    return next;
}

__device__ bool allZero(const float* x, int ix, int iy, int nx, int ny, Across z) {
    for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx)
            if (ix + dx >= 0 && ix + dx < nx && iy + dy >= 0 && iy + dy < ny &&
                __ldcg(x + (iy + dy) * nx + ix + dx) != 0.f)
                return false;
    const size_t plane = size_t(nx) * ny, j = size_t(iy) * nx + ix;
    return !(z.below && __ldcg(x + j - plane) != 0.f) && !(z.above && __ldcg(x + j + plane) != 0.f);
}

__global__ void icdUpdate(IcdUpdateArgs a) {
    const int tid = int(threadIdx.x), size = int(blockDim.x);
    const int slot = int(blockIdx.x) / a.blocksPerSv;
    const int entry = a.first + slot;
    const int sv = a.list[entry] % a.svCount, slice = a.list[entry] / a.svCount;
    const int n = a.svSize[sv];
    const Across z{slice > 0, slice + 1 < a.slices};
    float* x = a.x + size_t(slice) * a.nx * a.ny;  // the SV's plane
    float* e = a.svbE + size_t(slot) * a.rows * a.pitch;
    const float* w = a.svbW + size_t(slot) * a.rows * a.pitch;
    const int lane = tid % kLanes, worker = tid / kLanes, workers = size / kLanes;
    __shared__ int voxel, skip;
    __shared__ float step, part1[32], part2[32];
    for (;;) {
        if (tid == 0) {
            const int k = atomicAdd(a.counters + slot, 1);
            int j = -1, s = 0;
            if (k < n) {
                j = a.order[a.svFirst[sv] + int((unsigned(k) + a.rotation) % unsigned(n))];
                s = a.k.zeroSkip && __ldcg(x + j) == 0.f &&
                    allZero(x, j % a.nx, j / a.nx, a.nx, a.ny, z);
            }
            voxel = j;
            skip = s;
        }
        __syncthreads();
        const int j = voxel;
        if (j < 0) break;
        if (!skip) {
            float t1 = 0.f, t2 = 0.f;
            for (int c = worker; c < a.chunks; c += workers) {
                const uint2 meta = __ldg(a.chunkMeta + size_t(j) * a.chunks + c);
                const int row0 = int(meta.y & 0xffffu), count = int(meta.y >> 16);
                const std::uint8_t* tile = a.tiles + size_t(meta.x) * kChunk + 2 * lane;
                const size_t col = size_t(c) * kChunk + 2 * lane;
                for (int r = 0; r < count; ++r) {
                    const uchar2 code = __ldg(reinterpret_cast<const uchar2*>(tile + r * kChunk));
                    const float ax = float(code.x), ay = float(code.y);
                    const size_t at = size_t(row0 + r) * a.pitch + col;
                    const float2 ev = __ldcg(reinterpret_cast<const float2*>(e + at));
                    const float2 wv = __ldg(reinterpret_cast<const float2*>(w + at));
                    t1 += wv.x * ax * ev.x + wv.y * ay * ev.y;
                    t2 += wv.x * ax * ax + wv.y * ay * ay;
                }
            }
            for (int off = 16; off > 0; off >>= 1) {
                t1 += __shfl_down_sync(0xffffffffu, t1, off);
                t2 += __shfl_down_sync(0xffffffffu, t2, off);
            }
            if (tid % 32 == 0) {
                part1[tid / 32] = t1;
                part2[tid / 32] = t2;
            }
            __syncthreads();
            if (tid == 0) {
                float s1 = 0.f, s2 = 0.f;
                for (int i = 0; i < size / 32; ++i) {
                    s1 += part1[i];
                    s2 += part2[i];
                }
                const float sc = a.scale[j], value = __ldcg(x + j);
                const float next =
                    voxelStep(x, j % a.nx, j / a.nx, a.nx, a.ny, z, value,
                              -sc * s1 * a.k.invSigmaY2, sc * sc * s2 * a.k.invSigmaY2, a.k);
                x[j] = next;
                step = (next - value) * sc;
                atomicAdd(a.moved + entry, fabsf(next - value));
                atomicAdd(a.updates + entry, 1);
            }
            __syncthreads();
            const float ds = step;
            if (ds != 0.f) {
                for (int c = worker; c < a.chunks; c += workers) {
                    const uint2 meta = __ldg(a.chunkMeta + size_t(j) * a.chunks + c);
                    const int row0 = int(meta.y & 0xffffu), count = int(meta.y >> 16);
                    const std::uint8_t* tile = a.tiles + size_t(meta.x) * kChunk + 2 * lane;
                    const size_t col = size_t(c) * kChunk + 2 * lane;
                    for (int r = 0; r < count; ++r) {
                        const uchar2 code =
                            __ldg(reinterpret_cast<const uchar2*>(tile + r * kChunk));
                        const size_t at = size_t(row0 + r) * a.pitch + col;
                        if (code.x) atomicAdd(e + at, -ds * float(code.x));
                        if (code.y) atomicAdd(e + at + 1, -ds * float(code.y));
                    }
                }
            }
        }
        __syncthreads();  // before thread 0 takes the next voxel
    }
}

/// Voxel j's first channel at view v less its SV's band start and its chunk's first row (the
/// host's MbirSliceGeometry::firstChannels bit for bit: the same doubles in the same order, no
/// fused multiply-add: the _rn intrinsics are never contracted).
__device__ int tileShift(const double* terms, int views, int nx, int ny, int v, int ix, int iy,
                         int base, int rowStart) {
    const double t = terms[3 * views + ix], u = terms[3 * views + nx + iy];
    const double invPitch = terms[3 * views + nx + ny];
    const double along =
        __dadd_rn(__dmul_rn(t, terms[views + v]), __dmul_rn(u, terms[2 * views + v]));
    const double at = __dadd_rn(__dadd_rn(terms[v], __dmul_rn(along, invPitch)), 0.5);
    return int(floor(at)) - base - rowStart;
}

/// Block (voxel first + k, chunk c) of kChunk threads, one per view of the chunk: the thread of
/// view v = 32 c + lane writes column `lane` of the voxel's tile of chunk c, every row of it (so
/// that the block writes whole rows), from the voxel's codes in `codes` (voxel `first`'s column
/// first; core/mbir/GpuIcd.cpp hostTiles writes the same bytes).
__global__ void icdTiles(IcdTileArgs a) {
    const int k = int(blockIdx.x), c = int(blockIdx.y), lane = int(threadIdx.x);
    if (k >= a.count || c >= a.chunks) return;
    const int j = a.first + k, ix = j % a.nx, iy = j / a.nx, v = c * kChunk + lane;
    const uint2 meta = a.chunkMeta[size_t(j) * a.chunks + c];
    const int rowStart = int(meta.y & 0xffffu), rowCount = int(meta.y >> 16);
    std::uint8_t* out = a.tiles + size_t(meta.x) * kChunk + lane;
    int shift = 0, n = 0;
    const std::uint8_t* run = a.codes;
    if (v < a.views) {
        const int sv = (iy / a.side) * ((a.nx + a.side - 1) / a.side) + ix / a.side;
        shift = tileShift(a.terms, a.views, a.nx, a.ny, v, ix, iy,
                          a.svBase[size_t(sv) * a.views + v], rowStart);
        n = a.runs[a.views + v];
        run = a.codes + size_t(k) * a.columnSize + a.runs[v];
    }
    for (int r = 0; r < rowCount; ++r) {
        const int e = r - shift;
        out[size_t(r) * kChunk] = e >= 0 && e < n ? run[e] : std::uint8_t(0);
    }
}

}  // namespace
}  // namespace kernels

namespace {
dim3 sheetGrid(const IcdSheetArgs& a, int count) {
    return dim3(unsigned((a.pitch + 31) / 32), unsigned((a.rows + 7) / 8), unsigned(count));
}
}  // namespace

Status launchIcdGather(const IcdSheetArgs& args, int count, cudaStream_t stream) {
    if (count <= 0) return Status::ok();
    kernels::icdGather<<<sheetGrid(args, count), dim3(32, 8), 0, stream>>>(args);
    return cudaCheck(cudaGetLastError(), "launch of icdGather");
}

Status launchIcdWriteBack(const IcdSheetArgs& args, int count, cudaStream_t stream) {
    if (count <= 0) return Status::ok();
    kernels::icdWriteBack<<<sheetGrid(args, count), dim3(32, 8), 0, stream>>>(args);
    return cudaCheck(cudaGetLastError(), "launch of icdWriteBack");
}

Status launchIcdTiles(const IcdTileArgs& args, cudaStream_t stream) {
    if (args.count <= 0) return Status::ok();
    const dim3 grid(unsigned(args.count), unsigned(args.chunks));
    kernels::icdTiles<<<grid, kIcdChunkViews, 0, stream>>>(args);
    return cudaCheck(cudaGetLastError(), "launch of icdTiles");
}

Result<int> icdUpdateMaxThreads() {
    cudaFuncAttributes attributes{};
    TOMO_RETURN_IF_ERROR(cudaCheck(cudaFuncGetAttributes(&attributes, kernels::icdUpdate),
                                   "cudaFuncGetAttributes(icdUpdate)"));
    return attributes.maxThreadsPerBlock;
}

Status launchIcdUpdate(const IcdUpdateArgs& args, int count, int threads, cudaStream_t stream) {
    if (count <= 0) return Status::ok();
    if (threads < 32 || threads > 1024 || (threads & (threads - 1)) != 0)
        return invalidArgument("GPU-ICD on CUDA: blocks of 32 to 1024 threads, a power of two");
    kernels::icdUpdate<<<unsigned(count * args.blocksPerSv), unsigned(threads), 0, stream>>>(args);
    return cudaCheck(cudaGetLastError(), "launch of icdUpdate");
}

}  // namespace tomo::cuda
