#include "app/qt/EtaEstimator.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace tomo::app {

void EtaEstimator::reset() {
    m_started = false;
    m_f0 = 0;
    m_remaining.reset();
}

void EtaEstimator::update(double fraction, Clock::time_point now) {
    fraction = std::clamp(fraction, 0.0, 1.0);
    if (fraction >= 1.0) {
        m_remaining.reset();
        return;
    }
    if (!m_started) {
        if (fraction <= 0.0) return;
        m_started = true;
        m_t0 = now;
        m_f0 = fraction;
        return;
    }
    double elapsed = std::chrono::duration<double>(now - m_t0).count();
    double done = fraction - m_f0;
    if (elapsed < minSeconds || done < minFraction) return;
    double estimate = elapsed * (1.0 - fraction) / done;
    m_remaining = m_remaining ? (1.0 - smoothing) * *m_remaining + smoothing * estimate : estimate;
}

std::string EtaEstimator::format(std::optional<double> seconds) {
    if (!seconds || !std::isfinite(*seconds) || *seconds < 0) return {};
    long total = std::lround(*seconds);
    char text[48];
    if (total >= 3600)
        std::snprintf(text, sizeof text, "ETA %ld:%02ld:%02ld", total / 3600, (total / 60) % 60,
                      total % 60);
    else
        std::snprintf(text, sizeof text, "ETA %ld:%02ld", total / 60, total % 60);
    return text;
}

}  // namespace tomo::app
