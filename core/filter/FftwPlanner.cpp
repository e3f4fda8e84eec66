#include "core/filter/FftwPlanner.h"

namespace tomo::detail {

std::mutex& fftwPlannerMutex() {
    static std::mutex mutex;  // mirrors FFTW's own global planner state (FftwPlanner.h)
    return mutex;
}

}  // namespace tomo::detail
