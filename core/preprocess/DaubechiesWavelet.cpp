#include "core/preprocess/DaubechiesWavelet.h"

#include <cmath>
#include <string>

namespace tomo {

DaubechiesWavelet::DaubechiesWavelet(const char* name, std::vector<double> low)
    : m_name(name), m_low(std::move(low)), m_high(m_low.size()) {
    const std::size_t n = m_low.size();
    for (std::size_t k = 0; k < n; ++k)
        m_high[k] = (k % 2 == 0 ? 1.0 : -1.0) * m_low[n - 1 - k];
}

DaubechiesWavelet DaubechiesWavelet::haar() {
    const double s = std::sqrt(0.5);
    return DaubechiesWavelet("haar", {s, s});
}

DaubechiesWavelet DaubechiesWavelet::db5() {
    return DaubechiesWavelet(
        "db5", {0.160102397974125, 0.6038292697974729, 0.7243085284385744, 0.13842814590110342,
                -0.24229488706619015, -0.03224486958502952, 0.07757149384006515,
                -0.006241490213011705, -0.012580751999015526, 0.003335725285001549});
}

Result<DaubechiesWavelet> DaubechiesWavelet::fromName(std::string_view name) {
    if (name == "haar" || name == "db1") return haar();
    if (name == "db5") return db5();
    return invalidArgument("unknown wavelet '" + std::string(name) + "' (known: haar, db5)");
}

void DaubechiesWavelet::analyze(double* x, std::size_t n, std::size_t stride,
                                std::vector<double>& scratch) const {
    scratch.resize(n);
    for (std::size_t i = 0; i < n; ++i)
        scratch[i] = x[i * stride];
    const std::size_t half = n / 2, taps = m_low.size();
    for (std::size_t i = 0; i < half; ++i) {
        double a = 0, d = 0;
        for (std::size_t k = 0; k < taps; ++k) {
            const double v = scratch[(2 * i + k) % n];
            a += m_low[k] * v;
            d += m_high[k] * v;
        }
        x[i * stride] = a;
        x[(half + i) * stride] = d;
    }
}

void DaubechiesWavelet::synthesize(double* x, std::size_t n, std::size_t stride,
                                   std::vector<double>& scratch) const {
    scratch.assign(n, 0.0);
    const std::size_t half = n / 2, taps = m_low.size();
    for (std::size_t i = 0; i < half; ++i) {
        const double a = x[i * stride], d = x[(half + i) * stride];
        for (std::size_t k = 0; k < taps; ++k)
            scratch[(2 * i + k) % n] += m_low[k] * a + m_high[k] * d;
    }
    for (std::size_t i = 0; i < n; ++i)
        x[i * stride] = scratch[i];
}

}  // namespace tomo
