#pragma once
/// @file GridrecKernels.h
/// @brief Launch interface of gridrec on CUDA (GridrecKernels.cu), the device side of
/// core/fourier's plan (FourierPlan.h, GatherPlan.h). Internal to tomo_gpu_cuda (CUDA types).
/// The per-element arithmetic is core's (GridrecChunkMath.h, GatherMath.h), tested on the CPU.
///
/// A chunk (GridrecChunk) holds G groups: pairs of slices (2q, 2q + 1), and at most one single
/// slice last.
/// Buffers (dense, float2 = complex):
///  - sinograms [S][views][detectors], float or binary16 (half);
///  - rows [G][views][L]: per pair a + i b per view; per single slice two views per row (rows
///    views/2.. of the group are zero), transformed in place by one batched C2C cuFFT plan;
///  - samples [G][views][sampleStride]: k = kFirst + i (pairs: kFirst = -L/2, L + 1 values;
///    single: kFirst = 0, L/2 + 1), FourierPlan.h's values;
///  - grids [G][My][Mx]: written by the gather (GatherMath.h: one thread per grid point, no
///    atomics), inverse transformed by one batched 2-D C2C plan;
///  - images [S][ny][nx], float or binary16.

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#include "core/base/Status.h"
#include "core/fourier/GatherMath.h"
#include "core/fourier/GridrecChunkMath.h"

namespace tomo::cuda {

/// Device constants of a plan.
struct GridrecConstants {
    const float* response = nullptr;      ///< L/2 + 1
    const double* phaseOverPi = nullptr;  ///< per view: FourierPlan::View::phase / pi
    const float* weights = nullptr;       ///< per view
    const GatherView* views = nullptr;    ///< per view
    const GatherSegment* segments = nullptr;
    const std::uint32_t* tileStart = nullptr;
    int tile = 16, tilesX = 0, tilesY = 0;
    const float* coefficients = nullptr;  ///< (degree + 1) x width
    int width = 0, degree = 0;
    const float* deapodX = nullptr;  ///< nx
    const float* deapodY = nullptr;  ///< ny
    const int* columnOf = nullptr;   ///< nx: grid column of output column ix
    const int* rowOf = nullptr;      ///< ny
};

/// Rows of the chunk's groups from its sinograms, zero-padded to L.
Status launchGridrecPack(const GridrecChunk& c, const void* sinograms, float2* rows,
                         cudaStream_t stream);
/// The samples from the transformed rows.
Status launchGridrecSamples(const GridrecChunk& c, const GridrecConstants& k, const float2* rows,
                            float2* samples, cudaStream_t stream);
/// Every grid point of every group gathered from the samples.
Status launchGridrecGather(const GridrecChunk& c, const GridrecConstants& k, const float2* samples,
                           float2* grids, cudaStream_t stream);
/// The images of the chunk from the inverse transformed grids: deapodised, real parts to the
/// first slice of a group, imaginary parts to the second.
Status launchGridrecImages(const GridrecChunk& c, const GridrecConstants& k, const float2* grids,
                           void* images, cudaStream_t stream);

}  // namespace tomo::cuda
