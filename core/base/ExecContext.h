#pragma once
/// @file ExecContext.h
/// @brief What a CPU computation needs from its job: thread count, stop token, progress scope.

#include <stop_token>

#include "core/base/CrossRankSum.h"
#include "core/base/Progress.h"

namespace tomo {

/// Passed by const reference down through stages; cheap to copy (the progress scope is borrowed).
struct ExecContext {
    int threads = 0;       ///< worker threads; 0 = all hardware threads
    std::stop_token stop;  ///< checked at least every ~50 ms of work; triggers Cancelled
    Progress* progress =
        nullptr;  ///< optional scope this stage advances (setTotal is the callee's)
    /// Set when the vectors are distributed over ranks (each holds some slices): reductions
    /// (dot, norm, ...) are summed across them. Null: this process holds the whole vector.
    CrossRankSum* across = nullptr;
};

}  // namespace tomo
