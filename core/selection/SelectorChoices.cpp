// Selector's free functions: workload classes, options, the choice among measured candidates and
// the model's default variant (Selector.h).
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/selection/Selector.h"
#include "core/selection/SelectorWorkload.h"
#include "core/selection/VariantCost.h"

namespace tomo {
namespace {

double predictedRate(const DeviceTraits& traits, const BackProjectorInfo& info, int slices,
                     bool* hasModel = nullptr) {
    auto cost = costFor(info, slices);
    if (hasModel) *hasModel = cost.isOk();
    return cost ? predict(traits, *cost, slices).gups : 0.0;
}

}  // namespace

const char* sliceClass(int slices) {
    return slices <= 1 ? "1" : slices < 16 ? "few" : "many";
}

const char* sizeClass(int size) {
    return size <= 512 ? "small" : size <= 2048 ? "medium" : "large";
}

std::string workloadClass(const JobShape& shape) {
    return std::string(sliceClass(shape.slices)) + "." + sizeClass(shape.size);
}

JobShape classShape(const std::string& cls) {
    JobShape shape;
    const auto dot = cls.find('.');
    const std::string slices = cls.substr(0, dot);
    const std::string size = dot == std::string::npos ? "" : cls.substr(dot + 1);
    shape.slices = slices == "1" ? 1 : slices == "few" ? 4 : 16;
    shape.size = size == "small" ? 256 : size == "large" ? 4096 : 1024;
    return shape;
}

std::vector<JobShape> defaultShapes() {
    return {{256, 1}, {256, 16}, {1024, 1}, {1024, 16}};
}

Status SelectorOptions::validate() const {
    if (!(budgetSeconds > 0) || budgetSeconds > 3600)
        return invalidArgument("selection budget " + selection::formatNumber("%g", budgetSeconds) +
                               " s is outside (0, 3600]");
    if (repeats < 1 || repeats > 9)
        return invalidArgument("selection repeats " + std::to_string(repeats) +
                               " is outside [1, 9]");
    if (imageSize < 0 || imageSize > 8192 || (imageSize > 0 && imageSize < 16))
        return invalidArgument("selection image size " + std::to_string(imageSize) +
                               " is outside [16, 8192] (0 = automatic)");
    if (slices < 0 || slices > 64)
        return invalidArgument("selection slices " + std::to_string(slices) +
                               " is outside [0, 64]");
    for (const JobShape& shape : shapes)
        if (shape.size < 16 || shape.size > 8192 || shape.slices < 1 || shape.slices > 64)
            return invalidArgument("selection shape " + std::to_string(shape.size) + "^2 x " +
                                   std::to_string(shape.slices) +
                                   " is outside [16, 8192]^2 x [1, 64]");
    if (!(challengerMargin >= 1.0))
        return invalidArgument("selection challenger margin must be >= 1");
    return Status::ok();
}

const char* candidateStateName(CandidateState s) {
    switch (s) {
        case CandidateState::Measured:
            return "measured";
        case CandidateState::Wrong:
            return "wrong";
        case CandidateState::Failed:
            return "failed";
        case CandidateState::Skipped:
            return "skipped";
    }
    return "skipped";
}

std::string choiceKey(bool exact, Interpolation interpolation) {
    return std::string(exact ? "exact." : "approximate.") + interpolationName(interpolation);
}

std::string cacheChoiceKey(const std::string& cls, bool exact, Interpolation interpolation) {
    return cls + ":" + choiceKey(exact, interpolation);
}

std::map<std::string, std::string> SelectionResult::choices() const {
    std::map<std::string, std::string> all;
    for (const ClassSelection& c : classes)
        for (const auto& [kind, id] : c.choices)
            all[c.workloadClass + ":" + kind] = id;
    return all;
}

std::map<std::string, std::string> chooseVariants(
    const std::vector<CandidateReport>& table, const std::map<std::string, std::string>& defaults,
    double margin) {
    struct Pick {
        const CandidateReport* byDefault = nullptr;  // the measured default
        const CandidateReport* fastest = nullptr;    // the fastest measured other candidate
    };
    std::map<std::string, Pick> picks;
    for (const CandidateReport& row : table) {
        if (row.state != CandidateState::Measured) continue;
        const std::string kind = choiceKey(row.info.exact, row.info.interpolation);
        Pick& pick = picks[kind];
        auto d = defaults.find(kind);
        if (d != defaults.end() && d->second == row.info.id)
            pick.byDefault = &row;
        else if (!pick.fastest || row.measuredGups > pick.fastest->measuredGups)
            pick.fastest = &row;
    }
    std::map<std::string, std::string> choices;
    for (const auto& [kind, pick] : picks) {
        const CandidateReport* chosen = pick.byDefault;
        if (!chosen || (pick.fastest && pick.fastest->measuredGups > margin * chosen->measuredGups))
            chosen = pick.fastest;
        if (chosen) choices[kind] = chosen->info.id;
    }
    return choices;
}

std::string modelDefault(const BackProjectorRegistry& registry, const DeviceTraits& traits,
                         const std::string& backend, Interpolation interpolation, bool exact,
                         int slices) {
    const bool linear = interpolation == Interpolation::Linear;
    if (backend == "cpu" && exact) {
        const std::string id = linear ? "cpu.simd.lin" : "cpu.simd.nn";
        if (registry.contains(id)) return id;
    }
    std::string best;
    double bestRate = -1.0;
    for (const BackProjectorInfo& info : registry.list(backend)) {
        if (info.interpolation != interpolation || info.exact != exact ||
            info.family == "reference")
            continue;
        const double rate = predictedRate(traits, info, slices);
        if (best.empty() || rate > bestRate) {
            best = info.id;
            bestRate = rate;
        }
    }
    return best;
}

}  // namespace tomo
