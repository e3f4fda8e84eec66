#include "core/solvers/SinogramNoise.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <complex>
#include <cstdint>

#include "core/preprocess/AnyLengthFft.h"

namespace tomo {
namespace {

/// Values per block of the row estimate.
constexpr std::size_t kNoiseBlock = 16;
/// Object radius assumed: this factor times the axis-to-farther-edge distance.
constexpr double kWedgeRadius = 1.2;
/// Angular frequencies within this margin of the wedge's edge are left out.
constexpr double kWedgeMargin = 4.0;
/// Fewer coefficients outside the wedge than this: the row estimate is used.
constexpr std::size_t kMinCoefficients = 32;
constexpr double kTwoPi = 6.283185307179586;

double median(std::vector<double>& v) {
    const std::size_t mid = v.size() / 2;
    std::nth_element(v.begin(), v.begin() + std::ptrdiff_t(mid), v.end());
    const double upper = v[mid];
    if (v.size() % 2 == 1) return upper;
    const double lower = *std::max_element(v.begin(), v.begin() + std::ptrdiff_t(mid));
    return 0.5 * (lower + upper);
}

/// The geometry of the wedge for one layout.
struct Wedge {
    std::size_t views = 0, detectors = 0;
    std::size_t period = 0;   ///< angular samples per turn (2V for a half turn, V for a full)
    std::size_t columns = 0;  ///< detector frequencies 1..columns have coefficients outside
    double radius = 0;        ///< R in detector bins
    std::vector<double> centers;

