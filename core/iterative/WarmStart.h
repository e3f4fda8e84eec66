#pragma once
/// @file WarmStart.h
/// @brief The FBP warm start of the iterative methods that take one (MBIR, CGLS and TV by
/// default, their `init` parameter): ramp-filtered back-projection on the CPU (SIMD
/// back-projector where the CPU has one), quiet (no progress of its own).

#include "core/base/ExecContext.h"
#include "core/base/Status.h"
#include "core/data/Array.h"
#include "core/geometry/ParallelGeometry.h"

namespace tomo {

/// FBP of @p sino on @p vol.
Result<Volume> fbpStart(const Sinograms& sino, const ParallelGeometry& geom,
                        const VolumeGeometry& vol, const ExecContext& ctx);

}  // namespace tomo
