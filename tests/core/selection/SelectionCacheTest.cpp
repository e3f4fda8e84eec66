// Selection cache: JSON round trip on disk, key matching (a mismatch re-tunes), replacement per
// device, and corrupt files ignored with a warning.
#include <gtest/gtest.h>

#include <unistd.h>
#include <fstream>

#include "core/selection/SelectionCache.h"

namespace tomo {
namespace {

class SelectionCacheTest : public ::testing::Test {
  protected:
    void SetUp() override {
        m_dir = std::filesystem::temp_directory_path() /
                ("tomo_selection_" + std::to_string(::getpid()) + "_" +
                 ::testing::UnitTest::GetInstance()->current_test_info()->name());
        std::filesystem::remove_all(m_dir);
        m_file = m_dir / "tomostation" / "selection.json";
    }
    void TearDown() override { std::filesystem::remove_all(m_dir); }

    void writeFile(const std::string& text) {
        std::filesystem::create_directories(m_file.parent_path());
        std::ofstream(m_file) << text;
    }

    std::filesystem::path m_dir, m_file;
};

SelectionKey cpuKey() {
    return {"cpu", "AMD EPYC 9B45", "", "", "0.1.0 GNU 12.2.0 Release"};
}

/// A sweep of class @p cls (256^2 x 16 slices) whose exact linear choice is @p winner.
SelectionResult sampleResult(const std::string& winner, const std::string& cls = "many.small") {
    SelectionResult r;
    r.backend = "cpu";
    r.seconds = 9.5;
    ClassSelection c;
    c.workloadClass = cls;
    c.shape = {256, 16};
    CandidateReport a;
    a.info.id = winner;
    a.prediction.gups = 24.6;
    a.prediction.bottleneck = "fp32";
    a.state = CandidateState::Measured;
    a.measuredGups = 17.25;
    a.error = 3.5e-7;
    CandidateReport b;
    b.info.id = "cpu.scalar.lin";
    b.prediction.gups = 0.65;
    b.state = CandidateState::Skipped;
    b.note = "budget exhausted before this candidate";
    c.table = {a, b};
    c.choices = {{"exact.linear", winner}};
    r.classes.push_back(c);
    return r;
}

const std::string kManySmall = "many.small:exact.linear";

TEST_F(SelectionCacheTest, RoundTripThroughTheFile) {
    SelectionCache cache = SelectionCache::load(m_file);
    EXPECT_TRUE(cache.records().empty());
    EXPECT_TRUE(cache.warning().empty());  // a missing file is not a problem
    cache.put(makeRecord(cpuKey(), sampleResult("cpu.simd.avx512.lin")));
    ASSERT_TRUE(cache.save().isOk());

    const SelectionCache back = SelectionCache::load(m_file);
    EXPECT_TRUE(back.warning().empty()) << back.warning();
    const SelectionRecord* r = back.find(cpuKey());
    ASSERT_NE(r, nullptr);
    EXPECT_EQ(r->choices.at(kManySmall), "cpu.simd.avx512.lin");
    ASSERT_EQ(r->classes.size(), 1u);
    EXPECT_EQ(r->classes[0].workloadClass, "many.small");
    EXPECT_EQ(r->classes[0].imageSize, 256);
    EXPECT_EQ(r->classes[0].slices, 16);
    EXPECT_DOUBLE_EQ(r->seconds, 9.5);
    EXPECT_EQ(r->created.size(), 20u);  // 2025-01-31T12:00:00Z
    ASSERT_EQ(r->classes[0].table.size(), 2u);
    EXPECT_DOUBLE_EQ(r->classes[0].table[0].predictedGups, 24.6);
    EXPECT_DOUBLE_EQ(r->classes[0].table[0].measuredGups, 17.25);
    EXPECT_DOUBLE_EQ(r->classes[0].table[0].error, 3.5e-7);
    EXPECT_EQ(r->classes[0].table[0].bottleneck, "fp32");
    EXPECT_EQ(r->classes[0].table[1].state, "skipped");
    EXPECT_EQ(r->classes[0].table[1].note, "budget exhausted before this candidate");
}

TEST_F(SelectionCacheTest, KeyMismatchTunesAgainAndMatchUsesTheCache) {
    SelectionCache cache = SelectionCache::load(m_file);
    int tunes = 0;
    auto tune = [&]() -> Result<SelectionResult> {
        ++tunes;
        return sampleResult(tunes == 1 ? "cpu.simd.lin" : "cpu.simd1.avx512.lin");
    };
    Status saved;
    auto first = cachedOrTune(cache, cpuKey(), tune, &saved);
    ASSERT_TRUE(first.isOk());
    EXPECT_TRUE(saved.isOk()) << saved.toString();
    EXPECT_EQ(tunes, 1);

    SelectionCache reloaded = SelectionCache::load(m_file);
    auto second = cachedOrTune(reloaded, cpuKey(), tune);
    ASSERT_TRUE(second.isOk());
    EXPECT_EQ(tunes, 1);  // served from the file
    EXPECT_EQ(second->choices.at(kManySmall), "cpu.simd.lin");

    SelectionKey newBuild = cpuKey();
    newBuild.build = "0.2.0 GNU 12.2.0 Release";
    EXPECT_EQ(reloaded.find(newBuild), nullptr);
    ASSERT_NE(reloaded.findDevice("cpu", "AMD EPYC 9B45"), nullptr);  // stale record is known
    auto third = cachedOrTune(reloaded, newBuild, tune);
    ASSERT_TRUE(third.isOk());
    EXPECT_EQ(tunes, 2);
    EXPECT_EQ(third->choices.at(kManySmall), "cpu.simd1.avx512.lin");
    // The new sweep replaced the device's old record instead of adding one.
    const SelectionCache last = SelectionCache::load(m_file);
    EXPECT_EQ(last.records().size(), 1u);
    EXPECT_EQ(last.find(cpuKey()), nullptr);
    EXPECT_NE(last.find(newBuild), nullptr);
}

TEST_F(SelectionCacheTest, DifferentDevicesKeepSeparateRecords) {
    SelectionCache cache = SelectionCache::load(m_file);
    cache.put(makeRecord(cpuKey(), sampleResult("cpu.simd.lin")));
    SelectionKey gpu{"opencl", "NVIDIA H100", "550.54", "9.0", cpuKey().build};
    cache.put(makeRecord(gpu, sampleResult("opencl.alu.lin")));
    ASSERT_TRUE(cache.save().isOk());
    const SelectionCache back = SelectionCache::load(m_file);
    ASSERT_EQ(back.records().size(), 2u);
    EXPECT_EQ(back.find(gpu)->choices.at(kManySmall), "opencl.alu.lin");
    gpu.driver = "560.1";
    EXPECT_EQ(back.find(gpu), nullptr);
}

TEST_F(SelectionCacheTest, CorruptFilesAreIgnoredWithAWarning) {
    const std::string bad[] = {
        "{\"format\": \"tomostation-selection-2\", \"entries\": [",  // truncated
        "not json at all",
        "{\"format\": \"something-else\", \"entries\": []}",
        "{\"format\": \"tomostation-selection-2\", \"entries\": [{\"key\": 5}]}",
        "{\"format\": \"tomostation-selection-2\", \"entries\": [{\"key\": {\"backend\": "
        "\"cpu\", \"device\": \"x\"}, \"choices\": {\"exact.linear\": 3}}]}",
    };
    for (const std::string& text : bad) {
        writeFile(text);
        SelectionCache cache = SelectionCache::load(m_file);
        EXPECT_TRUE(cache.records().empty()) << text;
        EXPECT_NE(cache.warning().find("ignoring"), std::string::npos) << text;
        EXPECT_NE(cache.warning().find(m_file.string()), std::string::npos) << text;
        // A corrupt cache is replaced by the next save.
        cache.put(makeRecord(cpuKey(), sampleResult("cpu.simd.lin")));
        ASSERT_TRUE(cache.save().isOk());
        EXPECT_NE(SelectionCache::load(m_file).find(cpuKey()), nullptr);
    }
}

// The first format held one choice per device for every workload (the cache that
// handed cpu.simd.avx512.lin, tuned at 256^2 x 16, to every one-slice job): ignored, replaced.
TEST_F(SelectionCacheTest, FirstFormatFilesAreIgnoredAndReplaced) {
    writeFile(
        "{\"format\": \"tomostation-selection-1\", \"entries\": [{\"key\": {\"backend\": "
        "\"cpu\", \"device\": \"AMD EPYC 9B45\", \"driver\": \"\", \"compute_capability\": "
        "\"\", \"build\": \"0.1.0 GNU 12.2.0 Release\"}, \"created\": \"2025-01-31T12:00:00Z\", "
        "\"image_size\": 256, \"slices\": 16, \"seconds\": 4, \"choices\": {\"exact.linear\": "
        "\"cpu.simd.avx512.lin\"}, \"table\": []}]}");
    SelectionCache cache = SelectionCache::load(m_file);
    EXPECT_TRUE(cache.records().empty());
    EXPECT_NE(cache.warning().find("older TomoStation"), std::string::npos) << cache.warning();
    cache.put(makeRecord(cpuKey(), sampleResult("cpu.simd.lin")));
    ASSERT_TRUE(cache.save().isOk());
    const SelectionCache back = SelectionCache::load(m_file);
    EXPECT_TRUE(back.warning().empty()) << back.warning();
    ASSERT_NE(back.find(cpuKey()), nullptr);
    EXPECT_EQ(back.find(cpuKey())->choices.count("exact.linear"), 0u);
}

// Choices are keyed by workload class; a sweep of some classes keeps the others' choices when
// the key is the same, and a new key (driver, build) drops them all.
TEST_F(SelectionCacheTest, ClassesHaveSeparateKeysAndMergePerClass) {
    EXPECT_EQ(workloadClass({1024, 1}), "1.medium");
    EXPECT_EQ(workloadClass({256, 16}), "many.small");
    EXPECT_EQ(workloadClass({512, 4}), "few.small");
    EXPECT_EQ(workloadClass({4096, 32}), "many.large");
    EXPECT_EQ(workloadClass({2048, 15}), "few.medium");
    EXPECT_NE(cacheChoiceKey("1.medium", true, Interpolation::Linear),
              cacheChoiceKey("many.medium", true, Interpolation::Linear));
    EXPECT_NE(cacheChoiceKey("1.medium", true, Interpolation::Linear),
              cacheChoiceKey("1.medium", true, Interpolation::Nearest));
    EXPECT_EQ(classShape("1.medium").slices, 1);
    EXPECT_EQ(classShape("many.small").slices, 16);
    EXPECT_EQ(workloadClass(classShape("few.large")), "few.large");

    SelectionCache cache = SelectionCache::load(m_file);
    cache.put(makeRecord(cpuKey(), sampleResult("cpu.simd.avx512.lin", "many.small")));
    cache.put(makeRecord(cpuKey(), sampleResult("cpu.simd1.avx512.lin", "1.medium")));
    ASSERT_TRUE(cache.save().isOk());
    const SelectionCache back = SelectionCache::load(m_file);
    const SelectionRecord* r = back.find(cpuKey());
    ASSERT_NE(r, nullptr);
    EXPECT_EQ(r->classes.size(), 2u);
    EXPECT_EQ(r->choices.at("many.small:exact.linear"), "cpu.simd.avx512.lin");
    EXPECT_EQ(r->choices.at("1.medium:exact.linear"), "cpu.simd1.avx512.lin");
    // Re-tuning a class replaces its choice only.
    cache.put(makeRecord(cpuKey(), sampleResult("cpu.simd.lin", "1.medium")));
    EXPECT_EQ(cache.find(cpuKey())->choices.at("1.medium:exact.linear"), "cpu.simd.lin");
    EXPECT_EQ(cache.find(cpuKey())->choices.at("many.small:exact.linear"), "cpu.simd.avx512.lin");
    SelectionKey newBuild = cpuKey();
    newBuild.build = "0.2.0";
    cache.put(makeRecord(newBuild, sampleResult("cpu.simd.lin", "1.medium")));
    EXPECT_EQ(cache.find(newBuild)->choices.size(), 1u);
}

TEST_F(SelectionCacheTest, UnwritableDirectoryIsAnIoError) {
    writeFile("");  // creates m_dir/tomostation
    SelectionCache cache =
        SelectionCache::load(m_dir / "tomostation" / "selection.json" / "below-a-file.json");
    EXPECT_TRUE(cache.warning().empty());
    cache.put(makeRecord(cpuKey(), sampleResult("cpu.simd.lin")));
    EXPECT_EQ(cache.save().code(), ErrorCode::IoError);
}

}  // namespace
}  // namespace tomo