    double frequency(std::size_t m) const { return kTwoPi * double(m) / double(detectors); }
    bool outside(long k, std::size_t m) const {
        return double(std::labs(k)) > radius * frequency(m) + kWedgeMargin;
    }
    /// Coefficients outside the wedge per slice.
    std::size_t count() const {
        std::size_t n = 0;
        for (std::size_t m = 1; m <= columns; ++m)
            for (std::size_t k = 0; k < period; ++k)
                n += outside(signedFrequency(k, period), m) ? 1 : 0;
        return n;
    }
};

Wedge wedgeFor(const SinogramLayout& layout) {
    Wedge w;
    w.views = layout.views;
    w.detectors = layout.detectors;
    w.period = layout.turn == SinogramLayout::Turn::Half ? 2 * layout.views : layout.views;
    const double middle = 0.5 * (double(w.detectors) - 1.0);
    w.centers.assign(w.views, layout.centers.empty() ? middle : layout.centers.front());
    if (layout.centers.size() == w.views) w.centers = layout.centers;
    double reach = 0;
    for (double c : w.centers)
        reach = std::max({reach, c + 1.0, double(w.detectors) - c});
    w.radius = kWedgeRadius * reach;
    // Columns m with k_max = period / 2 > R w_m + margin, below the detector Nyquist.
    const double kMax = 0.5 * double(w.period);
    while (w.columns + 1 < (w.detectors + 1) / 2 && w.outside(long(kMax), w.columns + 1))
        ++w.columns;
    return w;
}

/// sigma^2 of one slice [view][detector] from the powers outside the wedge.
double sliceNoisePower(const float* slice, const Wedge& w, const AnyLengthFft& rowFft,
                       const AnyLengthFft& angleFft) {
    AnyLengthFft::Scratch scratch;
    std::vector<std::complex<double>> row(w.detectors);
    std::vector<std::complex<double>> spectra(w.views * w.columns);  // [view][column]
    for (std::size_t j = 0; j < w.views; ++j) {
        for (std::size_t t = 0; t < w.detectors; ++t)
            row[t] = slice[j * w.detectors + t];
        rowFft.forward(row.data(), scratch);
        for (std::size_t m = 1; m <= w.columns; ++m)  // detector position about the axis
            spectra[j * w.columns + m - 1] =
                row[m] * std::polar(1.0, w.frequency(m) * w.centers[j]);
    }
    std::vector<std::complex<double>> column(w.period);
    std::vector<double> powers;
    const double norm = double(w.period) * double(w.detectors);  // E|Z|^2 / sigma^2
    for (std::size_t m = 1; m <= w.columns; ++m) {
        for (std::size_t j = 0; j < w.views; ++j) {
            column[j] = spectra[j * w.columns + m - 1];
            if (w.period != w.views) column[w.views + j] = std::conj(column[j]);  // theta + pi
        }
        angleFft.forward(column.data(), scratch);
        for (std::size_t k = 0; k < w.period; ++k)
            if (w.outside(signedFrequency(k, w.period), m))
                powers.push_back(std::norm(column[k]) / norm);
    }
    return median(powers) / std::log(2.0);
}

}  // namespace

double estimateSinogramNoise(std::span<const float> data, const SinogramLayout& layout,
                             const ExecContext& ctx) {
    if (layout.turn == SinogramLayout::Turn::None || layout.views < 2 || layout.detectors < 8)
        return estimateNoiseSigma(data, layout.detectors, ctx);
    const Wedge w = wedgeFor(layout);
    auto rowFft = AnyLengthFft::create(w.detectors);
    auto angleFft = AnyLengthFft::create(w.period);
    const std::size_t sliceSize = w.views * w.detectors;
    const std::size_t slices = data.size() / sliceSize;
    if (w.count() < kMinCoefficients || !rowFft || !angleFft || slices == 0)
        return estimateNoiseSigma(data, layout.detectors, ctx);
    // Every slice: a sample of them would differ between one process and the ranks that split
    // the stack (each would sample its own part), and so would TV's lambda and the stopping
    // level. One transform per slice costs less than one projection of it.
    double sums[2] = {0.0, 0.0};  // sum of per-slice sigma^2, slices
    for (std::size_t z = 0; z < slices; ++z) {
        sums[0] += sliceNoisePower(data.data() + z * sliceSize, w, *rowFft, *angleFft);
        sums[1] += 1.0;
    }
    if (ctx.across) ctx.across->sum(sums);  // the same estimate on every rank
    return sums[1] > 0 ? std::sqrt(sums[0] / sums[1]) : 0.0;
}

double estimateNoiseSigma(std::span<const float> data, std::size_t rowLength,
                          const ExecContext& ctx) {
    const std::size_t row = rowLength == 0 ? data.size() : rowLength;
    // Second differences at i = 1 .. row-2 of each row, in blocks of about kNoiseBlock.
    const std::size_t inner = row - 2;
    const std::size_t blocks = std::max<std::size_t>(1, inner / kNoiseBlock);
    double sums[2] = {0.0, 0.0};  // sum over blocks of sigma_block^2 * block size; the count
    double& energy = sums[0];
    double& counted = sums[1];
    std::vector<double> d;
    for (std::size_t start = 0; row >= 5 && start + row <= data.size(); start += row) {
        const float* v = data.data() + start;
        for (std::size_t j = 0; j < blocks; ++j) {
            const std::size_t first = 1 + j * inner / blocks, last = 1 + (j + 1) * inner / blocks;
            d.clear();
            for (std::size_t i = first; i < last; ++i)
                d.push_back(double(v[i - 1]) - 2.0 * v[i] + v[i + 1]);
            if (d.size() < 3) continue;
            const double center = median(d);
            for (double& e : d)
                e = std::abs(e - center);
            const double sigma = 1.4826 * median(d) / std::sqrt(6.0);
            energy += sigma * sigma * double(d.size());
            counted += double(d.size());
        }
    }
    if (ctx.across) ctx.across->sum(sums);  // the same estimate on every rank
    return counted > 0 ? std::sqrt(energy / counted) : 0.0;
}

SinogramLayout sinogramLayout(const ParallelGeometry& geom) {
    SinogramLayout layout;
    layout.detectors = std::size_t(geom.detectorCount());
    layout.views = std::size_t(geom.angleCount());
    const int n = geom.angleCount();
    const double step = n > 1 ? geom.angle(1) - geom.angle(0) : 0.0;
    bool uniform = n > 1 && step != 0;
    for (int p = 2; uniform && p < n; ++p)
        uniform = std::fabs(geom.angle(p) - geom.angle(0) - p * step) <= 1e-3 * std::fabs(step);
    const double span = std::fabs(step) * n;
    if (uniform && std::fabs(span - kPi) <= 1e-3 * std::fabs(step))
        layout.turn = SinogramLayout::Turn::Half;
    else if (uniform && std::fabs(span - 2 * kPi) <= 1e-3 * std::fabs(step))
        layout.turn = SinogramLayout::Turn::Full;
    for (int p = 0; p < n; ++p) {
        const double c = geom.center(p);
        layout.centers.push_back(std::isfinite(c) ? c : 0.5 * (geom.detectorCount() - 1));
    }
    return layout;
}

namespace {

/// The floats' order as unsigned integers: a < b exactly when key(a) < key(b) (no NaNs).
std::uint32_t orderKey(float v) {
    const auto u = std::bit_cast<std::uint32_t>(v);
    return (u & 0x80000000u) ? ~u : (u | 0x80000000u);
}

float fromOrderKey(std::uint32_t k) {
    return std::bit_cast<float>((k & 0x80000000u) ? (k & 0x7fffffffu) : ~k);
}

}  // namespace

float dataQuantile(std::span<const float> data, double q, const ExecContext& ctx) {
    double total[1] = {double(data.size())};
    if (ctx.across) ctx.across->sum(total);
    if (!(total[0] > 0)) return 0.f;
    const double k = std::floor(std::clamp(q, 0.0, 1.0) * (total[0] - 1.0));
    // The smallest key t with more than k values at or below it; the counts are exact integers
    // in double, summed in rank order, so every rank takes the same branch.
    std::uint64_t lo = 0, hi = 0xffffffffu;
    while (lo < hi) {
        const std::uint64_t mid = lo + (hi - lo) / 2;
        double below[1] = {0.0};
        for (float v : data)
            below[0] += orderKey(v) <= mid ? 1.0 : 0.0;
        if (ctx.across) ctx.across->sum(below);
        if (below[0] > k)
            hi = mid;
        else
            lo = mid + 1;
    }
    return fromOrderKey(std::uint32_t(lo));
}

NoiseLevel flooredSinogramNoise(std::span<const float> data, const SinogramLayout& layout,
                                double snrCap, const ExecContext& ctx) {
    NoiseLevel out;
    out.estimate = estimateSinogramNoise(data, layout, ctx);
    out.q99 = std::max(double(dataQuantile(data, 0.99, ctx)), 0.0);
    out.floor = snrCap > 0 ? out.q99 / snrCap : 0.0;
    return out;
}

}  // namespace tomo
