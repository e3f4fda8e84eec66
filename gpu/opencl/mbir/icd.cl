// GPU-ICD kernels (paper 004, Algorithm 3; core/mbir/GpuIcd.h describes the layout and the
// schedule): icdGather copies a batch's SV bands (SVBs) out of the error and weight sinograms,
// icdUpdate updates the SVs' voxels against them, icdWriteBack adds the SVBs' change back to the
// error sinogram. Built with -D CHUNK=32 -D LANES=16 (core/mbir/GpuIcd.h kIcdChunkViews,
// kIcdLanes). Float atomics: compare-and-swap on the bits (OpenCL 1.2 has no float atomic add).
// A stack's slices are resident as [slice][...] planes; a pass-list entry is slice * svCount + sv.

inline void atomicAddFloat(volatile __global float* p, float v) {
    union {
        unsigned int u;
        float f;
    } seen, next;
    do {
        seen.f = *p;
        next.f = seen.f + v;
    } while (atomic_cmpxchg((volatile __global unsigned int*)p, seen.u, next.u) != seen.u);
}

// Work-item (v, r, slot): element (r, v) of the batch's slot-th SVB.
__kernel void icdGather(__global const float* e, __global const float* w,
                        __global const int* list, int first, __global const int* svBase,
                        int views, int rowLength, int padding, int rows, int pitch, int svCount,
                        __global float* svbE, __global float* svbOld, __global float* svbW,
                        __global int* counters) {
    const int v = get_global_id(0), r = get_global_id(1), slot = get_global_id(2);
    if (v >= pitch || r >= rows) return;
    const int entry = list[first + slot], sv = entry % svCount;
    const size_t sheet = (size_t)(entry / svCount) * views * rowLength;  // the SV's slice
    const size_t at = ((size_t)slot * rows + r) * pitch + v;
    float ev = 0.f, wv = 0.f;
    if (v < views) {
        const int c = svBase[(size_t)sv * views + v] + r + padding;
        if (c >= 0 && c < rowLength) {
            ev = e[sheet + (size_t)v * rowLength + c];
            wv = w[sheet + (size_t)v * rowLength + c];
        }
    }
    svbE[at] = ev;
    svbOld[at] = ev;
    svbW[at] = wv;
    if (v == 0 && r == 0) counters[slot] = 0;
}

// rho'(d) / (2 d) of the q-GGMRF (core/mbir/Qggmrf.cpp surrogate()).
inline float surrogate(float d, float p, float q, float invSigmaP, float invTs, float floorD) {
    float ad = fabs(d);
    if (p < 2.f) ad = fmax(ad, floorD);
    const float u = pow(ad * invTs, p - q);
    const float near = p == 2.f ? 1.f : pow(ad, p - 2.f);
    return 0.5f * near * invSigmaP * (1.f + (q / p) * u) / ((1.f + u) * (1.f + u));
}

// The voxel's neighbours in the slices below and above (core/mbir/IcdUpdate.cpp
// gatherNeighbours): x is the voxel's plane, `below` and `above` whether they exist.
typedef struct {
    int below, above;
} Across;

// One voxel's step (work-item 0): theta1, theta2 from the sums, the surrogate of the prior over
// the 8 in-slice neighbours and the 2 across slices, positivity (core/mbir/IcdUpdate.cpp
// icdVoxelStep, one step).
inline float voxelStep(__global const float* x, int ix, int iy, int nx, int ny, Across z,
                       float value, float t1, float t2, float p, float q, float invSigmaP,
                       float invTs, float floorD, float nearest, float diagonal, float across,
                       int positivity) {
    float num = t1, den = t2;
    for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx) {
            if ((dx == 0 && dy == 0) || ix + dx < 0 || ix + dx >= nx || iy + dy < 0 ||
                iy + dy >= ny)
                continue;
            const float d = value - x[(iy + dy) * nx + ix + dx];
            const float b = (dx == 0 || dy == 0) ? nearest : diagonal;
            const float a = b * surrogate(d, p, q, invSigmaP, invTs, floorD);
            num += 2.f * a * d;
            den += 2.f * a;
        }
    const size_t plane = (size_t)nx * ny, j = (size_t)iy * nx + ix;
    for (int k = 0; k < 2; ++k) {
        if (!(k == 0 ? z.below : z.above)) continue;
        const float d = value - (k == 0 ? x[j - plane] : x[j + plane]);
        const float a = across * surrogate(d, p, q, invSigmaP, invTs, floorD);
        num += 2.f * a * d;
        den += 2.f * a;
    }
    if (!(den > 0.f)) return value;
    float next = value - num / den;
    if (positivity) next = fmax(next, 0.f);
    return next;
}

