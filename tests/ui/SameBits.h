#pragma once
/// @file SameBits.h
/// @brief Bit-for-bit comparison of two images in the GUI tests (a script's or a reopened
/// session's reconstruction against the window's).

#include <cstddef>

#include "core/data/Array.h"

namespace tomo::ui::test {

/// How many voxels of @p a and @p b differ in their bits (same dims asserted by the caller).
inline std::size_t differingVoxels(const Array3<float>& a, const Array3<float>& b) {
    std::size_t differ = 0;
    for (std::size_t z = 0; z < a.dim(0); ++z)
        for (std::size_t y = 0; y < a.dim(1); ++y)
            for (std::size_t x = 0; x < a.dim(2); ++x)
                differ += a(z, y, x) != b(z, y, x);
    return differ;
}

}  // namespace tomo::ui::test
