// Cancel returns promptly (target 1 s) for every algorithm of the schema, through the GUI's job
// path (algorithm chosen in the window, Reconstruct, then the Cancel slot), with the cancel landing
// inside a long phase:
//  - fbp: an 8-slice stack of the 1024x1024 demo (1440 angles), cancelled at the first
//    "back-projection" progress report (the uncancelled back-projection takes ~8 s);
//  - sirt, os-sirt, cgls, tv: a 2-slice stack of the 1024x1024 demo, cancelled when iteration 1
//    is reported, i.e. when iteration 2 has just started its first projection (a projection of
//    the matched pair of cgls and tv takes 1.3-2 s on the 2-core VM, near their bounds of 2.5 and
//    2 s: a projection that does not check the stop token may pass unloaded, the target of 1 s
//    printed beside it shows it; the locality pair of the SIRT family is faster, ~0.3-0.5 s);
//  - sart: the 768x768 demo; an iteration is 1080 one-angle steps (seconds), cancelled in
//    iteration 2;
//  - mbir: the 384x384 demo (540 angles), cancelled when iteration 1 is reported, i.e. inside
//    iteration 2's SuperVoxel sweep (its system matrix may come from the disk cache, so the
//    build is not a phase to aim at);
//  - memxct: the 384x384 demo (540 angles, ~60 M nonzeros), cancelled at the first report of
//    each stage of the matrix build: tracing rays, transposing, staging buffers (seconds in
//    all; tests/core/memxct/MemxctCancelTest.cpp bounds the work after a stop per stage).
// The time from Cancel to Session::jobFinished is measured and printed: the target is
// 1 s (docs/performance.md, "Cancel", has the table). A responsiveness promise, so it is checked
// with a bound, but one that a loaded machine cannot break: per case the larger of 1 s and 10x
// the worst latency measured on the 2-core VM under load (loads 6-8: the docs' run and
// 2026-11-28's), so a phase that does not check its token for seconds still fails it. Each check
// inside the long loops covers ~1 ms of work; what remains is releasing the memory of the
// cancelled job (MemXCT: the partial matrices, ~0.1 s per GB). The previous reconstruction must
// stay.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <map>
#include <ostream>
#include <set>
#include <string>
#include <vector>

#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTest>

#include "core/iterative/AlgorithmSchema.h"
#include "tests/ui/JobPathSupport.h"
#include "tests/ui/UiTestSupport.h"

