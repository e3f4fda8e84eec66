// fdk_weights.cl - FDK's weights on the device (core/cone/FdkWeightStage.h): the formulas of
// core/cone/FdkWeightFormula.h (the CPU's), whose text the program carries before this one.
// Work item (iu, view): the column's redundancy once, then its nv pixels, in place.
__kernel void fdkWeights(__global float* rows, int pitch, __global const float* table,
                         int firstView, int nu, int nv, int mode, float delta, float halfWidth,
                         float longSide, float originU, float pitchU, float originV,
                         float pitchV) {
    const int iu = (int)get_global_id(0);
    const int view = (int)get_global_id(1);
    if (iu >= nu) return;
    __global const float* p = table + (size_t)(firstView + view) * TOMO_FDK_VIEW_PARAMS;
    const float c = p[0], beta = p[1], u0 = p[2], v0 = p[3], sdd = p[4];
    const float du = originU + (float)iu * pitchU - u0;
    const float cr = c * tomoFdkRedundancy(mode, du, sdd, beta, delta, halfWidth, longSide);
    __global float* col = rows + (size_t)view * nv * pitch + iu;
    for (int iv = 0; iv < nv; ++iv) {
        const float dv = originV + (float)iv * pitchV - v0;
        col[(size_t)iv * pitch] *= cr * tomoFdkCosine(sdd, du, dv);
    }
}
