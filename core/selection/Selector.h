#pragma once
/// @file Selector.h
/// @brief Chooses the back-projector variant for a device: candidates ranked by paper 002's
/// performance model (VariantCost.h), confirmed by a short timed sweep.
///
/// Procedure (paper 002, doi:10.1007/s11554-019-00883-w, Sect. 6.9 "a quick search in the
/// parameters space", and the practical procedure of its digest, Sect. 7):
///  1. candidates = the registry's variants of one backend except the "reference" family; each
///     gets a predicted GU/s and bottleneck from the device traits; they are measured in order of
///     prediction (variants without a cost model last);
///  2. correctness: each candidate back-projects a small smooth problem (24x24 pixels,
///     36 detectors, 30 projections, the sweep's slice count) that is compared with
///     cpu.reference.lin/.nn: max |a - b| / max |b| must stay below 1e-3 (exact linear),
///     2e-2 (exact nearest: a bin may flip where u is within float rounding of a half-integer)
///     or 0.1 (approximate variants); a wrong or failing candidate is discarded and reported;
///  3. timing at a representative size: image edge = the power of two nearest to
///     sqrt(compute units x 16384), clamped to [128, 2048] (so every compute unit gets work),
///     slices = the largest slicesPerPass among the candidates (at most 16), detectors = edge.
///     A probe with 16 projections (also the first warm-up) measures the rate; the projection
///     count is then chosen so that one run takes the candidate's share of the remaining budget
///     / (repeats + 1.5); one warm-up and `repeats` timed runs follow; the median gives GU/s;
///  4. budget: the sweep never starts a run expected (from the previous run) to end past the
///     budget, nor a candidate whose check and probe would (judged by the previous candidate's,
///     which include program builds on OpenCL); a candidate cut short keeps the runs it has,
///     later ones are reported "skipped".
///  5. result: the fastest measured candidate for each of exact/approximate x linear/nearest.
///
/// Threading: run() is synchronous on the calling thread; variants use ctx.threads workers.
/// ctx.stop is checked between runs (Cancelled); ctx.progress advances per candidate.

#include <map>
#include <string>
#include <vector>

#include "core/base/ExecContext.h"
#include "core/projectors/BackProjector.h"
#include "core/selection/DeviceTraits.h"
#include "core/selection/VariantCost.h"

namespace tomo {

struct SelectorOptions {
    double budgetSeconds = 10.0;  ///< whole sweep, checks included
    int repeats = 3;              ///< timed runs per candidate (median), in [1, 9]
    int imageSize = 0;            ///< 0: scaled to the device (see above)
    int slices = 0;               ///< 0: largest slicesPerPass of the candidates (<= 16)
    Status validate() const;
};

enum class CandidateState { Measured, Wrong, Failed, Skipped };
const char* candidateStateName(CandidateState s);  ///< "measured", "wrong", "failed", "skipped"

/// One row of the selection table.
struct CandidateReport {
    BackProjectorInfo info;
    bool hasModel = false;  ///< a cost model exists (prediction meaningful)
    Prediction prediction;
    CandidateState state = CandidateState::Skipped;
    double measuredGups = 0;  ///< median of the timed runs
    int runs = 0;             ///< timed runs done
    int projections = 0;      ///< projections per timed run
    double error = -1;        ///< relative error against the reference (-1: not checked)
    std::string note;         ///< why wrong/failed/skipped, or "budget: 1 run"
};

/// Outcome of a sweep.
struct SelectionResult {
    DeviceTraits traits;
    std::string backend;
    int imageSize = 0, slices = 0;
    double seconds = 0;                  ///< wall time of the sweep
    std::vector<CandidateReport> table;  ///< in order of prediction
    /// "exact.linear", "exact.nearest", "approximate.linear", "approximate.nearest" -> variant
    /// id: the fastest measured correct candidate of that kind (absent when none).
    std::map<std::string, std::string> choices;
};

/// The choice key for a variant kind: "exact.linear", "approximate.nearest", ...
std::string choiceKey(bool exact, Interpolation interpolation);

class Selector {
  public:
    Selector(const BackProjectorRegistry& registry, DeviceTraits traits,
             SelectorOptions options = {});

    /// Candidates of @p backend with their predictions, best first; nothing is run.
    std::vector<CandidateReport> rank(const std::string& backend) const;

    /// Ranks, checks and times the candidates of @p backend. InvalidArgument for bad options,
    /// NotFound when the backend has no candidates or the registry lacks cpu.reference.*,
    /// Cancelled on ctx.stop. A failing candidate is reported in the table, not returned.
    Result<SelectionResult> run(const std::string& backend, const ExecContext& ctx) const;

  private:
    const BackProjectorRegistry& m_registry;
    DeviceTraits m_traits;
    SelectorOptions m_options;
};

}  // namespace tomo
