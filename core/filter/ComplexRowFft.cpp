// What both backends of ComplexRowFft share: its shape, the checks of a shape, and the fast
// transform lengths (products of 2, 3 and 5; powers of two).
#include "core/filter/ComplexRowFft.h"

#include <string>

namespace tomo {

std::size_t ComplexRowFft::length() const {
    return m_length;
}
std::size_t ComplexRowFft::batch() const {
    return m_batch;
}
std::size_t ComplexRowFft::distance() const {
    return m_distance;
}

Status ComplexRowFft::checkShape(std::size_t length, std::size_t batch, std::size_t distance) {
    if (!supportsLength(length))
        return invalidArgument("complex FFT length " + std::to_string(length) + " is not one the " +
                               backendName() + " FFT transforms (ComplexRowFft.h)");
    if (batch < 1 || distance < length || distance % 8 != 0)
        return invalidArgument("complex FFT over " + std::to_string(batch) + " rows " +
                               std::to_string(distance) + " apart (length " +
                               std::to_string(length) + "): need >= 1 row, a distance >= the " +
                               "length and a multiple of 8");
    return Status::ok();
}

std::size_t smoothLength(std::size_t atLeast, bool even) {
    for (std::size_t n = atLeast < 1 ? 1 : atLeast;; ++n) {
        if (even && n % 2 != 0) continue;
        std::size_t m = n;
        for (std::size_t f : {2, 3, 5})
            while (m % f == 0)
                m /= f;
        if (m == 1) return n;
    }
}

std::size_t powerOfTwoLength(std::size_t atLeast) {
    std::size_t n = 1;
    while (n < atLeast)
        n <<= 1;
    return n;
}

}  // namespace tomo
