#include "core/locality/RayOrdering.h"

#include <algorithm>
#include <cmath>

namespace tomo {

Result<RayOrdering> parseRayOrdering(std::string_view name) {
    if (name == "unordered" || name == "a") return RayOrdering::Unordered;
    if (name == "strips" || name == "b") return RayOrdering::Strips;
    if (name == "strips-consecutive" || name == "c") return RayOrdering::StripsConsecutiveAngles;
    if (name == "segments" || name == "d") return RayOrdering::StripSegments;
    return invalidArgument("unknown ray ordering '" + std::string(name) +
                           "' (unordered, strips, strips-consecutive, segments)");
}

const char* rayOrderingName(RayOrdering ordering) {
    switch (ordering) {
        case RayOrdering::Unordered:
            return "unordered";
        case RayOrdering::Strips:
            return "strips";
        case RayOrdering::StripsConsecutiveAngles:
            return "strips-consecutive";
        case RayOrdering::StripSegments:
            return "segments";
    }
    return "unknown";
}

std::vector<RayBlock> planRayBlocks(RayOrdering ordering, const std::vector<RayAngle>& rays,
                                    const std::vector<double>& angleValues,
                                    const std::vector<int>& angleIndices, int detectors) {
    std::vector<RayBlock> blocks;
    for (int group = 0; group < 2; ++group) {
        std::vector<int> members;
        for (int p : angleIndices)
            if (rays[static_cast<std::size_t>(p)].alongRows == (group == 0)) members.push_back(p);
        if (members.empty()) continue;
        // Neighbouring directions: sort by the angle modulo pi.
        auto key = [&](int p) {
            double a = std::fmod(angleValues[static_cast<std::size_t>(p)], kPi);
            return a < 0 ? a + kPi : a;
        };
        std::stable_sort(members.begin(), members.end(),
                         [&](int l, int r) { return key(l) < key(r); });
        const int g = static_cast<int>(members.size());
        const int nA = (g + kBlockAngles - 1) / kBlockAngles;
        const int nD = (detectors + kBlockDetectors - 1) / kBlockDetectors;
        const bool spreadAngles =
            ordering == RayOrdering::Unordered || ordering == RayOrdering::Strips;
        const bool spreadDetectors = ordering == RayOrdering::Unordered;
        for (int ia = 0; ia < nA; ++ia)
            for (int id = 0; id < nD; ++id) {
                RayBlock b;
                for (int k = 0; k < kBlockAngles; ++k) {
                    const int idx = spreadAngles ? ia + k * nA : ia * kBlockAngles + k;
                    if (idx < g) b.angles.push_back(members[static_cast<std::size_t>(idx)]);
                }
                for (int l = 0; l < kBlockDetectors; ++l) {
                    const int j = spreadDetectors ? id + l * nD : id * kBlockDetectors + l;
                    if (j < detectors) b.detectors.push_back(j);
                }
                if (!b.angles.empty() && !b.detectors.empty()) blocks.push_back(std::move(b));
            }
    }
    return blocks;
}

std::vector<int> subsetAngles(int subset, int subsets, int angles) {
    std::vector<int> out;
    for (int p = subset; p < angles; p += subsets)
        out.push_back(p);
    return out;
}

SubsetLaunchOrder subsetLaunchOrder(const std::vector<RayAngle>& rays,
                                    const std::vector<double>& angleValues, int subset, int subsets,
                                    bool byOrientation) {
    SubsetLaunchOrder order;
    order.angles = subsetAngles(subset, subsets, static_cast<int>(rays.size()));
    std::stable_sort(order.angles.begin(), order.angles.end(), [&](int l, int r) {
        const bool lr = rays[std::size_t(l)].alongRows, rr = rays[std::size_t(r)].alongRows;
        if (byOrientation && lr != rr) return lr;
        return angleValues[std::size_t(l)] < angleValues[std::size_t(r)];
    });
    order.rowsCount =
        static_cast<int>(std::count_if(order.angles.begin(), order.angles.end(),
                                       [&](int p) { return rays[std::size_t(p)].alongRows; }));
    return order;
}

}  // namespace tomo
