#pragma once
/// @file MemoryModel.h
/// @brief How much host memory one step of a reconstruction takes: the one model behind the
/// slab plans of FBP and of the iterative methods (FbpSlabs.cpp, IterativeSlabs.cpp) and behind
/// the preflight (Preflight.h), so that what is planned and what is checked cannot drift apart.
/// Internal to app/recon.
///
/// A step is what the service holds at once besides the process's fixed overhead: an FBP slab
/// (its input, its output, and per batch the filtered copy, the back-projector's packed copy and
/// the batch's output) or one iterative solve (the solver's vectors, the operator's buffers, the
/// preview and stopping-rule copies, and per solve the system matrix of MemXCT or MBIR).
/// Counted from the allocations in core/recon, core/solvers, core/iterative, core/memxct and
/// core/mbir; checked against the measured peak resident memory in tests/cli/SlabStreamTest.cpp.

#include <cstddef>
#include <string>

#include "app/recon/ReconSteps.h"

namespace tomo::app::detail {

/// Bytes of one step as a function of its slices: fixed + slices x perSlice, steps made of
/// whole granules of slices (FBP: batches).
struct StepMemory {
    std::size_t fixed = 0;
    std::size_t perSlice = 0;
    std::size_t granule = 1;
    std::string what;  ///< "FBP batch", "sirt solve", ... for messages
    /// The part of perSlice that is the step's input as read from the source (a copy of the
    /// slab's sinograms). A step over every slice of an input held whole in memory reads that
    /// input in place instead (FbpSlabs.cpp, IterativeSlabs.cpp): no copy to count.
    std::size_t inputPerSlice = 0;
    std::size_t bytes(std::size_t slices) const { return fixed + slices * perSlice; }
};

/// The memory a run holds during a step of @p slabSlices of its @p slices slices: @p held (an
/// input held whole) and the step, whose input is that held stack itself, not a copy, when the
/// step covers every slice (the held input counted once).
std::size_t stepPeakBytes(const StepMemory& step, std::size_t slabSlices, std::size_t slices,
                          std::size_t held);

/// An FBP slab of @p request in batches of @p batch slices.
StepMemory fbpStepMemory(const ReconRequest& request, std::size_t batch);
/// An FBP slab of @p request as resolved: fbpStepMemory in fbpBatch's batches; gridrec (whole
/// pairs of slices) holds its working memory (samples and grid) instead of FBP's batch copies.
StepMemory analyticStepMemory(const ReconRequest& request, const Resolved& resolved);
/// One solve of @p resolved's iterative algorithm (errors: MemXCT's estimate of a bad grid).
Result<StepMemory> iterativeStepMemory(const ReconRequest& request, const Resolved& resolved);

/// Bytes of @p request's input that stay in memory for the whole run (a stack held whole).
std::size_t heldInputBytes(const ReconRequest& request);

/// Slices per step: @p given (> 0, rounded up to whole granules), else the most whole granules
/// whose memory plus @p held fits @p budget, at least one granule and at most @p slices.
/// @p overBudget: even one granule does not fit; then the part that grows with the slices is
/// kept within the budget (the fixed part, e.g. MemXCT's matrix, is paid once per step).
struct SlabChoice {
    std::size_t slices = 0;
    bool overBudget = false;
};
SlabChoice chooseSlab(const StepMemory& step, std::size_t slices, std::size_t budget,
                      std::size_t held, std::size_t given);

/// Slices per iterative solve of @p request: GPU-ICD one; request.slabSlices when given; else
/// all of them when @p step fits resolved.budget, or as many as fit (at least one).
SlabChoice planSolveSlices(const ReconRequest& request, const Resolved& resolved,
                           const StepMemory& step);

/// "12.3 MiB", "4.50 GiB": sizes in messages.
std::string formatSize(double bytes);

}  // namespace tomo::app::detail
