#pragma once
/// @file Selector.h
/// @brief Chooses the back-projector variant for a device and a workload class: candidates
/// ranked by paper 002's performance model (VariantCost.h), confirmed by a short timed sweep on
/// the class's own shape, the model's default kept unless a challenger is faster in that run.
///
/// Workload classes (the cache key of a choice, docs/selection.md): slices "1" (the
/// single-slice kernels; the GUI's main case), "few" (2-15: partial passes of the 16-slice CPU
/// kernel, the GPU 2/4-slice kernels) and "many" (16 and more: full passes), times image size
/// "small" (edge <= 512), "medium" (<= 2048) and "large". A job of a class that was not tuned
/// gets the model's default (modelDefault()), never another class's choice.
///
/// Procedure (paper 002, doi:10.1007/s11554-019-00883-w, Sect. 6.9 "a quick search in the
/// parameters space", and the practical procedure of its digest, Sect. 7):
///  1. candidates = the registry's variants of one backend except the "reference" family;
///  2. correctness, once per candidate: a small smooth problem (24x24 pixels, 36 detectors,
///     30 projections, the largest class's slice count) compared with cpu.reference.lin/.nn:
///     max |a - b| / max |b| must stay below 1e-3 (exact linear), 2e-2 (exact nearest: a bin
///     may flip where u is within float rounding of a half-integer) or 0.1 (approximate
///     variants); a wrong or failing candidate is discarded and reported;
///  3. per class, timing on the class's shape (SelectorOptions::shapes): the model's default
///     of each kind first, then the others by the prediction for that shape (a variant that is
///     the same kernel with the same parameters as one before it is not timed again: "same
///     kernel as ..."). A probe with 16
///     projections (also the first warm-up) measures the rate; the projection count is then
///     chosen so that one run takes the candidate's share of the class's share of the
///     remaining budget / (repeats + 1.5); one warm-up and `repeats` timed runs follow; the
///     median gives GU/s;
///  4. budget: the sweep never starts a run expected (from the previous run) to end past the
///     budget, nor a candidate whose check and probe would (judged by the previous
///     candidate's, which include program builds on OpenCL); a candidate cut short keeps the
///     runs it has, later ones are reported "skipped";
///  5. result per class and kind (exact/approximate x linear/nearest): chooseVariants(); a
///     challenger that beat the default is confirmed by interleaved runs of both on the same
///     problem (default, challenger, default, challenger after a warm-up each; best run each)
///     and kept only if still the margin faster; without budget left the default stays.
///
/// Threading: run() is synchronous on the calling thread; variants use ctx.threads workers.
/// ctx.stop is checked between runs (Cancelled); ctx.progress advances per candidate and class.

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "core/base/ExecContext.h"
#include "core/projectors/BackProjector.h"
#include "core/selection/DeviceTraits.h"
#include "core/selection/VariantCost.h"

