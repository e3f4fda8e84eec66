// Fast transform lengths (ComplexRowFft.h): products of 2, 3 and 5, and powers of two.
#include "core/filter/ComplexRowFft.h"

namespace tomo {

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
