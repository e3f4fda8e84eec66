#pragma once
/// @file MbirHostSteps.h
/// @brief MBIR's host work by name (issue 27 items 4, 5): each step of a solve that runs on the
/// host (the warm start, the matrix, the sinograms, the start's projection, the device and its
/// layout, each iteration's numbers, the output) is a Host span of the solve's timeline and adds
/// its seconds under its name, so that `tomo recon` prints where a GPU-ICD run's host time goes:
/// "MBIR host: matrix 0.491 s | layout 1.101 s | ... | outside the steps 0.010 s".

#include <string>
#include <vector>

#include "core/pipeline/Timeline.h"

namespace tomo {

struct MbirHostStep {
    std::string name;
    double seconds = 0;  ///< summed over the step's spans
    int spans = 0;
};
using MbirHostSteps = std::vector<MbirHostStep>;

/// Adds [begin, end) (host clock) to @p steps under @p name (summed with the name's earlier
/// spans, in the order names first appear) and as a Host span to @p timeline when not null.
void addHostStep(MbirHostSteps& steps, Timeline* timeline, const std::string& name, double begin,
                 double end);

/// Adds @p other's steps to @p steps, each name after @p prefix ("coarse " for the
/// multi-resolution start's solve).
void addHostSteps(MbirHostSteps& steps, const MbirHostSteps& other, const std::string& prefix);

/// The seconds of every step.
double hostStepsSeconds(const MbirHostSteps& steps);

/// "matrix 0.491 s | layout 1.101 s (2) | ...": each step's seconds and, for more than one
/// span, their count; then, where @p timeline's busy times leave more than a millisecond of its
/// wall, "| outside the stages 0.012 s" (host work under no step, waits, allocation).
std::string formatHostSteps(const MbirHostSteps& steps, const TimelineReport& timeline);

}  // namespace tomo
