// Built-in backend of ComplexRowFft, compiled when FFTW is not (TOMO_WITH_FFTW off): the
// radix-2 FFT of Radix2Fft.h row by row, so lengths are powers of two.
#include "core/filter/ComplexRowFft.h"
#include "core/filter/Radix2Fft.h"

namespace tomo {

struct ComplexRowFft::Impl {
    Radix2Fft<float> fft;
};

ComplexRowFft::ComplexRowFft() = default;
ComplexRowFft::ComplexRowFft(std::unique_ptr<Impl> impl, std::size_t length, std::size_t batch,
                             std::size_t distance)
    : m_impl(std::move(impl)), m_length(length), m_batch(batch), m_distance(distance) {}
ComplexRowFft::ComplexRowFft(ComplexRowFft&&) noexcept = default;
ComplexRowFft& ComplexRowFft::operator=(ComplexRowFft&&) noexcept = default;
ComplexRowFft::~ComplexRowFft() = default;

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
    TOMO_RETURN_IF_ERROR(checkShape(length, batch, distance));
    TOMO_ASSIGN_OR_RETURN(Radix2Fft<float> fft, Radix2Fft<float>::create(length));
    return ComplexRowFft(std::make_unique<Impl>(Impl{std::move(fft)}), length, batch, distance);
}

void ComplexRowFft::forward(std::complex<float>* rows, std::size_t count) const {
    for (std::size_t r = 0; r < count; ++r)
        m_impl->fft.forward(rows + r * m_distance);
}

void ComplexRowFft::inverse(std::complex<float>* rows, std::size_t count) const {
    for (std::size_t r = 0; r < count; ++r)
        m_impl->fft.inverse(rows + r * m_distance);
}

}  // namespace tomo
