#pragma once
/// @file GridrecPipeline.h
/// @brief What every gridrec backend shares around core's pipeline driver
/// (core/pipeline/ChunkPipeline.h), so that each runs its chunks through the same driver and
/// reports the same timeline: the CPU its stages in host mode (Gridrec.cpp), a GPU its kernels
/// in device mode (gpu/cuda/fourier/CudaGridrec.cpp). Timeline stages: the plan, working memory
/// and a device's constants count as Host; the spectra as Filter; the spreading or gather, the
/// grid's transforms and the images as Kernels; the copies as Upload and Download with their
/// bytes, so `tomo bench --suite gridrec` prints the link beside them as FBP's bench does.

#include <cstddef>

#include "core/data/Array.h"
#include "core/fourier/Gridrec.h"
#include "core/pipeline/ChunkPipeline.h"

namespace tomo {

/// Device mode: @p sino's slices as dense rows (views x detectors, without the stack's row
/// padding) of float32, or binary16 when @p half; the images back into @p out (dense
/// [ny][nx] per slice, float32 or binary16) in chunks of @p chunkSlices. The unpacking writes
/// every value of @p out's rows, their padding as zeros, so @p out may come from
/// Volume::createUninitialised: its first touch then runs on the driver's unpacking threads,
/// beside the kernels, not on one thread before the first chunk.
PipelineIo gridrecDeviceIo(const Sinograms& sino, Volume& out, std::size_t chunkSlices, bool half);

/// The timings of a run that began at @p t0 (timelineNow()) and finished its plan (and working
/// memory, a device's constants) at @p planEnd, from its @p timeline: adds the plan as a Host
/// span and sets the wall to the whole call.
GridrecTimings gridrecTimings(Timeline& timeline, double t0, double planEnd);

}  // namespace tomo
