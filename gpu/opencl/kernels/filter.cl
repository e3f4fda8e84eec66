// filter.cl - the device stages of FBP's row filter on OpenCL (vkfft/ClVkfftFilter.cpp), around
// VkFFT's in-place R2C and C2R transforms: zero padding of a block of a chunk's rows (their
// pitch) to `padded` samples (padded + 2 floats per row), multiplication of the spectra
// (padded / 2 + 1 complex per row) by the ramp filter's response (core/filter/RampFilter.h,
// which folds in the 1/N of the inverse transform), and unpadding back into the rows.

__kernel void padRows(__global const float* rows, int pitch, int first, int count, int detectors,
                      int padded, __global float* work) {
    const int j = get_global_id(0), r = get_global_id(1);
    if (r >= count || j >= padded + 2) return;
    work[(size_t)r * (padded + 2) + j] =
        j < detectors ? rows[(size_t)(first + r) * pitch + j] : 0.0f;
}

__kernel void multiplySpectra(__global float2* spectra, __global const float* response, int count,
                              int bins) {
    const int k = get_global_id(0), r = get_global_id(1);
    if (r >= count || k >= bins) return;
    spectra[(size_t)r * bins + k] *= response[k];
}

__kernel void unpadRows(__global const float* work, int padded, int count, int detectors,
                        int pitch, int first, __global float* rows) {
    const int j = get_global_id(0), r = get_global_id(1);
    if (r >= count || j >= detectors) return;
    rows[(size_t)(first + r) * pitch + j] = work[(size_t)r * (padded + 2) + j];
}
