#pragma once
/// @file FdkWeightStage.h
/// @brief FDK's weights as a stage of core's pipeline on a GPU cone back-projector's device
/// (issue 27 item 3): a batch of views enters the device raw (after preprocessing) and is
/// weighted there (FdkWeightFormula.h, the CPU's formulas in float), then ramp-filtered and
/// back-projected. The stage uploads FdkWeights::deviceTable() once per run on the compute
/// queue and enqueues one weighting kernel per chunk through ConeDeviceBackProjection::weigh().

#include <memory>

#include "core/cone/ConeBackProjector.h"
#include "core/cone/FdkWeights.h"
#include "core/pipeline/ChunkPipeline.h"

namespace tomo {

/// The stage for views [firstView + chunk.first, ...) of the pipeline's input
/// ([count][nv][pitch] floats, in place).
std::unique_ptr<ChunkStage> makeFdkWeightStage(ConeDeviceBackProjection& device,
                                               DeviceQueues& queues, const FdkWeights& weights,
                                               int firstView, std::size_t pitch);

}  // namespace tomo
