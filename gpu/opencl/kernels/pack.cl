// pack.cl - a pass of a chunk's sinogram rows packed on the device into the layout of the
// back-projection kernels (core/projectors/PassDriver.h packPassSlices, the same bytes):
// projections [a0, a0 + na) of the pass's slices [s0, s0 + count) of the chunk's rows
// ([slices][angles][pitch] floats) as na rows of `detectors` texels of `channels` values,
// slice c in channel c, channels beyond count zero; packPassHalf stores binary16 (round to
// nearest even, vstore_half_rte: no cl_khr_fp16 needed).

__kernel void packPass(__global const float* rows, int pitch, int angles, int s0, int count,
                       int a0, int na, int detectors, int channels, __global float* out) {
    const int d = get_global_id(0), a = get_global_id(1);
    if (d >= detectors || a >= na) return;
    const size_t o = ((size_t)a * detectors + d) * channels;
    for (int c = 0; c < channels; ++c)
        out[o + c] = c < count ? rows[((size_t)(s0 + c) * angles + a0 + a) * pitch + d] : 0.0f;
}

__kernel void packPassHalf(__global const float* rows, int pitch, int angles, int s0, int count,
                           int a0, int na, int detectors, int channels, __global half* out) {
    const int d = get_global_id(0), a = get_global_id(1);
    if (d >= detectors || a >= na) return;
    const size_t o = ((size_t)a * detectors + d) * channels;
    for (int c = 0; c < channels; ++c)
        vstore_half_rte(c < count ? rows[((size_t)(s0 + c) * angles + a0 + a) * pitch + d] : 0.0f,
                        o + c, out);
}
