// Ring removal at its defaults does no harm (issue 28, point 3): on scans without rings (three
// phantoms with many edges, four noise levels, fixed seeds) each method's default leaves the FBP
// error against the phantom within 0.5 % of no removal and the stripe detector finds nothing (at
// most one column at 2e3 counts); on the same scans with stripes (gain errors of 1-4 %, full,
// partial and two pixels wide) each default removes at least a fifth of the error they add. Errors
// are the RMSE over the inscribed disc against the rasterised phantom.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <random>
#include <string>

#include "core/metrics/Metrics.h"
#include "core/phantom/Phantom.h"
#include "core/preprocess/StripeDetection.h"
#include "core/preprocess/StripeRemoval.h"
#include "core/projectors/CpuBackProjectors.h"
#include "core/recon/Fbp.h"

namespace tomo {
namespace {

constexpr int kSize = 128, kViews = 180;
constexpr double kAttenuation = 0.02;  ///< `tomo phantom`'s scale: line integral 50 = 1 absorbance

struct Case {
    const char* phantom;
    double counts;       ///< incident photons per pixel; 0 = no noise
    std::uint32_t seed;  ///< of the noise
};

// Shepp-Logan at 2e4 counts, seed 9, is the case where the detector of e9dee9c (one mean over
// all the angles) did the most harm: +6.9 % without rings (docs/preprocessing.md).
constexpr Case kCases[] = {
    {"shepp-logan", 0, 7},     {"shepp-logan", 1e5, 7},   {"shepp-logan", 1e4, 7},
    {"shepp-logan", 2e3, 7},   {"shepp-logan", 2e4, 9},   {"ellipses:12:7", 0, 7},
    {"ellipses:12:7", 1e5, 7}, {"ellipses:12:7", 1e4, 7}, {"ellipses:12:7", 2e3, 7},
    {"discs", 0, 7},           {"discs", 1e5, 7},         {"discs", 1e4, 7},
    {"discs", 2e3, 7},
};

struct Scan {
    ParallelGeometry geom;
    VolumeGeometry vol;
    Sinograms clean, ringed;
    Volume truth;
    std::vector<float> disc;
};

/// A detector gain error g on column j: the line integrals shift by -ln(1 + g) / attenuation.
void addStripe(Sinograms& s, std::size_t column, double gain, std::size_t firstAngle,
               std::size_t lastAngle) {
    const auto shift = static_cast<float>(-std::log1p(gain) / kAttenuation);
    for (std::size_t a = firstAngle; a < lastAngle; ++a)
        s(0, a, column) += shift;
}

Scan makeScan(const Case& c) {
    ParallelGeometry::Params p;
    p.angles = uniformAngles(0, kPi, kViews);
    p.detectorCount = (int(std::ceil(kSize * std::sqrt(2.0))) + 2) | 1;
    Scan s{*ParallelGeometry::create(p), {}, {}, {}, {}, {}};
    s.vol = VolumeGeometry::forDetector(s.geom, kSize);
    const Phantom phantom = *Phantom::fromName(c.phantom, 0.5 * kSize);
    EXPECT_TRUE(phantom.project(s.geom, s.clean, 4).isOk());
    EXPECT_TRUE(phantom.rasterize(s.vol, s.truth, 4).isOk());
    if (c.counts > 0) {
        EXPECT_TRUE(addPoissonNoise(s.clean, c.counts, c.seed, kAttenuation).isOk());
    }
    s.ringed = s.clean.clone();
    const std::size_t mid = s.clean.dim(2) / 2, all = kViews;
    addStripe(s.ringed, mid + 3, 0.02, 0, all);    // near the axis: a small ring
    addStripe(s.ringed, mid - 20, -0.03, 0, all);  // full stripes
    addStripe(s.ringed, mid + 41, 0.01, 0, all);
    addStripe(s.ringed, mid - 52, 0.04, 0, all / 2);  // a pixel that failed half-way: a half ring
    addStripe(s.ringed, mid + 27, -0.02, 0, all);     // two pixels wide
    addStripe(s.ringed, mid + 28, -0.02, 0, all);
    s.disc = discMask(kSize, kSize, 0.5 * (kSize - 1), 0.5 * (kSize - 1), 0.5 * kSize);
    return s;
}

double fbpError(const Scan& s, const Sinograms& sino) {
    auto bp = makeCpuReferenceBackProjector(Interpolation::Linear);
    Volume out;
    EXPECT_TRUE(reconstructFbp(sino, s.geom, s.vol, *bp, {}, out, {}).isOk());
    const View2<const float> mask(s.disc.data(), kSize, kSize, kSize);
    return *rmse(out.plane(0), s.truth.plane(0), mask);
}

template <class Options>
double errorAfter(const Scan& s, const Sinograms& sino, const Options& options) {
    Sinograms filtered = sino.clone();
    Status st = Status::ok();
    if constexpr (std::is_same_v<Options, SortingStripeOptions>)
        st = removeStripesSorting(filtered.plane(0), options);
    else
        st = removeStripesFourierWavelet(filtered.plane(0), options);
    EXPECT_TRUE(st.isOk()) << st.message();
    return fbpError(s, filtered);
}

std::string name(const Case& c) {
    return std::string(c.phantom) + (c.counts > 0 ? ", " + std::to_string(int(c.counts)) +
                                                        " counts, seed " + std::to_string(c.seed)
                                                  : ", no noise");
}

TEST(RingDefaults, NoStripeIsFoundOnScansWithoutRings) {
    for (const Case& c : kCases) {
        const Scan s = makeScan(c);
        const std::size_t half = SortingStripeOptions{}.windowFor(s.clean.dim(2)) / 2;
        const std::size_t found = detectStripes(s.clean.plane(0), kDefaultStripeSnr, half).size();
        EXPECT_LE(found, c.counts == 2e3 ? 1u : 0u) << name(c);
    }
}

TEST(RingDefaults, TheStripesOfAScanWithRingsAreFound) {
    // Shepp-Logan's peak line integral is 33: every stripe here (0.5 to 2 units) stands above
    // the floor (0.1) and off the steep slopes.
    const Scan s = makeScan({"shepp-logan", 0});
    const std::size_t nd = s.clean.dim(2), mid = nd / 2;
    const std::vector<std::size_t> found = detectStripes(s.ringed.plane(0), kDefaultStripeSnr,
                                                         SortingStripeOptions{}.windowFor(nd) / 2);
    const std::vector<char> mask = stripeMask(found, nd);
    for (std::size_t j : {mid + 3, mid - 20, mid + 41, mid - 52, mid + 27, mid + 28})
        EXPECT_TRUE(mask[j]) << "stripe at column " << j << " missed";
    EXPECT_LE(found.size(), 8u);
}

TEST(RingDefaults, EachMethodsDefaultDoesNoHarmWithoutRingsAndHelpsWithThem) {
    for (const Case& c : kCases) {
        const Scan s = makeScan(c);
        const double clean = fbpError(s, s.clean), ringed = fbpError(s, s.ringed);
        const double sortClean = errorAfter(s, s.clean, SortingStripeOptions{});
        const double sortRinged = errorAfter(s, s.ringed, SortingStripeOptions{});
        const double fwClean = errorAfter(s, s.clean, FourierWaveletOptions{});
        const double fwRinged = errorAfter(s, s.ringed, FourierWaveletOptions{});
        std::printf("%-38s none %.5f %.5f | sorting %.5f %.5f | fourier-wavelet %.5f %.5f\n",
                    name(c).c_str(), clean, ringed, sortClean, sortRinged, fwClean, fwRinged);
        // Measured at most +0.05 % (discs, 2e3 counts); e9dee9c's detector gave up to +6.9 %.
        EXPECT_LE(sortClean, 1.005 * clean) << name(c);
        EXPECT_LE(fwClean, 1.005 * clean) << name(c);
        EXPECT_LT(sortRinged, ringed - 0.2 * (ringed - clean)) << name(c);
        EXPECT_LT(fwRinged, ringed - 0.2 * (ringed - clean)) << name(c);
    }
}

TEST(RingDefaults, TheMethodsAsPublishedOnEveryColumnDoHarm) {
    // snr 0 filters every column, as the papers do: the reason the defaults detect stripes.
    const Scan s = makeScan({"discs", 1e5});
    const double clean = fbpError(s, s.clean);
    SortingStripeOptions sorting;
    sorting.snr = 0;
    FourierWaveletOptions fw;
    fw.snr = 0;
    EXPECT_GT(errorAfter(s, s.clean, fw), 3 * clean);  // measured 0.161 against 0.0346
    const Scan shepp = makeScan({"shepp-logan", 1e5});
    EXPECT_GT(errorAfter(shepp, shepp.clean, sorting),
              1.1 * fbpError(shepp, shepp.clean));  // 0.0400 vs 0.0334
}

}  // namespace
}  // namespace tomo
