// addPoissonNoise (declared in Phantom.h): photon-counting noise on line integrals.
#include <cmath>
#include <random>

#include "core/base/Parallel.h"
#include "core/phantom/Phantom.h"

namespace tomo {
namespace {

/// SplitMix64 finaliser (Steele, Lea, Flood, OOPSLA 2014, doi:10.1145/2660193.2660195): turns
/// (seed, row) into well-separated generator seeds.
std::uint64_t splitMix64(std::uint64_t x) {
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

/// Above this mean count the relative noise (1 / sqrt(mean)) is below float precision.
constexpr double kNoiseFreeCount = 1e15;

}  // namespace

Status addPoissonNoise(Sinograms& sino, double incidentCount, std::uint32_t seed,
                       double attenuationScale, std::size_t* clampedCount) {
    if (!(incidentCount > 0) || !std::isfinite(incidentCount))
        return invalidArgument("incident photon count must be positive and finite (got " +
                               std::to_string(incidentCount) + ")");
    if (!(attenuationScale > 0) || !std::isfinite(attenuationScale))
        return invalidArgument("attenuation scale must be positive and finite (got " +
                               std::to_string(attenuationScale) + ")");
    View2<float> rows = sino.rows();
    for (std::size_t r = 0; r < rows.rows(); ++r)
        for (std::size_t j = 0; j < rows.cols(); ++j)
            if (!std::isfinite(rows(r, j)))
                return invalidData("sinogram value at row " + std::to_string(r) + ", detector " +
                                   std::to_string(j) + " is not finite");

    const double logN0 = std::log(incidentCount);
    const std::uint64_t base = splitMix64(seed);
    std::vector<std::size_t> clampedPerRow(rows.rows(), 0);
    // No stop token: the pass is short (one draw per element) and must not stop half-way.
    Status status = parallelFor(rows.rows(), 0, std::stop_token(), [&](std::size_t r, int) {
        std::mt19937_64 rng(splitMix64(base ^ r));
        std::size_t clamped = 0;
        for (float& v : rows.row(r)) {
            const double mean =
                incidentCount * std::exp(-static_cast<double>(v) * attenuationScale);
            if (mean > kNoiseFreeCount) continue;  // relative noise below float precision
            double count = 0.0;                    // mean == 0: exp underflowed, the ray is opaque
            if (mean > 0.0) {
                std::poisson_distribution<long long> dist(mean);
                count = static_cast<double>(dist(rng));
            }
            if (count < 1.0) {
                count = 0.5;
                ++clamped;
            }
            v = static_cast<float>((logN0 - std::log(count)) / attenuationScale);
        }
        clampedPerRow[r] = clamped;
    });
    TOMO_RETURN_IF_ERROR(status);
    if (clampedCount) {
        std::size_t total = 0;
        for (std::size_t c : clampedPerRow)
            total += c;
        *clampedCount = total;
    }
    return Status::ok();
}

}  // namespace tomo
