// Selector logic with test doubles: back-projectors whose speed is set by sleeping (so the
// measured order is known) and whose results come from the scalar CPU code (or are wrong on
// purpose). Plus one short sweep over the real CPU variants.
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "core/devices/DeviceInfo.h"
#include "core/projectors/CpuBackProjectors.h"
#include "core/selection/Selector.h"
#include "core/selection/SelectorWorkload.h"

namespace tomo {
namespace {

/// Test double: scaled scalar-CPU results on the 24x24 check problem, and on timing problems a
/// sleep of updates / rate instead of work, so that its throughput is exactly `gups`.
class SleepyBackProjector final : public BackProjector {
  public:
    SleepyBackProjector(BackProjectorInfo info, double gups, double scale)
        : m_info(std::move(info)),
          m_gups(gups),
          m_scale(scale),
          m_exact(makeCpuScalarBackProjector(m_info.interpolation)) {}
    const BackProjectorInfo& info() const override { return m_info; }
    Status backProject(const Sinograms& sino, const ParallelGeometry& geom,
                       const VolumeGeometry& vol, std::span<const float> weights, Volume& out,
                       const ExecContext& ctx) override {
        const double updates = double(vol.nx) * vol.ny * vol.nz * geom.angleCount();
        if (vol.nx <= 24) {  // the selector's correctness problem
            TOMO_RETURN_IF_ERROR(m_exact->backProject(sino, geom, vol, weights, out, ctx));
            for (std::size_t r = 0; r < out.dim(0) * out.dim(1); ++r)
                for (float& v : out.rows().row(r))
                    v = static_cast<float>(v * m_scale);
            return Status::ok();
        }
        TOMO_RETURN_IF_ERROR(prepareBackProjection(sino, geom, vol, weights, out));
        std::this_thread::sleep_for(std::chrono::duration<double>(updates / (m_gups * 1e9)));
        return Status::ok();
    }

