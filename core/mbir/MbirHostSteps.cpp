#include "core/mbir/MbirHostSteps.h"

#include <algorithm>
#include <cstdio>

namespace tomo {

void addHostStep(MbirHostSteps& steps, Timeline* timeline, const std::string& name, double begin,
                 double end) {
    if (timeline) timeline->add(TimelineStage::Host, begin, end);
    auto it = std::find_if(steps.begin(), steps.end(),
                           [&](const MbirHostStep& s) { return s.name == name; });
    if (it == steps.end()) it = steps.insert(steps.end(), MbirHostStep{name, 0.0, 0});
    it->seconds += std::max(0.0, end - begin);
    ++it->spans;
}

void addHostSteps(MbirHostSteps& steps, const MbirHostSteps& other, const std::string& prefix) {
    for (const MbirHostStep& s : other) {
        addHostStep(steps, nullptr, prefix + s.name, 0.0, s.seconds);
        steps.back().spans += s.spans - 1;
    }
}

double hostStepsSeconds(const MbirHostSteps& steps) {
    double sum = 0;
    for (const MbirHostStep& s : steps)
        sum += s.seconds;
    return sum;
}

std::string formatHostSteps(const MbirHostSteps& steps, const TimelineReport& timeline) {
    std::string out;
    char text[160];
    for (const MbirHostStep& s : steps) {
        if (s.spans > 1)
            std::snprintf(text, sizeof text, "%s %.3f s (%d)", s.name.c_str(), s.seconds, s.spans);
        else
            std::snprintf(text, sizeof text, "%s %.3f s", s.name.c_str(), s.seconds);
        out += (out.empty() ? "" : " | ") + std::string(text);
    }
    const double outside = timeline.wall - timeline.busySum();
    if (outside > 1e-3) {
        std::snprintf(text, sizeof text, "outside the stages %.3f s", outside);
        out += (out.empty() ? "" : " | ") + std::string(text);
    }
    return out;
}

}  // namespace tomo
