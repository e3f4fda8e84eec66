#include "app/jobs/RawShape.h"

#include <algorithm>
#include <cmath>

namespace tomo::app {

std::optional<std::uintmax_t> rawFloats(std::uintmax_t bytes) {
    if (bytes == 0 || bytes % 4 != 0) return std::nullopt;
    return bytes / 4;
}

std::optional<std::array<std::size_t, 3>> squareStackShape(std::uintmax_t floats) {
    if (floats == 0) return std::nullopt;
    // The smallest n with n^2 | floats and floats / n^2 <= n: the most cube-like stack of
    // square planes (1 GB of floats: 256 x 1024 x 1024, not 1 x 16384 x 16384).
    auto n = static_cast<std::uintmax_t>(std::cbrt(static_cast<double>(floats)));
    for (n = std::max<std::uintmax_t>(n, 2) - 1; n * n <= floats; ++n) {
        if (floats % (n * n) != 0) continue;
        const std::uintmax_t planes = floats / (n * n);
        if (planes <= n)
            return std::array<std::size_t, 3>{static_cast<std::size_t>(planes),
                                              static_cast<std::size_t>(n),
                                              static_cast<std::size_t>(n)};
    }
    return std::array<std::size_t, 3>{1, 1, static_cast<std::size_t>(floats)};
}

std::optional<std::size_t> remainingDimension(std::uintmax_t floats, std::size_t b, std::size_t c) {
    const std::uintmax_t plane = std::uintmax_t(b) * c;
    if (plane == 0 || floats % plane != 0) return std::nullopt;
    return static_cast<std::size_t>(floats / plane);
}

}  // namespace tomo::app