  private:
    BackProjectorInfo m_info;
    double m_gups, m_scale;
    std::unique_ptr<BackProjector> m_exact;
};

struct Fake {
    std::string id;
    double gups;
    bool exact = true;
    double scale = 1.0;  ///< 1 = correct results
    int slices = 1;
    std::string family = "texture";
};

BackProjectorRegistry registryWith(const std::vector<Fake>& fakes) {
    BackProjectorRegistry r;
    for (Interpolation mode : {Interpolation::Linear, Interpolation::Nearest}) {
        auto probe = makeCpuReferenceBackProjector(mode);
        r.add(probe->info(), [mode] { return makeCpuReferenceBackProjector(mode); });
    }
    for (const Fake& f : fakes) {
        BackProjectorInfo info;
        info.id = f.id;
        info.backend = "test";
        info.family = f.family;
        info.exact = f.exact;
        info.slicesPerPass = f.slices;
        info.parameters = {{"zorder", "1"}};
        r.add(info,
              [info, f] { return std::make_unique<SleepyBackProjector>(info, f.gups, f.scale); });
    }
    return r;
}

/// A texture-only device: predictions rank by slices per texel.
DeviceTraits textureDevice() {
    DeviceTraits t;
    t.computeUnits = 1;
    t.fp32.value = t.conversion.value = t.integer.value = t.issue.value = 1e6;
    t.shared.value = t.constant.value = 1e6;
    t.texture32.value = t.texture64.value = t.texture128.value = 10;
    return t;
}

SelectorOptions smallOptions(double budget) {
    SelectorOptions o;
    o.budgetSeconds = budget;
    o.imageSize = 64;
    o.slices = 2;
    return o;
}

TEST(Selector, RanksByPredictionAndPicksTheMeasuredFastest) {
    // The 2-slice fake is predicted ~1.9x faster but measures 3x slower than the 1-slice one.
    auto registry = registryWith({{"test.two", 0.01, true, 1.0, 2}, {"test.one", 0.03}});
    Selector selector(registry, textureDevice(), smallOptions(0.6));
    const auto ranked = selector.rank("test");
    ASSERT_EQ(ranked.size(), 2u);
    EXPECT_EQ(ranked[0].info.id, "test.two");
    EXPECT_GT(ranked[0].prediction.gups, ranked[1].prediction.gups);

    auto result = selector.run("test", {1, {}, nullptr});
    ASSERT_TRUE(result.isOk()) << result.status().toString();
    ASSERT_EQ(result->table.size(), 2u);
    EXPECT_EQ(result->table[0].info.id, "test.two");
    for (const auto& row : result->table) {
        EXPECT_EQ(row.state, CandidateState::Measured) << row.note;
        EXPECT_EQ(row.runs, 3) << row.note;
        EXPECT_LT(row.error, 1e-6);  // scalar code against the double reference
    }
    // Sleep-timed: measured within 15% of the set rate (sleeps only overshoot).
    EXPECT_NEAR(result->table[0].measuredGups, 0.01, 0.0015);
    EXPECT_NEAR(result->table[1].measuredGups, 0.03, 0.0045);
    EXPECT_EQ(result->choices.at("exact.linear"), "test.one");
    EXPECT_EQ(result->choices.count("approximate.linear"), 0u);
}

TEST(Selector, DiscardsWrongResultsAndSeparatesApproximateVariants) {
    auto registry = registryWith({{"test.wrong", 0.05, true, 1.5},
                                  {"test.exact", 0.01},
                                  {"test.approx", 0.03, false, 1.01}});
    Selector selector(registry, textureDevice(), smallOptions(0.6));
    auto result = selector.run("test", {1, {}, nullptr});
    ASSERT_TRUE(result.isOk()) << result.status().toString();
    for (const auto& row : result->table) {
        if (row.info.id == "test.wrong") {
            EXPECT_EQ(row.state, CandidateState::Wrong);
            EXPECT_NEAR(row.error, 0.5, 1e-5);
            EXPECT_NE(row.note.find("exceeds"), std::string::npos);
        } else {
            EXPECT_EQ(row.state, CandidateState::Measured) << row.info.id << ": " << row.note;
        }
    }
    EXPECT_EQ(result->choices.at("exact.linear"), "test.exact");
    EXPECT_EQ(result->choices.at("approximate.linear"), "test.approx");
}

TEST(Selector, RespectsTheBudget) {
    // Six slow candidates and 0.4 s: the sweep stops starting runs that would end late.
    std::vector<Fake> fakes;
    for (int i = 0; i < 6; ++i)
        fakes.push_back({"test.slow" + std::to_string(i), 0.004 + 0.001 * i});
    auto registry = registryWith(fakes);
    Selector selector(registry, textureDevice(), smallOptions(0.4));
    const auto start = std::chrono::steady_clock::now();
    auto result = selector.run("test", {1, {}, nullptr});
    const double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    ASSERT_TRUE(result.isOk()) << result.status().toString();
    EXPECT_LT(wall, 0.4 + 0.4);  // margin for a loaded CI machine (measured under 0.45 s)
    EXPECT_LE(result->seconds, wall);
    EXPECT_TRUE(result->choices.count("exact.linear"));
}

TEST(Selector, RejectsBadOptionsAndUnknownBackends) {
    auto registry = registryWith({{"test.one", 0.03}});
    SelectorOptions bad;
    bad.budgetSeconds = 0;
    EXPECT_EQ(Selector(registry, textureDevice(), bad).run("test", {}).status().code(),
              ErrorCode::InvalidArgument);
    bad = {};
    bad.repeats = 0;
    EXPECT_EQ(Selector(registry, textureDevice(), bad).run("test", {}).status().code(),
              ErrorCode::InvalidArgument);
    EXPECT_EQ(Selector(registry, textureDevice()).run("cuda", {}).status().code(),
              ErrorCode::NotFound);
}

TEST(Selector, StopsWhenCancelled) {
    auto registry = registryWith({{"test.one", 0.03}});
    std::stop_source stop;
    stop.request_stop();
    auto result = Selector(registry, textureDevice(), smallOptions(1.0))
                      .run("test", {1, stop.get_token(), nullptr});
    EXPECT_EQ(result.status().code(), ErrorCode::Cancelled);
}

TEST(Selector, SweepsTheRealCpuVariants) {
    BackProjectorRegistry registry;
    registerCpuBackProjectors(registry);
    const DeviceDiscovery cpu = discoverCpu();
    ASSERT_FALSE(cpu.devices.empty());
    SelectorOptions options;
    options.budgetSeconds = 0.8;
    options.imageSize = 64;
    Selector selector(registry, traitsFor(cpu.devices[0]), options);
    auto result = selector.run("cpu", {0, {}, nullptr});
    ASSERT_TRUE(result.isOk()) << result.status().toString();
    EXPECT_EQ(result->table.size(), registry.list("cpu").size() - 2);  // minus the references
    for (const auto& row : result->table) {
        EXPECT_TRUE(row.hasModel) << row.info.id;
        EXPECT_GT(row.prediction.gups, 0) << row.info.id;
        EXPECT_NE(row.state, CandidateState::Wrong) << row.info.id << ": " << row.note;
        EXPECT_NE(row.state, CandidateState::Failed) << row.info.id << ": " << row.note;
    }
    ASSERT_TRUE(result->choices.count("exact.linear"));
    EXPECT_EQ(result->choices.at("exact.linear").rfind("cpu.", 0), 0u);
    // The sweep starts no candidate that would not fit; one in progress may overrun a little,
    // more on a loaded CI machine. Without the budget the 12+ variants take several seconds.
    EXPECT_LT(result->seconds, 0.8 + 1.0);
}

TEST(SelectorWorkload, RepresentativeSizeScalesWithComputeUnits) {
    EXPECT_EQ(selection::representativeSize(2), 256);  // sqrt(32768) = 181 -> 2^7.5 -> 256
    EXPECT_EQ(selection::representativeSize(1), 128);
    EXPECT_EQ(selection::representativeSize(16), 512);
    EXPECT_EQ(selection::representativeSize(132), 2048);  // H100: sqrt(2.16e6) = 1470
    EXPECT_EQ(selection::representativeSize(0), 256);
}

}  // namespace
}  // namespace tomo
