// FilterKernels.cu - the device stages of FBP's cuFFT row filter (CudaRowFilter.cpp): zero
// padding of detector rows (with the chunk's row pitch) for an in-place batched R2C transform,
// multiplication of the spectra by the ramp filter's response (core/filter/RampFilter.h's
// response(), which folds in the 1/N of the inverse FFT), and unpadding of the filtered rows.

#include "gpu/cuda/internal/CudaHandles.h"
#include "gpu/cuda/kernels/CudaKernels.h"

namespace tomo::cuda {
namespace kernels {
namespace {

// Row r of work has padded + 2 floats (padded / 2 + 1 complex values after the R2C).
// Rows are strided over gridDim.y (capped at 65535 by rowGrid: S x angles can exceed it).
__global__ void padRows(const float* raw, size_t rowPitch, float* work, int rows, int detectors,
                        int padded) {
    const int stride = padded + 2;
    for (int r = blockIdx.y; r < rows; r += gridDim.y)
        for (int j = blockIdx.x * blockDim.x + threadIdx.x; j < stride; j += gridDim.x * blockDim.x)
            work[static_cast<size_t>(r) * stride + j] =
                j < detectors ? raw[static_cast<size_t>(r) * rowPitch + j] : 0.0f;
}

__global__ void multiplySpectra(float2* spectra, const float* response, int rows, int bins) {
    for (int r = blockIdx.y; r < rows; r += gridDim.y)
        for (int k = blockIdx.x * blockDim.x + threadIdx.x; k < bins; k += gridDim.x * blockDim.x) {
            float2& v = spectra[static_cast<size_t>(r) * bins + k];
            const float h = response[k];
            v.x *= h;
            v.y *= h;
        }
}

__global__ void unpadRows(const float* work, float* rows, size_t rowPitch, int count, int detectors,
                          int padded) {
    const size_t stride = static_cast<size_t>(padded) + 2;
    for (int r = blockIdx.y; r < count; r += gridDim.y)
        for (int j = blockIdx.x * blockDim.x + threadIdx.x; j < detectors;
             j += gridDim.x * blockDim.x)
            rows[static_cast<size_t>(r) * rowPitch + j] = work[static_cast<size_t>(r) * stride + j];
}

dim3 rowGrid(int perRow, int rows) {
    return dim3(static_cast<unsigned>((perRow + 255) / 256 > 64 ? 64 : (perRow + 255) / 256),
                static_cast<unsigned>(rows > 65535 ? 65535 : rows));
}

}  // namespace
}  // namespace kernels

Status launchPadRows(const float* raw, std::size_t rowPitch, float* work, int rows, int detectors,
                     int padded, cudaStream_t stream) {
    kernels::padRows<<<kernels::rowGrid(padded + 2, rows), 256, 0, stream>>>(
        raw, rowPitch, work, rows, detectors, padded);
    return cudaCheck(cudaGetLastError(), "launch of padRows");
}

Status launchMultiplySpectra(float* work, const float* response, int rows, int padded,
                             cudaStream_t stream) {
    const int bins = padded / 2 + 1;
    kernels::multiplySpectra<<<kernels::rowGrid(bins, rows), 256, 0, stream>>>(
        reinterpret_cast<float2*>(work), response, rows, bins);
    return cudaCheck(cudaGetLastError(), "launch of multiplySpectra");
}

Status launchUnpadRows(const float* work, float* rows, std::size_t rowPitch, int count,
                       int detectors, int padded, cudaStream_t stream) {
    kernels::unpadRows<<<kernels::rowGrid(detectors, count), 256, 0, stream>>>(
        work, rows, rowPitch, count, detectors, padded);
    return cudaCheck(cudaGetLastError(), "launch of unpadRows");
}

}  // namespace tomo::cuda
