// Built-in backend of ComplexRowFft, compiled when FFTW is not (TOMO_WITH_FFTW off): the
// radix-2 FFT of Radix2Fft.h row by row, so lengths are powers of two.
#include <string>

#include "core/filter/ComplexRowFft.h"
#include "core/filter/Radix2Fft.h"

namespace tomo {

struct ComplexRowFft::Impl {
    std::size_t batch = 0, distance = 0;
    Radix2Fft<float> fft;
};

ComplexRowFft::ComplexRowFft() = default;
ComplexRowFft::ComplexRowFft(std::unique_ptr<Impl> impl) : m_impl(std::move(impl)) {}
ComplexRowFft::ComplexRowFft(ComplexRowFft&&) noexcept = default;
ComplexRowFft& ComplexRowFft::operator=(ComplexRowFft&&) noexcept = default;
ComplexRowFft::~ComplexRowFft() = default;

std::size_t ComplexRowFft::length() const {
    return m_impl->fft.size();
}
std::size_t ComplexRowFft::batch() const {
    return m_impl->batch;
}
std::size_t ComplexRowFft::distance() const {
    return m_impl->distance;
}
const char* ComplexRowFft::backendName() {
    return "builtin-radix2";
}
bool ComplexRowFft::supportsLength(std::size_t n) {
    return isPowerOfTwo(n) && n <= (std::size_t{1} << 30);
}
std::size_t ComplexRowFft::fastLength(std::size_t atLeast, bool even) {
    const std::size_t n = powerOfTwoLength(atLeast);
    return even && n == 1 ? 2 : n;
}

Result<ComplexRowFft> ComplexRowFft::create(std::size_t length, std::size_t batch,
                                            std::size_t distance) {
    if (!supportsLength(length))
        return invalidArgument("complex FFT length " + std::to_string(length) +
                               " is not a power of two in [1, 2^30] (built-in FFT)");
    if (batch < 1 || distance < length || distance % 8 != 0)
        return invalidArgument("complex FFT over " + std::to_string(batch) + " rows " +
                               std::to_string(distance) + " apart (length " +
                               std::to_string(length) + "): need >= 1 row, a distance >= the " +
                               "length and a multiple of 8");
    TOMO_ASSIGN_OR_RETURN(Radix2Fft<float> fft, Radix2Fft<float>::create(length));
    return ComplexRowFft(std::make_unique<Impl>(Impl{batch, distance, std::move(fft)}));
}

void ComplexRowFft::forward(std::complex<float>* rows, std::size_t count) const {
    for (std::size_t r = 0; r < count; ++r)
        m_impl->fft.forward(rows + r * m_impl->distance);
}

void ComplexRowFft::inverse(std::complex<float>* rows, std::size_t count) const {
    for (std::size_t r = 0; r < count; ++r)
        m_impl->fft.inverse(rows + r * m_impl->distance);
}

}  // namespace tomo