inline int allZero(__global const float* x, int ix, int iy, int nx, int ny, Across z) {
    for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx)
            if (ix + dx >= 0 && ix + dx < nx && iy + dy >= 0 && iy + dy < ny &&
                x[(iy + dy) * nx + ix + dx] != 0.f)
                return 0;
    const size_t plane = (size_t)nx * ny, j = (size_t)iy * nx + ix;
    return !(z.below && x[j - plane] != 0.f) && !(z.above && x[j + plane] != 0.f);
}

// Work-groups blocksPerSv per SV of the batch; each takes the SV's voxels from its counter.
__kernel void icdUpdate(__global float* x, __global float* svbE, __global const float* svbW,
                        __global const uchar* tiles, __global const uint2* chunkMeta,
                        __global const float* scale, __global const int* order,
                        __global const int* svFirst, __global const int* svSize,
                        __global const int* list, int first, __global int* counters,
                        __global float* moved, __global int* updates, int blocksPerSv, int rows,
                        int pitch, int chunks, int nx, int ny, int svCount, int slices,
                        uint rotation, float invSigmaY2, float p, float q, float invSigmaP,
                        float invTs, float floorD, float nearest, float diagonal, float across,
                        int positivity, int zeroSkip, __local float* sum1, __local float* sum2) {
    const int lid = get_local_id(0), size = get_local_size(0);
    const int slot = get_group_id(0) / blocksPerSv;
    const int entry = list[first + slot], sv = entry % svCount, slice = entry / svCount;
    const int n = svSize[sv];
    const Across z = {slice > 0, slice + 1 < slices};
    x += (size_t)slice * nx * ny;  // the SV's plane
    __global float* e = svbE + (size_t)slot * rows * pitch;
    __global const float* w = svbW + (size_t)slot * rows * pitch;
    const int lane = lid % LANES, worker = lid / LANES, workers = size / LANES;
    __local int shared[3];  // the voxel, whether it is skipped; then the step's bits
    __local float step;
    for (;;) {
        if (lid == 0) {
            const int k = atomic_inc(&counters[slot]);
            int j = -1, skip = 0;
            if (k < n) {
                j = order[svFirst[sv] + (int)(((uint)k + rotation) % (uint)n)];
                skip = zeroSkip && x[j] == 0.f && allZero(x, j % nx, j / nx, nx, ny, z);
            }
            shared[0] = j;
            shared[1] = skip;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        const int j = shared[0], skip = shared[1];
        if (j < 0) break;
        if (!skip) {
            float t1 = 0.f, t2 = 0.f;
            for (int c = worker; c < chunks; c += workers) {
                const uint2 meta = chunkMeta[(size_t)j * chunks + c];
                const int row0 = (int)(meta.y & 0xffffu), count = (int)(meta.y >> 16);
                __global const uchar* tile = tiles + (size_t)meta.x * CHUNK + 2 * lane;
                const size_t col = (size_t)c * CHUNK + 2 * lane;
                for (int r = 0; r < count; ++r) {
                    const float2 a = convert_float2(vload2(0, tile + r * CHUNK));
                    const size_t at = (size_t)(row0 + r) * pitch + col;
                    const float2 ev = *(__global const float2*)(e + at);
                    const float2 wa = *(__global const float2*)(w + at) * a;
                    t1 += dot(wa, ev);
                    t2 += dot(wa, a);
                }
            }
            sum1[lid] = t1;
            sum2[lid] = t2;
            barrier(CLK_LOCAL_MEM_FENCE);
            for (int s = size / 2; s > 0; s >>= 1) {
                if (lid < s) {
                    sum1[lid] += sum1[lid + s];
                    sum2[lid] += sum2[lid + s];
                }
                barrier(CLK_LOCAL_MEM_FENCE);
            }
            if (lid == 0) {
                const float sc = scale[j], value = x[j];
                const float next = voxelStep(
                    x, j % nx, j / nx, nx, ny, z, value, -sc * sum1[0] * invSigmaY2,
                    sc * sc * sum2[0] * invSigmaY2, p, q, invSigmaP, invTs, floorD, nearest,
                    diagonal, across, positivity);
                x[j] = next;
                step = (next - value) * sc;
                atomicAddFloat(&moved[first + slot], fabs(next - value));
                atomic_inc(&updates[first + slot]);
            }
            barrier(CLK_LOCAL_MEM_FENCE);
            const float ds = step;
            if (ds != 0.f) {
                for (int c = worker; c < chunks; c += workers) {
                    const uint2 meta = chunkMeta[(size_t)j * chunks + c];
                    const int row0 = (int)(meta.y & 0xffffu), count = (int)(meta.y >> 16);
                    __global const uchar* tile = tiles + (size_t)meta.x * CHUNK + 2 * lane;
                    const size_t col = (size_t)c * CHUNK + 2 * lane;
                    for (int r = 0; r < count; ++r) {
                        const uchar2 a = vload2(0, tile + r * CHUNK);
                        const size_t at = (size_t)(row0 + r) * pitch + col;
                        if (a.x) atomicAddFloat(e + at, -ds * (float)a.x);
                        if (a.y) atomicAddFloat(e + at + 1, -ds * (float)a.y);
                    }
                }
            }
        }
        barrier(CLK_LOCAL_MEM_FENCE);  // before work-item 0 takes the next voxel
    }
}

// Work-item (v, r, slot): adds the SVB element's change back to the error sinogram.
__kernel void icdWriteBack(__global float* e, __global const float* svbE,
                           __global const float* svbOld, __global const int* list, int first,
                           __global const int* svBase, int views, int rowLength, int padding,
                           int rows, int pitch, int svCount) {
    const int v = get_global_id(0), r = get_global_id(1), slot = get_global_id(2);
    if (v >= views || r >= rows) return;
    const size_t at = ((size_t)slot * rows + r) * pitch + v;
    const float change = svbE[at] - svbOld[at];
    if (change == 0.f) return;
    const int entry = list[first + slot], sv = entry % svCount;
    const size_t sheet = (size_t)(entry / svCount) * views * rowLength;
    const int c = svBase[(size_t)sv * views + v] + r + padding;
    if (c >= 0 && c < rowLength) atomicAddFloat(e + sheet + (size_t)v * rowLength + c, change);
}

#ifdef cl_khr_fp64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

// Voxel j's first channel at view v less its SV's band start and its chunk's first row (the
// host's MbirSliceGeometry::firstChannels bit for bit: the same doubles in the same order, no
// fused multiply-add).
inline int tileShift(__global const double* terms, int views, int nx, int ny, int v, int ix,
                     int iy, int base, int rowStart) {
#pragma OPENCL FP_CONTRACT OFF
    const double t = terms[3 * views + ix], u = terms[3 * views + nx + iy];
    const double invPitch = terms[3 * views + nx + ny];
    const double along = t * terms[views + v] + u * terms[2 * views + v];
    const double at = terms[v] + along * invPitch + 0.5;
    return (int)floor(at) - base - rowStart;
}

// Work-group (voxel first + k, chunk c) of CHUNK work-items, one per view of the chunk: the
// work-item of view v = 32 c + lane writes column `lane` of the voxel's tile of chunk c, every row
// of it (so that the group writes whole rows), from the voxel's codes in `codes` (voxel
// `first`'s column first; core/mbir/GpuIcd.cpp hostTiles writes the same bytes). One voxel per
// group: on PoCL 2.5-2.7 s for paper 004's 909 MiB, 3.2-3.3 s with 8 voxels per group.
__kernel void icdTiles(__global const uchar* codes, int first, int count,
                       __global const double* terms, __global const int* runs,
                       __global const int* svBase, __global const uint2* chunkMeta, int views,
                       int chunks, int nx, int ny, int side, int columnSize,
                       __global uchar* tiles) {
    const int k = get_group_id(0), c = get_group_id(1), lane = get_local_id(0);
    if (k >= count || c >= chunks) return;
    const int j = first + k, ix = j % nx, iy = j / nx, v = c * CHUNK + lane;
    const uint2 meta = chunkMeta[(size_t)j * chunks + c];
    const int rowStart = (int)(meta.y & 0xffffu), rowCount = (int)(meta.y >> 16);
    __global uchar* out = tiles + (size_t)meta.x * CHUNK + lane;
    int shift = 0, n = 0;
    __global const uchar* run = codes;
    if (v < views) {
        const int sv = (iy / side) * ((nx + side - 1) / side) + ix / side;
        shift = tileShift(terms, views, nx, ny, v, ix, iy, svBase[(size_t)sv * views + v],
                          rowStart);
        n = runs[views + v];
        run = codes + (size_t)k * columnSize + runs[v];
    }
    for (int r = 0; r < rowCount; ++r) {
        const int e = r - shift;
        out[(size_t)r * CHUNK] = e >= 0 && e < n ? run[e] : (uchar)0;
    }
}
#endif
