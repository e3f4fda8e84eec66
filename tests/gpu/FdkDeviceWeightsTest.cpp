// FDK's weights on the device (issue 27 item 3; core/cone/FdkWeightStage.h): with the ramp on
// the device, the views are uploaded raw and weighted there by the formulas of
// core/cone/FdkWeightFormula.h compiled for the backend. The volume equals the one whose views
// the host weighed (FdkOptions::deviceWeights = false) to float rounding, and the double
// reference within paper 003's criterion, on a full scan, a short scan (Parker) and a
// displaced detector (half fan) with a vertical offset. And the read (issue 27 item 3): each
// batch of views is read straight into the pipeline's pinned staging ring, which the timeline
// counts as the read, not as the filter. The same source for OpenCL (tomo_gpu_tests) and CUDA
// (tomo_gpu_cuda_tests); skips without a device (or, where it needs one, a device FFT).
#include <gtest/gtest.h>

#include <chrono>
#include <iostream>
#include <string>
#include <thread>

#include "ConeTestSupport.h"
#include "GpuTestSupport.h"
#include "core/cone/Fdk.h"

namespace tomo {
namespace {

using test::ConeCase;

/// Runs every variant that handles @p c with the weights on the device and on the host.
void expectDeviceWeightsEqualHostWeights(ConeCase& c, const std::string& label) {
    auto ramp = test::makeDeviceRowFilter();
    if (!ramp.isOk()) GTEST_SKIP() << "no device ramp filter: " << ramp.status().message();
    c.options.rowFilter = *ramp;
    const Volume ref = referenceFdk(c.geometry, c.projections, c.grid, c.options).value();
    const ConeSymmetry has = c.geometry.symmetry(c.grid);
    int checked = 0;
    for (const ConeBackProjectorInfo& info : test::coneBackendRegistry().list()) {
        if (!handles(info.needs, has)) continue;
        Volume out[2];
        for (int host = 0; host < 2; ++host) {
            auto bp = test::coneBackendRegistry().create(info.id);
            ASSERT_TRUE(bp.isOk()) << bp.status().message();
            c.options.deviceWeights = host == 0;
            auto v = test::runToVolume(c, **bp);
            ASSERT_TRUE(v.isOk()) << info.id << ": " << v.status().toString();
            out[host] = std::move(v).value();
        }
        const double vsHost = test::relativeRmse(out[0], out[1]);
        const double vsRef = test::relativeRmse(out[0], ref);
        std::cout << "  " << label << "  " << info.id << ": device vs host weights " << vsHost
                  << ", vs reference " << vsRef << "\n";
        EXPECT_LT(vsHost, 2e-6) << info.id << " on " << label;
        EXPECT_LT(vsRef, 1e-5) << info.id << " on " << label;
        ++checked;
    }
    EXPECT_GE(checked, 1) << label;
}

TEST(FdkDeviceWeights, FullScanEqualsTheHostWeights) {
    TOMO_SKIP_WITHOUT_BACKEND();
    ConeCase c = test::coneCase("ellipsoids:6:3", 360, 60);
    const auto w = FdkWeights::create(c.geometry, c.options.weights).value();
    ASSERT_FALSE(w.shortScan());
    ASSERT_FALSE(w.displaced());
    expectDeviceWeightsEqualHostWeights(c, "full scan");
}

TEST(FdkDeviceWeights, ShortScanParkerWeightsEqualTheHostWeights) {
    TOMO_SKIP_WITHOUT_BACKEND();
    ConeCase c = test::coneCase("ellipsoids:6:3", 210, 70);
    const auto w = FdkWeights::create(c.geometry, c.options.weights).value();
    ASSERT_TRUE(w.shortScan());
    ASSERT_TRUE(w.warnings().empty()) << w.warnings().front();  // 210 > 180 + fan
    expectDeviceWeightsEqualHostWeights(c, "short scan");
}

TEST(FdkDeviceWeights, DisplacedDetectorHalfFanWeightsEqualTheHostWeights) {
    TOMO_SKIP_WITHOUT_BACKEND();
    // 22.8 mm sideways and 3 mm up: the half-fan weights and the cosine's v0 both matter.
    ConeCase c = test::coneCase("ellipsoids:6:3", 360, 90, 3.0, 0.0, 22.8, 64);
    const auto w = FdkWeights::create(c.geometry, c.options.weights).value();
    ASSERT_TRUE(w.displaced());
    expectDeviceWeightsEqualHostWeights(c, "displaced detector");
}

/// One device run of @p c with a reader that takes 20 ms a batch and looks at the memory it is
/// handed: from the third batch on, the staging slot still holds what the batch before last
/// left there (a buffer made per batch would be zeros).
void expectReadIntoStagingAndCountedAsRead(ConeCase& c, const std::string& label) {
    c.options.batch = 8;  // 60 views: 8 batches through a ring of two staging slots
    const ConeSymmetry has = c.geometry.symmetry(c.grid);
    for (const ConeBackProjectorInfo& info : test::coneBackendRegistry().list()) {
        if (!handles(info.needs, has)) continue;
        auto bp = test::coneBackendRegistry().create(info.id);
        ASSERT_TRUE(bp.isOk()) << bp.status().message();
        if (!(*bp)->device()) continue;
        int batches = 0, fresh = 0;
        auto read = [&](int first, int, View2<float> out) -> Status {
            bool held = false;
            for (std::size_t r = 0; r < out.rows() && !held; ++r)
                for (float x : out.row(r))
                    held = held || x != 0.0f;
            if (batches++ % 8 >= 2 && !held) ++fresh;
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
            return copyHeldViews(c.projections, std::size_t(first), out, 1);
        };
        auto sink = [](int, Volume&&) { return Status::ok(); };
        auto r = runFdk(c.geometry, c.grid, c.options, **bp, read, sink, {});
        ASSERT_TRUE(r.isOk()) << info.id << ": " << r.status().toString();
        EXPECT_EQ(batches, 8 * r->slabs) << info.id << " on " << label;
        EXPECT_EQ(fresh, 0) << info.id << " on " << label << ": a fresh buffer per batch";
        EXPECT_GE(r->timings.read, 0.02 * batches) << info.id << " on " << label;
        EXPECT_LT(r->timings.filter, r->timings.read)
            << info.id << " on " << label << ": the read counted as the filter";
    }
}

TEST(FdkDeviceRead, EachBatchIsReadIntoTheStagingRingAndTimedAsTheRead) {
    TOMO_SKIP_WITHOUT_BACKEND();
    ConeCase c = test::coneCase("ellipsoids:6:3", 360, 60);
    expectReadIntoStagingAndCountedAsRead(c, "the host's ramp");
    auto ramp = test::makeDeviceRowFilter();
    if (!ramp.isOk()) GTEST_SKIP() << "no device ramp filter: " << ramp.status().message();
    c.options.rowFilter = *ramp;
    expectReadIntoStagingAndCountedAsRead(c, "the device's ramp");
}

}  // namespace
}  // namespace tomo
