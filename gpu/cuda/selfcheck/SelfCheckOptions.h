#pragma once
/// @file SelfCheckOptions.h
/// @brief Command line of tomo_cuda_selfcheck (no CUDA types; parsed and tested on the CPU).
///
///   tomo_cuda_selfcheck [--family all|texture|alu|oversampling|hybrid] [--variants ID,ID]
///       [--size N] [--projections P] [--slices S] [--window-rows R] [--band-rows B]
///       [--angle-chunk C] [--no-fbp] [--cpu-candidate ID] [--json FILE]
///   tomo_cuda_selfcheck --bench [--family ...] [--variants ...] [--size N] [--projections P]
///       [--bench-slices S] [--repeat K] [--fbp-variant ID] [--fbp-slices N] [--json FILE]
///   tomo_cuda_selfcheck --fbp-only [--fbp-variant ID] [--fbp-slices N] [--size N] ...
/// Check mode (default): every selected variant against the CPU FBP at full size (CheckProblem.h)
/// through forced bands and angle chunks (both streams), then the CUDA FBP pipeline; verdicts
/// per CheckTolerance.h. --cpu-candidate runs the same comparison with a CPU variant in place
/// of the device (validates the checker where there is no GPU). Bench mode: the paper 002
/// timing of every selected variant and of the cuFFT FBP.

#include <string>
#include <vector>

#include "core/base/Status.h"
#include "gpu/cuda/selfcheck/CheckProblem.h"

namespace tomo::cuda {

struct SelfCheckOptions {
    bool bench = false;
    bool fbpOnly = false;        ///< --bench: time only the FBP (--fbp-only implies --bench)
    std::string family = "all";  ///< a BackProjectorInfo::family or "all"
    std::string variants;        ///< comma-separated ids (empty: every variant of the family)
    CheckShape shape;
    int bandRows = 0;    ///< rows per output band of the forced split (0: size / 4)
    int angleChunk = 0;  ///< projections per chunk (0: 3 projections / 16 + 1, not a divisor)
    bool fbp = true;     ///< also check the cuFFT FBP pipeline
    std::string cpuCandidate;
    std::string json = "cuda-selfcheck.json";
    int benchSlices = 64, repeat = 3, fbpSlices = 64;
    /// The FBP's back-projector; empty: the model's default for --fbp-slices slices on the
    /// device (core/selection modelDefault(), what `tomo recon` runs without a tune cache).
    std::string fbpVariant;

    int effectiveBandRows() const { return bandRows > 0 ? bandRows : std::max(16, shape.size / 4); }
    int effectiveAngleChunk() const {
        return angleChunk > 0 ? angleChunk : 3 * shape.projections / 16 + 1;
    }
};

/// Parses argv[1..]. InvalidArgument names the bad option and lists the valid ones.
Result<SelfCheckOptions> parseSelfCheckOptions(const std::vector<std::string>& args);

/// Whether variant @p id of @p family is selected by --family and --variants.
bool selectsVariant(const SelfCheckOptions& options, const std::string& id,
                    const std::string& family);

}  // namespace tomo::cuda
