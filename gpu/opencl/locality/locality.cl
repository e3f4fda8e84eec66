// locality.cl - the projector pair of paper 001 on OpenCL (W. J. Palenstijn, K. J. Batenburg,
// J. Sijbers, J. Struct. Biol. 176(2), 2011, doi:10.1016/j.jsb.2011.07.017): ray-driven
// slice-interpolated (Joseph) forward projection in work-groups of 16 angles x 32 rays with the
// four ray-to-block orderings, and voxel-driven back-projection on 32 x 16 tiles over the
// projections in increasing angle. Float only: the per-ray and per-(projection, tile) setup
// that core/locality/LocalityOperator.cpp does in double comes precomputed from the host
// (OpenClLocalityOperator.cpp); contraction into FMAs is off, so every float operation rounds
// as the CPU operator's does.
//
// Buffers: one chunk of core's pipeline (core/locality/DeviceLocality.h): volume slices [y][x]
// volumeStride floats apart, and a subset's compact sinogram rows [row][detector] sinoStride
// floats apart, projection p in row (p - subsetFirst) / subsetStep.
// Work-groups: 32 x 16 x 1; global dimension 2 is the chunk's slice.
#pragma OPENCL FP_CONTRACT OFF

#define BLOCK_DETECTORS 32
#define BLOCK_ANGLES 16
#define RAY_SEGMENTS 8
#define TILE_X 32
#define TILE_Y 16
#define TILE_PIXELS (TILE_X * TILE_Y)

// Pixel i of line k of a slice (a row when rows != 0, else a column); 0 outside the line.
inline float linePixel(__global const float* slice, int nx, int size, int rows, int k, int i) {
    if (i < 0 || i >= size) return 0.0f;
    return rows ? slice[k * nx + i] : slice[i * nx + k];
}

// Sum of the samples of one ray over lines [first, last) (LocalityOperator.cpp's raySum).
inline float raySum(__global const float* slice, int nx, int size, int rows, float pos0, float d,
                    int first, int last) {
    float sum = 0.0f;
    for (int k = first; k < last; ++k) {
        const float pos = pos0 + d * (float)k;
        const float fl = floor(pos);
        const int i = (int)fl;
        const float f = pos - fl;
        const float v0 = linePixel(slice, nx, size, rows, k, i);
        const float v1 = linePixel(slice, nx, size, rows, k, i + 1);
        sum += v0 + f * (v1 - v0);
    }
    return sum;
}

// One work-item per ray (projection slot, detector j) of slice get_global_id(2).
// rayPos0/rayRange: per (projection, detector) the float start position and the active lines
// [x, y); rayStep: per projection (d, step). projections[listBegin, listBegin + count): the
// orientation group's projection indices sorted by angle. spreadAngles, spreadDetectors and
// segments select the ordering (RayOrdering.h).
__kernel __attribute__((reqd_work_group_size(BLOCK_DETECTORS, BLOCK_ANGLES, 1))) void
localityForward(__global const float* volume, __global float* sino,
                __global const float* rayPos0, __global const int2* rayRange,
                __global const float2* rayStep, __global const int* projections, int listBegin,
                int count,
                int rows, int spreadAngles, int spreadDetectors, int segments, int nx, int ny,
                ulong volumeStride, ulong sinoStride, int subsetFirst, int subsetStep,
                int detectors) {
    const int lx = (int)get_local_id(0), ly = (int)get_local_id(1);
    const int gx = (int)get_group_id(0), gy = (int)get_group_id(1);
    const int slot = spreadAngles ? ly * (int)get_num_groups(1) + gy : gy * BLOCK_ANGLES + ly;
    const int j = spreadDetectors ? lx * (int)get_num_groups(0) + gx : gx * BLOCK_DETECTORS + lx;
    const int z = (int)get_global_id(2);
    const int active = slot < count && j < detectors;
    const int lines = rows ? ny : nx;
    const int size = rows ? nx : ny;
    __global const float* slice = volume + (size_t)z * (size_t)volumeStride;

    int p = 0;
    float pos0 = 0.0f, d = 0.0f, step = 0.0f;
    int2 range = (int2)(0, 0);
    if (active) {
        p = projections[listBegin + slot];
        const size_t ray = (size_t)p * (size_t)detectors + (size_t)j;
        pos0 = rayPos0[ray];
        range = rayRange[ray];
        const float2 ds = rayStep[p];
        d = ds.x;
        step = ds.y;
    }
    float sum = 0.0f;
    if (!segments) {
        if (active) sum = raySum(slice, nx, size, rows, pos0, d, range.x, range.y);
    } else {
        // (d): the whole work-group sweeps the slice slab by slab (working set: one slab).
        const int segment = (lines + RAY_SEGMENTS - 1) / RAY_SEGMENTS;
        for (int s0 = 0; s0 < lines; s0 += segment) {
            const int first = max(range.x, s0), last = min(range.y, s0 + segment);
            if (active && first < last) sum += raySum(slice, nx, size, rows, pos0, d, first, last);
            barrier(CLK_GLOBAL_MEM_FENCE);
        }
    }
    if (active)
        sino[(size_t)z * (size_t)sinoStride +
             (size_t)((p - subsetFirst) / subsetStep) * (size_t)detectors + (size_t)j] = sum * step;
}

