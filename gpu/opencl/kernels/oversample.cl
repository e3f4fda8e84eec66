// oversample.cl - the oversampling back-projector (paper 002, S. Chilingaryan et al., J.
// Real-Time Image Proc. 17, 2020, doi:10.1007/s11554-019-00883-w, section 7.2). While filling
// the cache, every cached bin b is sampled at the 4 positions b + 0, .25, .5, .75 by linear
// interpolation; the accumulation looks up the nearest quarter-bin sample,
// idx = floor(4 h + 0.5), so an update costs one local fetch like nearest interpolation while
// the result follows linear interpolation to within 1/8 bin in position. Approximate.
// Needs alu_common.cl first (its cache origin, slots and mapping). Two ways to take the samples:
//   SAMPLER_FILL 0  the ALUs interpolate them from the sinogram buffer (FILL_IMAGE 0);
//   SAMPLER_FILL 1  the paper's way: the sinogram is an image2d (FILL_IMAGE 1) and each sample is
//                   one read_imagef through a linear sampler at x = j + k/4 + 0.5 (unnormalised,
//                   CLK_ADDRESS_CLAMP: zero border, so samples fade to zero past the detector edge
//                   like the buffer path). k/4 is exact in the 8-bit fixed-point weights of GPU
//                   texture units, so both paths cache the same values up to float rounding.

#define OVS 4  // samples per bin

#ifndef SAMPLER_FILL
#define SAMPLER_FILL 0
#endif
#if SAMPLER_FILL && !FILL_IMAGE
#error "SAMPLER_FILL needs FILL_IMAGE"
#endif

#if SAMPLER_FILL
__constant sampler_t kQuarterSampler =
    CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP | CLK_FILTER_LINEAR;

// The sample at quarter-bin index idx of slot s (the cache's value), by the linear sampler.
inline vec quarterSample(SINO_ARG, int nd, int p, ProjSlot s, int idx) {
    const float x = (float)(s.jm + (idx >> 2)) + (0.25f * (float)(idx & 3) + 0.5f);
    return s.w * FROM4(read_imagef(sino, kQuarterSampler, (float2)(x, (float)p + 0.5f)));
}
#else
// The linear-interpolation sample at quarter-bin index idx of slot s (the cache's value).
inline vec quarterSample(SINO_ARG, int nd, int p, ProjSlot s, int idx) {
    const int b = idx >> 2;
    const vec v0 = loadBin(sino, nd, p, s.jm + b, s.w);
    const vec d = loadBin(sino, nd, p, s.jm + b + 1, s.w) - v0;
    return v0 + (0.25f * (float)(idx & 3)) * d;
}
#endif

__kernel __attribute__((reqd_work_group_size(WG, 1, 1))) void oversampleBackProject(
    SINO_ARG, __constant float4* consts, int projBegin, int projEnd, int nd,
    __global float* out, int nx, int rows, int rowBegin, int accumulate CHECK_ARG) {
    __local vec cache[PPB * OVS * BINS];
    __local ProjSlot slots[PPB];
    const int t = (int)get_local_id(0);
    const int2 pix = tilePixel(t);
    const int x0 = (int)get_group_id(0) * TILE, band0 = (int)get_group_id(1) * TILE;
    const float x0f = (float)x0, y0f = (float)(rowBegin + band0);
    const float pxf = (float)pix.x;
    float fy[Q];
    vec acc[Q];
    for (int i = 0; i < Q; ++i) {
        fy[i] = (float)(pix.y + i * RPS);
        acc[i] = VZERO;
    }
    const int g = t / RT, lane = t % RT;

    for (int p0 = projBegin; p0 < projEnd; p0 += PPB) {
        {
            const int p = p0 + g;
            const int valid = p < projEnd;
            const ProjSlot s =
                projectionSlot(valid ? consts[p] : (float4)(0.0f), x0f, y0f, valid);
            if (lane == 0) slots[g] = s;
            __local vec* row = cache + g * (OVS * BINS);
            if (s.wide || !valid)  // the cache path below reads zeros (position 4)
                for (int b = lane; b < OVS * BINS; b += RT)
                    row[b] = VZERO;
            else
#if SAMPLER_FILL
                // 4 sampler reads per bin (consecutive work-items take consecutive samples).
                for (int b = lane; b < OVS * BINS; b += RT)
                    row[b] = quarterSample(sino, nd, p, s, b);
#else
                for (int b = lane; b < BINS; b += RT) {
                    const vec v0 = loadBin(sino, nd, p, s.jm + b, s.w);
                    const vec d = loadBin(sino, nd, p, s.jm + b + 1, s.w) - v0;
                    row[OVS * b] = v0;
                    row[OVS * b + 1] = v0 + 0.25f * d;
                    row[OVS * b + 2] = v0 + 0.5f * d;
                    row[OVS * b + 3] = v0 + 0.75f * d;
                }
#endif
        }
        barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll
        for (int j = 0; j < PPB; ++j) {
            const ProjSlot s = slots[j];
            // Positions in quarter bins: 4 h = (4 (hb - hm) + x (4 cx)) + y (4 cy), exact scaling.
            const float hx = s.wide ? 4.0f : OVS * s.off + pxf * (OVS * s.cx);
            const float cy4 = s.wide ? 0.0f : OVS * s.cy;
            __local const vec* row = cache + j * (OVS * BINS);
#pragma unroll
            for (int i = 0; i < Q; ++i) {
                const int k = CHECKED((int)(hx + fy[i] * cy4 + 0.5f), OVS * (BINS - 2));
                acc[i] += row[k];
            }
        }
        for (int j = 0; j < PPB; ++j) {  // projections too wide for the cache
            const ProjSlot s = slots[j];
            if (s.wide) {
                const float hx = OVS * s.off + pxf * (OVS * s.cx);
                for (int i = 0; i < Q; ++i)
                    acc[i] += quarterSample(sino, nd, p0 + j, s,
                                            (int)(hx + fy[i] * (OVS * s.cy) + 0.5f));
            }
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    storeTile(out, acc, x0, band0, pix, nx, rows, accumulate);
}
