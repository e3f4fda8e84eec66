#pragma once
// Helpers of the soak and cancel tests, which drive reconstructions the way the GUI does: pick
// the algorithm and its parameters in the window's AlgorithmPanel and press Reconstruct
// (MainWindow::reconstruct -> Session::startReconstruct / startIterative -> JobRunner).
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <map>
#include <string>

#include <unistd.h>

#include "ui/main/MainWindow.h"
#include "ui/panels/AlgorithmPanel.h"
#include "ui/panels/ParameterForm.h"

namespace tomo::ui::test {

/// Resident set size of this process in bytes (/proc/self/statm, second field), 0 when unknown.
inline std::size_t residentBytes() {
    std::ifstream statm("/proc/self/statm");
    std::size_t pages = 0, resident = 0;
    if (!(statm >> pages >> resident)) return 0;
    return resident * static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
}

/// Selects @p algorithm with @p values in the window's form and presses Reconstruct. False when
/// the algorithm or a value is refused or the job did not start.
inline bool reconstructWith(MainWindow& window, const std::string& algorithm,
                            const std::map<std::string, std::string>& values = {}) {
    AlgorithmPanel* panel = window.algorithmPanel();
    if (!panel->setAlgorithm(algorithm)) return false;
    if (!values.empty() && !panel->form()->setValues(values).empty()) return false;
    window.reconstruct();
    return window.session().isBusy();
}

/// An integer from the environment (the bigger runs of scripts/soak), @p fallback when unset.
inline int envInt(const char* name, int fallback) {
    const char* text = std::getenv(name);
    return text && *text ? std::atoi(text) : fallback;
}

}  // namespace tomo::ui::test
