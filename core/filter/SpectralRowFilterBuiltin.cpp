// Built-in backend of SpectralRowFilter, compiled when FFTW is not (TOMO_WITH_FFTW off).
//
// Two real rows a and b are packed into one complex signal z = a + i b and transformed with the
// single-precision radix-2 FFT. Because the response R is real and even (R[k] = R[N - k]), the
// filter's impulse response is real, so IDFT(R * DFT(z)) = (h * a) + i (h * b): the real part is
// row a filtered and the imaginary part row b filtered, with no spectrum unpacking. An odd last
// row is packed with zeros. Rows are paired by their index in the block, so the result does not
// depend on the thread that runs it.

#include <algorithm>
#include <complex>
#include <string>

#include "core/data/AlignedBuffer.h"
#include "core/filter/Radix2Fft.h"
#include "core/filter/SpectralRowFilter.h"

namespace tomo {

struct SpectralRowFilter::Impl {
    std::size_t length = 0;
    std::size_t blockRows = 0;
    Radix2Fft<float> fft;
};

struct SpectralRowFilter::Scratch::Impl {
    AlignedBuffer<float> real;                  ///< blockRows rows of `length` floats
    AlignedBuffer<std::complex<float>> packed;  ///< one packed pair
    std::size_t length = 0;
};

SpectralRowFilter::Scratch::Scratch(std::unique_ptr<Impl> impl) : m_impl(std::move(impl)) {}
SpectralRowFilter::Scratch::Scratch(Scratch&&) noexcept = default;
SpectralRowFilter::Scratch& SpectralRowFilter::Scratch::operator=(Scratch&&) noexcept = default;
SpectralRowFilter::Scratch::~Scratch() = default;

float* SpectralRowFilter::Scratch::row(std::size_t r) {
    return m_impl->real.data() + r * m_impl->length;
}

SpectralRowFilter::SpectralRowFilter(std::unique_ptr<Impl> impl) : m_impl(std::move(impl)) {}
SpectralRowFilter::SpectralRowFilter(SpectralRowFilter&&) noexcept = default;
SpectralRowFilter& SpectralRowFilter::operator=(SpectralRowFilter&&) noexcept = default;
SpectralRowFilter::~SpectralRowFilter() = default;

std::size_t SpectralRowFilter::length() const {
    return m_impl->length;
}
std::size_t SpectralRowFilter::blockRows() const {
    return m_impl->blockRows;
}
const char* SpectralRowFilter::backendName() {
    return "builtin-radix2";
}

Result<SpectralRowFilter> SpectralRowFilter::create(std::size_t length, std::size_t blockRows) {
    if (length < 2 || !isPowerOfTwo(length) || length > (std::size_t{1} << 30))
        return invalidArgument("FFT length " + std::to_string(length) +
                               " is not a power of two in [2, 2^30]");
    if (blockRows < 1) return invalidArgument("FFT block of 0 rows");
    TOMO_ASSIGN_OR_RETURN(Radix2Fft<float> fft, Radix2Fft<float>::create(length));
    return SpectralRowFilter(std::make_unique<Impl>(Impl{length, blockRows, std::move(fft)}));
}

Result<SpectralRowFilter::Scratch> SpectralRowFilter::makeScratch() const {
    auto s = std::make_unique<Scratch::Impl>();
    s->length = m_impl->length;
    if (!s->real.tryAllocate(m_impl->length * m_impl->blockRows) ||
        !s->packed.tryAllocate(m_impl->length))
        return outOfMemory("cannot allocate FFT scratch for " + std::to_string(m_impl->blockRows) +
                           " rows of " + std::to_string(m_impl->length));
    return Scratch(std::move(s));
}

void SpectralRowFilter::filter(Scratch& scratch, std::size_t count,
                               std::span<const float> response) const {
    const std::size_t n = m_impl->length;
    count = std::min(count, m_impl->blockRows);
    std::complex<float>* z = scratch.m_impl->packed.data();
    for (std::size_t r = 0; r < count; r += 2) {
        float* a = scratch.row(r);
        float* b = r + 1 < count ? scratch.row(r + 1) : nullptr;
        for (std::size_t i = 0; i < n; ++i)
            z[i] = {a[i], b ? b[i] : 0.f};
        m_impl->fft.forward(z);
        for (std::size_t k = 0; k < n; ++k) {
            const float g = response[std::min(k, n - k)];
            z[k] = {z[k].real() * g, z[k].imag() * g};
        }
        m_impl->fft.inverse(z);
        for (std::size_t i = 0; i < n; ++i)
            a[i] = z[i].real();
        if (b)
            for (std::size_t i = 0; i < n; ++i)
                b[i] = z[i].imag();
    }
}

}  // namespace tomo
