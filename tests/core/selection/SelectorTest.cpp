// Selector logic with test doubles: back-projectors whose speed is set by sleeping (so the
// measured order is known) and whose results come from the scalar CPU code (or are wrong on
// purpose). Plus one short sweep over the real CPU variants.
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "core/devices/DeviceInfo.h"
#include "core/projectors/CpuBackProjectors.h"
#include "core/selection/SelectionCache.h"
#include "core/selection/Selector.h"
#include "core/selection/SelectorWorkload.h"

namespace tomo {
namespace {

/// Test double: scaled scalar-CPU results on the 24x24 check problem, and on timing problems a
/// sleep of updates / rate instead of work, so that its throughput is exactly `gups`.
class SleepyBackProjector final : public BackProjector {
  public:
    SleepyBackProjector(BackProjectorInfo info, double gups, double scale, double* clock,
                        int* slowRuns)
        : m_info(std::move(info)),
          m_gups(gups),
          m_scale(scale),
          m_clock(clock),
          m_slowRuns(slowRuns),
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
        if (m_clock) {  // injected clock: a partial pass costs a full one
            const int per = std::max(1, m_info.slicesPerPass);
            const double passes = (vol.nz + per - 1) / per;
            const bool slow = m_slowRuns && *m_slowRuns > 0;  // a loaded machine: half speed
            if (slow) --*m_slowRuns;
            *m_clock += updates / vol.nz * passes * per / (m_gups * 1e9) * (slow ? 2 : 1);
            return Status::ok();
        }
        std::this_thread::sleep_for(std::chrono::duration<double>(updates / (m_gups * 1e9)));
        return Status::ok();
    }

