// Apodisation windows of the ramp filter: names, validation and the window formulas.

#include <algorithm>
#include <cctype>
#include <cmath>
#include <numbers>
#include <string>

#include "core/filter/RampFilter.h"

namespace tomo {

namespace {

std::string lowerCase(std::string_view s) {
    std::string out(s);
    std::transform(out.begin(), out.end(), out.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return out;
}

bool isKnownWindow(FilterWindow w) {
    switch (w) {
        case FilterWindow::RamLak:
        case FilterWindow::SheppLogan:
        case FilterWindow::Cosine:
        case FilterWindow::Hamming:
        case FilterWindow::Hann:
            return true;
    }
    return false;
}

}  // namespace

Result<FilterWindow> parseFilterWindow(std::string_view name) {
    const std::string n = lowerCase(name);
    if (n == "ramp" || n == "ram-lak") return FilterWindow::RamLak;
    if (n == "shepp-logan") return FilterWindow::SheppLogan;
    if (n == "cosine") return FilterWindow::Cosine;
    if (n == "hamming") return FilterWindow::Hamming;
    if (n == "hann") return FilterWindow::Hann;
    return invalidArgument("unknown filter window '" + std::string(name) +
                           "' (expected ramp, ram-lak, shepp-logan, cosine, hamming or hann)");
}

const char* filterWindowName(FilterWindow w) {
    switch (w) {
        case FilterWindow::RamLak:
            return "ramp";
        case FilterWindow::SheppLogan:
            return "shepp-logan";
        case FilterWindow::Cosine:
            return "cosine";
        case FilterWindow::Hamming:
            return "hamming";
        case FilterWindow::Hann:
            return "hann";
    }
    return "unknown";
}

Status FilterOptions::validate() const {
    if (!isKnownWindow(window))
        return invalidArgument("unknown filter window value " +
                               std::to_string(static_cast<int>(window)));
    if (!(cutoff > 0.0 && cutoff <= 1.0))  // also rejects NaN
        return invalidArgument("filter cutoff " + std::to_string(cutoff) +
                               " is outside (0, 1] (a fraction of the Nyquist frequency)");
    return Status::ok();
}

double filterWindowValue(const FilterOptions& options, double f) {
    using std::numbers::pi;
    if (!options.validate().isOk()) return 0.0;
    f = std::abs(f);
    const double fc = 0.5 * options.cutoff;
    if (f > fc) return 0.0;
    switch (options.window) {
        case FilterWindow::RamLak:
            return 1.0;
        case FilterWindow::SheppLogan: {
            const double x = pi * f / (2.0 * fc);
            return x == 0.0 ? 1.0 : std::sin(x) / x;
        }
        case FilterWindow::Cosine:
            return std::cos(pi * f / (2.0 * fc));
        case FilterWindow::Hamming:
            return 0.54 + 0.46 * std::cos(pi * f / fc);
        case FilterWindow::Hann:
            return 0.5 + 0.5 * std::cos(pi * f / fc);
    }
    return 0.0;
}

}  // namespace tomo