// One work-item per pixel of a 32 x 16 tile of slice get_global_id(2). tileU0[p * tiles + t]:
// detector position (pixels) of the tile's top-left pixel for projection p; du[p] = (dux, duy)
// per pixel step in x and y. projections[0, count): sorted by angle.
__kernel __attribute__((reqd_work_group_size(TILE_X, TILE_Y, 1))) void
localityBack(__global const float* sino, __global float* volume, __global const float* tileU0,
             __global const float2* du, __global const int* projections, int count, int nx,
             int ny, ulong sinoStride, ulong volumeStride, int subsetFirst, int subsetStep,
             int detectors, float weight) {
    __local float su0[TILE_PIXELS], sdux[TILE_PIXELS], sduy[TILE_PIXELS];
    __local int srow[TILE_PIXELS];
    const int lx = (int)get_local_id(0), ly = (int)get_local_id(1);
    const int tid = ly * TILE_X + lx;
    const int tilesX = (int)get_num_groups(0);
    const int tiles = tilesX * (int)get_num_groups(1);
    const int tile = (int)get_group_id(1) * tilesX + (int)get_group_id(0);
    const int z = (int)get_global_id(2);
    __global const float* slice = sino + (size_t)z * (size_t)sinoStride;
    const float maxU = (float)detectors;
    const float fx = (float)lx, fy = (float)ly;
    float acc = 0.0f;
    for (int b0 = 0; b0 < count; b0 += TILE_PIXELS) {
        const int n = min(TILE_PIXELS, count - b0);
        barrier(CLK_LOCAL_MEM_FENCE);
        if (tid < n) {
            const int p = projections[b0 + tid];
            su0[tid] = tileU0[(size_t)p * (size_t)tiles + (size_t)tile];
            const float2 d = du[p];
            sdux[tid] = d.x;
            sduy[tid] = d.y;
            srow[tid] = (p - subsetFirst) / subsetStep * detectors;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int q = 0; q < n; ++q) {
            const float u = (su0[q] + sduy[q] * fy) + sdux[q] * fx;
            if (!(u > -1.0f && u < maxU)) continue;
            const float fl = floor(u);
            const int i = (int)fl;
            const float f = u - fl;
            __global const float* row = slice + srow[q];
            const float v0 = i >= 0 ? row[i] : 0.0f;
            const float v1 = i + 1 < detectors ? row[i + 1] : 0.0f;
            acc += v0 + f * (v1 - v0);
        }
    }
    const int ix = (int)get_group_id(0) * TILE_X + lx, iy = (int)get_group_id(1) * TILE_Y + ly;
    if (ix < nx && iy < ny)
        volume[(size_t)z * (size_t)volumeStride + (size_t)iy * (size_t)nx + (size_t)ix] =
            acc * weight;
}
