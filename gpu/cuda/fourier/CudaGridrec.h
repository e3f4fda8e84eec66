#pragma once
/// @file CudaGridrec.h
/// @brief Gridrec on a CUDA GPU with cuFFT ("cuda.gridrec"; core/fourier/FourierMethod.h), host
/// sinograms in, host images out. No CUDA types in this header.
///
/// The host side is core's: FourierPlan (sizes, kernel, filter, views, deapodisation) and
/// GatherPlan (tiles and their segments). Per chunk of S slices (even; S/2 groups, the last
/// group of the volume one slice when it has an odd count), on stream k mod 2 with buffer set
/// k mod 2, so the copies and host staging of one chunk overlap the kernels of the other:
///  1. the chunk's sinograms are staged into pinned memory by ctx.threads host threads (as
///     binary16 with precision half) and uploaded;
///  2. rows packed (GridrecKernels.h), one batched C2C cuFFT of length L, samples;
///  3. the gather (one thread per grid point, no atomics: the same bits on every run);
///  4. one batched 2-D inverse C2C cuFFT, deapodised images (binary16 with half), download,
///     and the images copied into the output volume when the buffer set is next needed.
/// Float32 throughout the arithmetic; precision half stores sinograms and images as binary16
/// (half the bytes over the bus and in memory; its error in docs/accuracy.md). Chunks fit two
/// buffer sets in the context's memory budget; an allocation the device refuses frees the
/// context's scratch and halves the chunk, down to one pair, before OutOfMemory. ctx.stop is
/// checked per chunk; progress advances per chunk (a child scope named "gridrec"). Stage times
/// (device events) are summed into the report: spectra (pack, rows, samples), spreading (gather),
/// transform (2-D and images). Not yet run on a GPU (docs/cuda.md, "Gridrec on CUDA";
/// scripts/gpu-check gridrec).

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