namespace tomo::ui {
namespace {

using test::waitFor;

struct CancelCase {
    std::string algorithm;
    /// Progress stage whose first report triggers the cancel; empty = the first iteration.
    std::string stage;
    int size = 1024;
    int slices = 1;
    /// The bound on Cancel -> finished: max(1 s, 10x the worst measured), in ms.
    int boundMs = 1000;
};

/// One case per algorithm of the schema (CoverEveryAlgorithmOfTheSchema checks), and one per
/// stage of the MemXCT matrix build.
/// The worst latencies measured (ms, docs' run / 2026-11-28's) are in the comments.
std::vector<CancelCase> cancelCases() {
    return {{"fbp", "back-projection", 1024, 8},                   // 65 / 20
            {"sirt", "", 1024, 2},                                 // 40 / 90
            {"os-sirt", "", 1024, 2, 1500},                        // 29 / 105
            {"sart", "", 768, 1},                                  // 14 / 25
            {"cgls", "", 1024, 2, 2500},                           // 30 / 210
            {"tv", "", 1024, 2, 2000},                             // 110 / 181
            {"mbir", "", 384, 1},                                  // - / 34
            {"gridrec", "gridrec: spreading", 1024, 64},           // - / 30
            {"memxct", "MemXCT: tracing rays", 384, 1},            // 6 / 34
            {"memxct", "MemXCT: transposing", 384, 1, 3000},       // 250 / 150
            {"memxct", "MemXCT: staging buffers", 384, 1, 3000}};  // 251 / 97
}

/// How ctest and GoogleTest print a case (instead of its bytes, which hold pointers).
void PrintTo(const CancelCase& c, std::ostream* os) {
    *os << c.algorithm << (c.stage.empty() ? "" : " / " + c.stage) << ", " << c.size << "^2 x "
        << c.slices;
}

std::string caseName(const testing::TestParamInfo<CancelCase>& info) {
    std::string name =
        info.param.algorithm + (info.param.stage.empty() ? "" : "_" + info.param.stage);
    for (char& c : name)
        if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
    return name;
}

class CancelLatency : public testing::TestWithParam<CancelCase> {};

TEST_P(CancelLatency, CancelReturnsPromptlyInsideTheLongPhase) {
    const CancelCase& c = GetParam();
    test::WindowFixture f;
    f.session.setDataset(test::demoStack(c.size, c.slices), QStringLiteral("cancel test"));
    auto before = f.session.reconstruction();

    bool inPhase = false;
    QString lastStage;
    QObject::connect(&f.session, &Session::progress, [&](double, const QString& stage) {
        lastStage = stage;
        if (!c.stage.empty() && stage.toStdString() == c.stage) inPhase = true;
    });
    QObject::connect(&f.session, &Session::iterationReported, [&](int) {
        if (c.stage.empty()) inPhase = true;
    });
    QSignalSpy finished(&f.session, &Session::jobFinished);
    std::map<std::string, std::string> values;
    if (findAlgorithm(c.algorithm)->iterative) {
        values["iterations"] = "100000";
        // No stopping rule may end the run before the cancel (MBIR has only its own rules).
        if (c.algorithm == "mbir")
            values["stop_threshold"] = "0";
        else
            values["stop"] = "none";
    }
    QElapsedTimer sinceStart;
    sinceStart.start();
    ASSERT_TRUE(test::reconstructWith(*f.window, c.algorithm, values));
    QElapsedTimer wait;
    wait.start();
    // Reaching the phase is not what is measured: the first CGLS / TV iteration at 1024^2 x 2
    // takes 50-90 s here and longer beside another heavy test under ctest -j2, so the wait is
    // bounded well inside ctest's 300 s per test, not at a speed.
    while (!inPhase && finished.isEmpty() && wait.elapsed() < 240000)
        QTest::qWait(5);
    ASSERT_TRUE(finished.isEmpty())
        << "the job ended before its long phase: " << finished.at(0).at(2).toString().toStdString();
    ASSERT_TRUE(inPhase) << "no report of '" << c.stage << "' within 240 s (last stage '"
                         << lastStage.toStdString() << "')";
    const qint64 reachedMs = sinceStart.elapsed();

    QElapsedTimer timer;
    timer.start();
    f.session.cancel();
    ASSERT_TRUE(waitFor(finished, 1, 30000)) << "no finished signal within 30 s of Cancel";
    const qint64 ms = timer.elapsed();
    std::printf(
        "cancel %-8s %-26s %dx%dx%d: phase reached after %lld ms, cancel -> finished "
        "%lld ms\n",
        c.algorithm.c_str(), c.stage.empty() ? "(iteration 2)" : c.stage.c_str(), c.size, c.size,
        c.slices, static_cast<long long>(reachedMs), static_cast<long long>(ms));
    EXPECT_LT(ms, c.boundMs) << c.algorithm << ": Cancel took " << ms << " ms";
    EXPECT_FALSE(finished.at(0).at(1).toBool());
    EXPECT_TRUE(finished.at(0).at(2).toString().endsWith(QStringLiteral("cancelled")))
        << finished.at(0).at(2).toString().toStdString();
    EXPECT_EQ(f.session.reconstruction(), before) << "the previous result must stay";
}

INSTANTIATE_TEST_SUITE_P(EveryAlgorithm, CancelLatency, testing::ValuesIn(cancelCases()), caseName);

TEST(CancelLatencyCases, CoverEveryAlgorithmOfTheSchema) {
    std::set<std::string> covered;
    for (const CancelCase& c : cancelCases())
        covered.insert(c.algorithm);
    for (const AlgorithmSpec& spec : algorithmSpecs())
        EXPECT_TRUE(covered.count(spec.id)) << spec.id << " has no cancel-latency case";
}

}  // namespace
}  // namespace tomo::ui