namespace tomo {

/// The shape of a job as the selection sees it: the image edge (max(nx, ny)) and the slices.
struct JobShape {
    int size = 1024;
    int slices = 1;
};

/// "1", "few" or "many" (see the file comment) for @p slices.
const char* sliceClass(int slices);
/// "small", "medium" or "large" for an image edge of @p size pixels.
const char* sizeClass(int size);
/// "<slice class>.<size class>", e.g. "1.medium": the cache key of a job's class.
std::string workloadClass(const JobShape& shape);
/// The shape the sweep times for @p workloadClass (the class's representative: 256, 1024 or
/// 4096 pixels; 1, 4 or 16 slices: one full pass of the 16-slice CPU kernel, four of the GPU
/// 4-slice kernels).
JobShape classShape(const std::string& workloadClass);

struct SelectorOptions {
    double budgetSeconds = 10.0;  ///< whole sweep, checks included
    int repeats = 3;              ///< timed runs per candidate (median), in [1, 9]
    /// Shapes to tune, one class each. Empty: imageSize/slices when either is set (one class),
    /// else defaultShapes() of the backend's candidates.
    std::vector<JobShape> shapes;
    int imageSize = 0;  ///< 0: 1024 (with slices set) or the default shapes
    int slices = 0;     ///< 0: 16 (with imageSize set) or the default shapes
    /// Seconds on a monotonic clock; empty = std::chrono::steady_clock. Tests inject a clock
    /// advanced by fake back-projectors, so the sweep's decisions are deterministic.
    std::function<double()> clock;
    /// A challenger replaces the model's default only when measured this much faster (a
    /// noise margin: equal kernels measure within a few percent).
    double challengerMargin = 1.05;
    Status validate() const;
};

/// The classes `tomo tune` and the GUI's button tune by default: 1 and 16 slices, each at
/// 256^2 (small) and 1024^2 (medium). Large images and "few" slices keep the model's default
/// unless tuned explicitly (--size, --slices).
std::vector<JobShape> defaultShapes();

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

/// The sweep of one workload class.
struct ClassSelection {
    std::string workloadClass;           ///< workloadClass() of the shape
    JobShape shape;                      ///< the shape timed
    std::vector<CandidateReport> table;  ///< in measurement order (defaults first)
    /// choiceKey() -> the model's default for this shape, and the choice (chooseVariants()).
    std::map<std::string, std::string> defaults, choices;
};

/// Outcome of a sweep.
struct SelectionResult {
    DeviceTraits traits;
    std::string backend;
    double seconds = 0;  ///< wall time of the sweep
    std::vector<ClassSelection> classes;
    /// Every class's choices: "<class>:<kind>" (cacheChoiceKey()) -> variant id.
    std::map<std::string, std::string> choices() const;
};

/// The choice key for a variant kind: "exact.linear", "approximate.nearest", ...
std::string choiceKey(bool exact, Interpolation interpolation);
/// "<workload class>:<choice key>", e.g. "1.medium:exact.linear": the cache's choice key.
std::string cacheChoiceKey(const std::string& workloadClass, bool exact,
                           Interpolation interpolation);

/// The choice of one class: per kind, the model's default (@p defaults) when it was measured,
/// replaced by a measured candidate of the same kind only when that one is at least @p margin
/// times faster in the same run; the fastest measured one when the default is wrong, failed or
/// absent. Kinds with nothing measured get no choice. Pure (tested with injected numbers).
std::map<std::string, std::string> chooseVariants(
    const std::vector<CandidateReport>& table, const std::map<std::string, std::string>& defaults,
    double margin);

/// The variant a job of @p slices gets without a measurement: on the CPU "cpu.simd.lin"/".nn"
/// (exact; they switch to the single-slice kernel below their crossover), else the candidate
/// of @p backend and that kind with the highest prediction for @p slices on @p traits
/// (registry order breaks ties; the first registered one when no model applies). Empty when the
/// backend has no variant of that kind.
std::string modelDefault(const BackProjectorRegistry& registry, const DeviceTraits& traits,
                         const std::string& backend, Interpolation interpolation, bool exact,
                         int slices);

class Selector {
  public:
    Selector(const BackProjectorRegistry& registry, DeviceTraits traits,
             SelectorOptions options = {});

    /// Candidates of @p backend with their predictions for @p slices (0: the largest
    /// slicesPerPass, at most 16), best first; nothing is run.
    std::vector<CandidateReport> rank(const std::string& backend, int slices = 0) const;

    /// Ranks, checks and times the candidates of @p backend. InvalidArgument for bad options,
    /// NotFound when the backend has no candidates or the registry lacks cpu.reference.*,
    /// Cancelled on ctx.stop. A failing candidate is reported in the table, not returned.
    Result<SelectionResult> run(const std::string& backend, const ExecContext& ctx) const;

  private:
    struct Sweep;
    Status runClass(Sweep& sweep, ClassSelection& cls, double classEnd) const;
    /// The class's candidates, the model's defaults first (cls.table, cls.defaults).
    void rankClass(const Sweep& sweep, ClassSelection& cls) const;
    /// Checks, probes and times candidate @p i of @p cls within the class's time.
    Status measureCandidate(Sweep& sweep, ClassSelection& cls, std::size_t i,
                            double classEnd) const;
    /// The timed runs of a probed candidate, sized to its @p share of the class's time.
    Status timeCandidate(Sweep& sweep, const JobShape& shape, BackProjector& bp, double probeRate,
                         double probeSeconds, double share, double classEnd,
                         CandidateReport& row) const;
    /// Re-times every challenger that beat its class's default against that default,
    /// interleaved on one problem; keeps the challenger only when it is still the margin
    /// faster (and the default when the budget leaves no room to confirm).
    Status confirm(Sweep& sweep, ClassSelection& cls) const;
    /// The correctness check of @p bp with @p slices slices: sets row.error, and row.state to
    /// Wrong or Failed (with a note) or leaves it Skipped when correct. Errors: Cancelled.
    Status check(Sweep& sweep, BackProjector& bp, int slices, CandidateReport& row) const;

    const BackProjectorRegistry& m_registry;
    DeviceTraits m_traits;
    SelectorOptions m_options;
};

}  // namespace tomo
