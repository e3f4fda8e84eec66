#pragma once
/// @file EtaEstimator.h
/// @brief Remaining-time estimate for a progress bar, from the overall fraction done.
///
/// Method: the rate is fitted from the elapsed time since the first update with fraction > 0
/// (the start-up before it, thread creation and allocation, is excluded), so
/// remaining = (t - t0) * (1 - f) / (f - f0). No estimate is given before `minSeconds` have
/// passed or `minFraction` more of the work is done (early rates are noise), nor once the
/// fraction is 1. Estimates are smoothed with an exponential moving average (weight `smoothing`
/// on the new value) so the label does not jump with every update.
///
/// Threading: plain value; use it from one thread (the GUI's, fed by JobRunner::progress).

#include <chrono>
#include <optional>
#include <string>

namespace tomo::app {

class EtaEstimator {
  public:
    using Clock = std::chrono::steady_clock;

    /// Forgets the previous job; the next update() with fraction > 0 starts the clock.
    void reset();
    /// Records that @p fraction in [0, 1] of the job is done at time @p now.
    void update(double fraction, Clock::time_point now = Clock::now());
    /// Seconds left, when an estimate is available (see the file comment).
    std::optional<double> remainingSeconds() const { return m_remaining; }

    /// "ETA 1:05" (minutes:seconds) or "ETA 2:03:10" beyond an hour; empty without estimate.
    static std::string format(std::optional<double> seconds);

    double minSeconds = 0.5;
    double minFraction = 0.02;
    double smoothing = 0.3;

  private:
    bool m_started = false;
    Clock::time_point m_t0{};
    double m_f0 = 0;
    std::optional<double> m_remaining;
};

}  // namespace tomo::app
