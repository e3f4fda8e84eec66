#pragma once
/// @file CudaGridrec.h
/// @brief Gridrec on a CUDA GPU with cuFFT ("cuda.gridrec"; core/fourier/FourierMethod.h), host
/// sinograms in, host images out. No CUDA types in this header.
///
/// The host side is core's: FourierPlan (sizes, kernel, filter, views, deapodisation),
/// GatherPlan (tiles and their segments), and the pipeline driver every device path runs
/// through (core/pipeline/ChunkPipeline.h, with core/fourier/GridrecPipeline.h's I/O): chunks
/// of S slices (even; S/2 groups, the last group of the volume one slice when it has an odd
/// count) are packed into pinned rings by host threads (as binary16 with precision half) and
/// uploaded on the Upload stream while the previous chunk computes on the Compute stream and
/// the one before downloads on the Download stream. On the Compute stream, two stages:
///  1. spectra (the timeline's Filter): rows packed (GridrecKernels.h), one batched C2C cuFFT of
///     length L, samples;
///  2. gridding (its Kernels): the gather (one thread per grid point, no atomics: the same bits
///     on every run), one batched 2-D inverse C2C cuFFT, deapodised images (binary16 with half).
/// Float32 throughout the arithmetic; precision half stores sinograms and images as binary16
/// (half the bytes over the bus and in memory; its error in docs/accuracy.md). A chunk's rings
/// and the buffers between the stages fit the context's memory budget; an allocation the device
/// refuses frees the context's scratch and halves the chunk, down to one pair, before
/// OutOfMemory. ctx.stop is checked per step; progress advances per step. The report's timings
/// and timeline are the driver's (upload, filter, kernels, download, host, with the bytes
/// moved). The image is allocated uninitialised and first touched by the unpacking threads
/// (GridrecPipeline.h). First run on an H200 (adbf1b7): every FourierMethod test passed; 64
/// slices of 2048^2 took 1.06 s, host-bound (0.91 s of host spans, most of it, at a VM's ~0.8 s
/// per GiB, one thread zeroing the 1 GiB image before the first chunk; docs/cuda.md, "Gridrec
/// on CUDA"; scripts/gpu-check gridrec).

#include <memory>

#include "core/fourier/FourierMethod.h"

namespace tomo::cuda {

class CudaDeviceContext;

/// "cuda.gridrec" with the GPU's size rule (even 2-3-5 lengths) and cost model.
FourierMethodInfo cudaGridrecInfo();

/// Gridrec on @p device (the registry's context). Unavailable when cuFFT cannot be loaded
/// (CufftAvailability.h: the reason); InvalidArgument without a context.
Result<std::unique_ptr<FourierReconstructor>> makeCudaGridrec(
    std::shared_ptr<CudaDeviceContext> device);

}  // namespace tomo::cuda