  private:
    BackProjectorInfo m_info;
    double m_gups, m_scale;
    double* m_clock;  ///< advanced instead of sleeping when set
    int* m_slowRuns;  ///< while > 0, timing runs take twice as long (and count it down)
    std::unique_ptr<BackProjector> m_exact;
};

struct Fake {
    std::string id;
    double gups;
    bool exact = true;
    double scale = 1.0;  ///< 1 = correct results
    int slices = 1;
    std::string family = "texture";
    double* clock = nullptr;  ///< injected clock (seconds) to advance instead of sleeping
    Interpolation interpolation = Interpolation::Linear;
    int* slowRuns = nullptr;  ///< shared "machine loaded" counter (see SleepyBackProjector)
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
        info.interpolation = f.interpolation;
        info.parameters = {{"zorder", "1"}, {"fake", f.id}};  // distinct kernels
        r.add(info, [info, f] {
            return std::make_unique<SleepyBackProjector>(info, f.gups, f.scale, f.clock,
                                                         f.slowRuns);
        });
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

/// A sweep on an injected clock: the fakes advance `now` by their work / rate, so measured
/// rates are exact and every decision is deterministic (no sleeping, no timing noise).
SelectorOptions clockedOptions(double* now, std::vector<JobShape> shapes) {
    SelectorOptions o;
    o.budgetSeconds = 1000;  // seconds of the injected clock
    o.shapes = std::move(shapes);
    o.clock = [now] { return *now; };
    return o;
}

TEST(Selector, RanksByPredictionAndPicksTheMeasuredFastest) {
    // The 2-slice fake is predicted ~1.9x faster but measures 3x slower than the 1-slice one
    // (rates exact on the injected clock).
    double now = 0;
    auto registry = registryWith({{"test.two", 0.01, true, 1.0, 2, "texture", &now},
                                  {"test.one", 0.03, true, 1.0, 1, "texture", &now}});
    Selector selector(registry, textureDevice(), clockedOptions(&now, {{64, 2}}));
    const auto ranked = selector.rank("test");
    ASSERT_EQ(ranked.size(), 2u);
    EXPECT_EQ(ranked[0].info.id, "test.two");
    EXPECT_GT(ranked[0].prediction.gups, ranked[1].prediction.gups);

    auto result = selector.run("test", {1, {}, nullptr});
    ASSERT_TRUE(result.isOk()) << result.status().toString();
    ASSERT_EQ(result->classes[0].table.size(), 2u);
    EXPECT_EQ(result->classes[0].table[0].info.id, "test.two");
    for (const auto& row : result->classes[0].table) {
        EXPECT_EQ(row.state, CandidateState::Measured) << row.note;
        EXPECT_EQ(row.runs, 3) << row.note;
        EXPECT_LT(row.error, 1e-6);  // scalar code against the double reference
    }
    EXPECT_NEAR(result->classes[0].table[0].measuredGups, 0.01, 1e-12);
    EXPECT_NEAR(result->classes[0].table[1].measuredGups, 0.03, 1e-12);
    EXPECT_EQ(result->classes[0].choices.at("exact.linear"), "test.one");
    EXPECT_EQ(result->classes[0].choices.count("approximate.linear"), 0u);
}

TEST(Selector, DiscardsWrongResultsAndSeparatesApproximateVariants) {
    double now = 0;
    auto registry = registryWith({{"test.wrong", 0.05, true, 1.5, 1, "texture", &now},
                                  {"test.exact", 0.01, true, 1.0, 1, "texture", &now},
                                  {"test.approx", 0.03, false, 1.01, 1, "texture", &now}});
    Selector selector(registry, textureDevice(), clockedOptions(&now, {{64, 2}}));
    auto result = selector.run("test", {1, {}, nullptr});
    ASSERT_TRUE(result.isOk()) << result.status().toString();
    for (const auto& row : result->classes[0].table) {
        if (row.info.id == "test.wrong") {
            EXPECT_EQ(row.state, CandidateState::Wrong);
            EXPECT_NEAR(row.error, 0.5, 1e-5);
            EXPECT_NE(row.note.find("exceeds"), std::string::npos);
        } else {
            EXPECT_EQ(row.state, CandidateState::Measured) << row.info.id << ": " << row.note;
        }
    }
    EXPECT_EQ(result->classes[0].choices.at("exact.linear"), "test.exact");
    EXPECT_EQ(result->classes[0].choices.at("approximate.linear"), "test.approx");
}

TEST(Selector, RespectsTheBudget) {
    // Six slow candidates on the injected clock (exact costs: the decisions do not depend on
    // the machine) and 0.4 s of it: the sweep stops starting runs that would end late.
    double now = 0;
    std::vector<Fake> fakes;
    for (int i = 0; i < 6; ++i)
        fakes.push_back({"test.slow" + std::to_string(i), 0.004 + 0.001 * i});
    for (Fake& f : fakes)
        f.clock = &now;
    auto registry = registryWith(fakes);
    SelectorOptions options = smallOptions(0.4);
    options.clock = [&now] { return now; };
    Selector selector(registry, textureDevice(), options);
    auto result = selector.run("test", {1, {}, nullptr});
    ASSERT_TRUE(result.isOk()) << result.status().toString();
    EXPECT_DOUBLE_EQ(result->seconds, now) << "the sweep's seconds are its clock's";
    EXPECT_LE(result->seconds, 0.4) << "a run is started only when it ends within the budget";
    int cut = 0;
    for (const auto& row : result->classes[0].table)
        cut += row.note.rfind("budget", 0) == 0 ? 1 : 0;
    EXPECT_GT(cut, 0) << "the budget must have cut the sweep (without it: more than 0.4 s)";
    EXPECT_TRUE(result->classes[0].choices.count("exact.linear"));
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
    EXPECT_EQ(result->classes[0].table.size(),
              registry.list("cpu").size() - 2);  // minus the references
    for (const auto& row : result->classes[0].table) {
        EXPECT_TRUE(row.hasModel) << row.info.id;
        EXPECT_GT(row.prediction.gups, 0) << row.info.id;
        EXPECT_NE(row.state, CandidateState::Wrong) << row.info.id << ": " << row.note;
        EXPECT_NE(row.state, CandidateState::Failed) << row.info.id << ": " << row.note;
    }
    ASSERT_TRUE(result->classes[0].choices.count("exact.linear"));
    EXPECT_EQ(result->classes[0].choices.at("exact.linear").rfind("cpu.", 0), 0u);
    // The pinned variant of the best instruction set is the alias's kernel: not timed again.
    if (bestCpuIsa() != CpuIsa::Generic) {
        const std::string pinned = std::string("cpu.simd.") + cpuIsaName(bestCpuIsa()) + ".lin";
        for (const auto& r : result->classes[0].table)
            if (r.info.id == pinned) {
                EXPECT_EQ(r.note, "same kernel as cpu.simd.lin");
                EXPECT_EQ(r.state, CandidateState::Skipped);
            }
    }
    // No bound on the sweep's seconds here: on real kernels they depend on the machine's load.
    // That the sweep keeps to its budget is RespectsTheBudget's, on an injected clock.
}

const CandidateReport* row(const ClassSelection& cls, const std::string& id) {
    for (const CandidateReport& r : cls.table)
        if (r.info.id == id) return &r;
    return nullptr;
}

// The issue's case: a 16-slice kernel wins the 16-slice class but runs a one-slice job with
// one lane of 16 used; the one-slice class is timed on one slice and never gets it.
TEST(Selector, OneSliceClassNeverGetsTheMultiSliceKernelWithOneLaneUsed) {
    double now = 0;
    auto registry = registryWith({{"test.multi", 8.0, true, 1.0, 16, "texture", &now},
                                  {"test.single", 2.0, true, 1.0, 1, "texture", &now}});
    Selector selector(registry, textureDevice(), clockedOptions(&now, {{256, 1}, {256, 16}}));
    auto result = selector.run("test", {1, {}, nullptr});
    ASSERT_TRUE(result.isOk()) << result.status().toString();
    ASSERT_EQ(result->classes.size(), 2u);
    const ClassSelection& one = result->classes[0];
    const ClassSelection& many = result->classes[1];
    EXPECT_EQ(one.workloadClass, "1.small");
    EXPECT_EQ(many.workloadClass, "many.small");
    EXPECT_NEAR(row(one, "test.multi")->measuredGups, 8.0 / 16, 1e-9);  // one lane of 16
    EXPECT_NEAR(row(one, "test.single")->measuredGups, 2.0, 1e-9);
    EXPECT_EQ(one.choices.at("exact.linear"), "test.single");
    EXPECT_EQ(many.choices.at("exact.linear"), "test.multi");
    const auto all = result->choices();
    EXPECT_EQ(all.at("1.small:exact.linear"), "test.single");
    EXPECT_EQ(all.at("many.small:exact.linear"), "test.multi");
}

// The model's default (the 2-slice fake: predicted fastest for 2 slices) is measured first and
// kept unless a challenger is at least the margin faster on the same shape in the same run.
TEST(Selector, KeepsTheModelDefaultUnlessAChallengerIsFasterInTheSameRun) {
    for (const double challenger : {0.9, 1.03, 1.2}) {
        SCOPED_TRACE(challenger);
        double now = 0;
        auto registry =
            registryWith({{"test.model", 1.0, true, 1.0, 2, "texture", &now},
                          {"test.challenger", challenger, true, 1.0, 1, "texture", &now}});
        Selector selector(registry, textureDevice(), clockedOptions(&now, {{64, 2}}));
        auto result = selector.run("test", {1, {}, nullptr});
        ASSERT_TRUE(result.isOk()) << result.status().toString();
        const ClassSelection& cls = result->classes[0];
        EXPECT_EQ(cls.defaults.at("exact.linear"), "test.model");
        EXPECT_EQ(cls.table[0].info.id, "test.model");  // measured first
        const std::string chosen = cls.choices.at("exact.linear");
        EXPECT_EQ(chosen, challenger > 1.05 ? "test.challenger" : "test.model");
        // The tuned choice is at least as fast as the default on the job's own shape.
        EXPECT_GE(row(cls, chosen)->measuredGups, row(cls, "test.model")->measuredGups);
    }
}

// The machine is loaded while the default is timed (its probe, warm-up and 3 timed runs take
// twice as long): the challenger measures faster in the sweep, but the interleaved
// confirmation shows the default is faster, and the default stays.
TEST(Selector, ChallengerMustBeConfirmedAgainstTheDefault) {
    double now = 0;
    int slowRuns = 5;
    auto registry = registryWith(
        {{"test.model", 1.0, true, 1.0, 2, "texture", &now, Interpolation::Linear, &slowRuns},
         {"test.challenger", 0.8, true, 1.0, 1, "texture", &now}});
    Selector selector(registry, textureDevice(), clockedOptions(&now, {{64, 2}}));
    auto result = selector.run("test", {1, {}, nullptr});
    ASSERT_TRUE(result.isOk()) << result.status().toString();
    const ClassSelection& cls = result->classes[0];
    EXPECT_NEAR(row(cls, "test.model")->measuredGups, 0.5, 1e-12);  // measured while loaded
    EXPECT_EQ(cls.choices.at("exact.linear"), "test.model");
    EXPECT_NE(row(cls, "test.challenger")->note.find("not confirmed"), std::string::npos)
        << row(cls, "test.challenger")->note;
    // Without the load the challenger loses in the sweep already; with a faster challenger the
    // confirmation agrees.
    slowRuns = 5;
    now = 0;
    auto faster = registryWith(
        {{"test.model", 1.0, true, 1.0, 2, "texture", &now, Interpolation::Linear, &slowRuns},
         {"test.challenger", 1.5, true, 1.0, 1, "texture", &now}});
    auto second = Selector(faster, textureDevice(), clockedOptions(&now, {{64, 2}}))
                      .run("test", {1, {}, nullptr});
    ASSERT_TRUE(second.isOk());
    EXPECT_EQ(second->classes[0].choices.at("exact.linear"), "test.challenger");
    EXPECT_NE(row(second->classes[0], "test.challenger")->note.find("confirmed: 1.5"),
              std::string::npos)
        << row(second->classes[0], "test.challenger")->note;
}

CandidateReport measuredRow(const std::string& id, double gups, Interpolation interp,
                            bool exact = true, CandidateState state = CandidateState::Measured) {
    CandidateReport r;
    r.info.id = id;
    r.info.interpolation = interp;
    r.info.exact = exact;
    r.state = state;
    r.measuredGups = gups;
    return r;
}

TEST(ChooseVariants, KindsStaySeparateAndABrokenDefaultGivesTheFastest) {
    const auto lin = Interpolation::Linear, nn = Interpolation::Nearest;
    const std::vector<CandidateReport> table = {
        measuredRow("lin.default", 1.0, lin),
        measuredRow("nn.default", 3.0, nn, true, CandidateState::Wrong),
        measuredRow("nn.fast", 9.0, nn),  // far faster, but nearest: never a linear choice
        measuredRow("lin.close", 1.04, lin),
        measuredRow("approx.lin", 5.0, lin, false),
        measuredRow("nn.slow", 2.0, nn),
    };
    const std::map<std::string, std::string> defaults = {{"exact.linear", "lin.default"},
                                                         {"exact.nearest", "nn.default"}};
    auto choices = chooseVariants(table, defaults, 1.05);
    EXPECT_EQ(choices.at("exact.linear"), "lin.default");  // 4% is within the margin
    EXPECT_EQ(choices.at("exact.nearest"), "nn.fast");     // the default is wrong
    EXPECT_EQ(choices.at("approximate.linear"), "approx.lin");
    EXPECT_EQ(choices.count("approximate.nearest"), 0u);  // nothing measured
    choices = chooseVariants(table, defaults, 1.0);
    EXPECT_EQ(choices.at("exact.linear"), "lin.close");
}

// The model's default for a job: the CPU aliases (which switch kernels by slice count), else the
// best prediction for the job's slices, of the requested interpolation only.
TEST(ModelDefault, UsesTheJobsSlicesAndTheRequestedInterpolation) {
    BackProjectorRegistry cpu;
    registerCpuBackProjectors(cpu);
    const DeviceTraits none;
    EXPECT_EQ(modelDefault(cpu, none, "cpu", Interpolation::Linear, true, 1), "cpu.simd.lin");
    EXPECT_EQ(modelDefault(cpu, none, "cpu", Interpolation::Nearest, true, 16), "cpu.simd.nn");
    auto registry =
        registryWith({{"test.four", 1.0, true, 1.0, 4},
                      {"test.one", 1.0, true, 1.0, 1},
                      {"test.nn", 1.0, true, 1.0, 4, "texture", nullptr, Interpolation::Nearest}});
    // Texture-bound: four slices per texel fetch are ~4x one; a one-slice job fills a quarter.
    EXPECT_EQ(modelDefault(registry, textureDevice(), "test", Interpolation::Linear, true, 4),
              "test.four");
    EXPECT_EQ(modelDefault(registry, textureDevice(), "test", Interpolation::Nearest, true, 1),
              "test.nn");
    EXPECT_EQ(modelDefault(registry, textureDevice(), "test", Interpolation::Linear, false, 1), "");
}

// A record's lookup uses the job's class and never returns a variant of another kind, even
// from a hand-edited file.
TEST(SelectionRecord, ChoiceForUsesTheClassAndTheKind) {
    BackProjectorRegistry registry;
    registerCpuBackProjectors(registry);
    SelectionRecord record;
    record.choices = {{"1.medium:exact.linear", "cpu.scalar.lin"},
                      {"many.medium:exact.linear", "cpu.simd.generic.lin"},
                      {"1.small:exact.linear", "cpu.scalar.nn"},  // wrong kind
                      {"few.medium:exact.linear", "no.such.variant"}};
    EXPECT_EQ(record.choiceFor(registry, {1024, 1}, Interpolation::Linear, true), "cpu.scalar.lin");
    EXPECT_EQ(record.choiceFor(registry, {2048, 16}, Interpolation::Linear, true),
              "cpu.simd.generic.lin");
    EXPECT_FALSE(record.choiceFor(registry, {256, 1}, Interpolation::Linear, true));
    EXPECT_FALSE(record.choiceFor(registry, {1024, 4}, Interpolation::Linear, true));
    EXPECT_FALSE(record.choiceFor(registry, {4096, 1}, Interpolation::Linear, true));  // untuned
    EXPECT_FALSE(record.choiceFor(registry, {1024, 1}, Interpolation::Nearest, true));
}

// Variants that are the same kernel predict the same: the pinned AVX-512/AVX2 variants switch to
// the single-slice kernel below their crossover like the alias does.
TEST(CostFor, SingleSliceSwitchCostsTheSingleSliceKernel) {
    BackProjectorRegistry registry;
    registerCpuBackProjectors(registry);
    const DeviceDiscovery cpu = discoverCpu();
    ASSERT_FALSE(cpu.devices.empty());
    const DeviceTraits traits = traitsFor(cpu.devices[0]);
    Selector selector(registry, traits);
    std::map<std::string, double> one;
    for (const CandidateReport& r : selector.rank("cpu", 1))
        one[r.info.id] = r.prediction.gups;
    const std::string isa = cpuIsaName(bestCpuIsa());
    if (bestCpuIsa() == CpuIsa::Generic) GTEST_SKIP() << "no single-slice kernel on this CPU";
    EXPECT_DOUBLE_EQ(one.at("cpu.simd.lin"), one.at("cpu.simd1." + isa + ".lin"));
    EXPECT_DOUBLE_EQ(one.at("cpu.simd." + isa + ".lin"), one.at("cpu.simd1." + isa + ".lin"));
    std::map<std::string, double> many;
    for (const CandidateReport& r : selector.rank("cpu", 16))
        many[r.info.id] = r.prediction.gups;
    EXPECT_DOUBLE_EQ(many.at("cpu.simd.lin"), many.at("cpu.simd." + isa + ".lin"));
    EXPECT_NE(many.at("cpu.simd.lin"), many.at("cpu.simd1." + isa + ".lin"));
}

}  // namespace
}  // namespace tomo
