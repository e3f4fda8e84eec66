// hybrid.cl - the texture + ALU hybrid (paper 002, S. Chilingaryan et al., J. Real-Time Image
// Proc. 17, 2020, doi:10.1007/s11554-019-00883-w, section 7.1), ported to OpenCL. Needs
// alu_common.cl and alu.cl (built with ALU_NO_ENTRY and FILL_IMAGE=1) first. Build options:
//   RATIO_ALU, RATIO_TEX  of every RATIO_ALU + RATIO_TEX consecutive work-groups (linear
//             work-group id), the first RATIO_ALU run the ALU path, the others the texture path
// Both paths reconstruct the same n x n tile with the same work-item-to-pixel mapping and read
// the same image: the ALU path fills its cache through a nearest sampler at texel centres
// (exact values), the texture path samples it with the LINEAR (or nearest) sampler at
// (u + 0.5, p + 0.5) for each of its Q pixels and every projection, as texture.cl does.
//
// Difference from CUDA: OpenCL has no SM id (%smid) and no guarantee about which compute unit
// runs a work-group, so the split is by work-group id instead of by a per-SM atomic counter.
// Work-groups are dispatched roughly in id order, so consecutive ids land on different compute
// units at the same time and each unit sees about the requested mix; the mix is statistical,
// not enforced per unit.

#if LINEAR
__constant sampler_t kTexSampler =
    CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP | CLK_FILTER_LINEAR;
#else
__constant sampler_t kTexSampler =
    CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP | CLK_FILTER_NEAREST;
#endif

// The texture path for one tile: each work-item sums its Q pixels over all projections.
void textureTile(__read_only image2d_t sino, __constant float4* consts, int projBegin,
                 int projEnd, __global float* out, int nx, int rows, int rowBegin,
                 int accumulate, int tileX, int tileY) {
    const int2 pix = tilePixel((int)get_local_id(0));
    const int x0 = tileX * TILE, band0 = tileY * TILE;
    const float fx = (float)(x0 + pix.x);
    vec acc[Q];
    for (int i = 0; i < Q; ++i)
        acc[i] = VZERO;
    for (int p = projBegin; p < projEnd; ++p) {
        const float4 c = consts[p];
        const float hx = fx * c.x;
        const float py = (float)p + 0.5f;
        for (int i = 0; i < Q; ++i) {
            const float fy = (float)(rowBegin + band0 + pix.y + i * RPS);
            const float u = (c.z + fy * c.y) + hx;
            acc[i] += c.w * FROM4(read_imagef(sino, kTexSampler, (float2)(u + 0.5f, py)));
        }
    }
    storeTile(out, acc, x0, band0, pix, nx, rows, accumulate);
}

__kernel __attribute__((reqd_work_group_size(WG, 1, 1))) void hybridBackProject(
    __read_only image2d_t sino, __constant float4* consts, int projBegin, int projEnd,
    int detectors, __global float* out, int nx, int rows, int rowBegin, int accumulate CHECK_ARG) {
    __local cunit cache[PPB * BINS * CUNITS];
    __local ProjSlot slots[PPB];
#if HX
    __local float hxc[PPB * TILE];
#else
    __local float hxc[1];
#endif
    const int tileX = (int)get_group_id(0), tileY = (int)get_group_id(1);
    const int id = tileY * (int)get_num_groups(0) + tileX;
    // Uniform per work-group, so the barriers inside aluTile are reached by all or none.
    if (id % (RATIO_ALU + RATIO_TEX) < RATIO_ALU)
        aluTile(sino, consts, projBegin, projEnd, detectors, out, nx, rows, rowBegin, accumulate,
                tileX, tileY, cache, slots, hxc CHECK_PASS);
    else
        textureTile(sino, consts, projBegin, projEnd, out, nx, rows, rowBegin, accumulate,
                    tileX, tileY);
}
