// The preflight of the reconstruction service (app/recon/Preflight.h): a job that cannot fit
// says so before it starts, naming what it needs and what the machine has; a budget below one
// step uses (and names) the minimum; a budget above the machine is lowered. The machine is
// given (MachineResources), so the numbers are exact whatever this machine has; the sizes are
// those of issue 29 (a 60000^2 slice, a 137 GB output on 68 GB of disk, a 36.9 GB result held
// by the GUI).
#include <gtest/gtest.h>

#include <filesystem>

#include "CliTestSupport.h"
#include "app/Backends.h"
#include "app/Engine.h"
#include "app/Selection.h"
#include "app/recon/ReconService.h"
#include "core/iterative/AlgorithmSchema.h"
#include "core/phantom/Phantom.h"

namespace tomo {
namespace {

constexpr std::size_t kGiB = std::size_t(1) << 30, kMiB = std::size_t(1) << 20;

app::MachineResources machine(std::size_t available, std::optional<std::uintmax_t> disk) {
    app::MachineResources m;
    m.availableMemory = available;
    m.physicalMemory = available;
    m.freeDisk = [disk](const std::filesystem::path&) { return disk; };
    return m;
}

/// A request for @p slices slices of a small sinogram (8 angles x 16 detectors, zeros) on an
/// n x n grid: the preflight reads no data, so only the shapes matter.
app::ReconRequest request(std::size_t slices, int n, const std::string& algorithm = "fbp") {
    auto sino = std::make_shared<Sinograms>(Sinograms::create(slices, 8, 16).value());
    sino->fill(0.f);
    ParallelGeometry::Params p;
    for (int a = 0; a < 8; ++a)
        p.angles.push_back(a * kPi / 8);
    p.detectorCount = 16;
    p.rows = static_cast<int>(slices);
    VolumeGeometry grid;
    grid.nx = grid.ny = n;
    grid.nz = static_cast<int>(slices);
    app::ReconRequest r(app::memorySource(sino), ParallelGeometry::create(p).value(), grid);
    r.algorithm = algorithm;
    r.backend = "cpu";
    return r;
}

class Preflight : public test::CliTest {};

TEST_F(Preflight, AnOutputLargerThanTheFreeDiskIsRefusedNamingBothSizes) {
    const app::Engine engine;
    const app::ReconService service(engine);
    // 1024 slices of 5800^2 floats: 137.8 GB (128.33 GiB) on a disk with 68 GB free.
    app::ReconRequest r = request(1024, 5800);
    r.memoryBudget = kGiB;
    r.output.path = path("big.raw");
    auto p = service.preflight(r, machine(64 * kGiB, 68'000'000'000ull));
    ASSERT_FALSE(p.isOk());
    EXPECT_EQ(p.status().code(), ErrorCode::IoError);
    EXPECT_NE(p.status().message().find("the output needs 128.33 GiB but its disk has 63.33 GiB "
                                        "free"),
              std::string::npos)
        << p.status().message();
    // With room on the disk the same job passes, streamed by slabs of one batch (16 slices: the
    // minimum, 4.02 GiB, above a 1 GiB budget, said in a note).
    auto ok = service.preflight(r, machine(64 * kGiB, 200'000'000'000ull));
    ASSERT_TRUE(ok.isOk()) << ok.status().message();
    EXPECT_EQ(ok->outputFileBytes, 1024ull * 5800 * 5800 * 4);
    EXPECT_EQ(ok->heldOutputBytes, 0u);
    EXPECT_EQ(ok->slabSlices, 16u);
    EXPECT_EQ(ok->slabs, 64u);
    ASSERT_EQ(ok->notes.size(), 1u);
    EXPECT_NE(ok->notes[0].find("needs 4.02 GiB with the input held in memory, more than the "
                                "memory budget of 1.00 GiB"),
              std::string::npos)
        << ok->notes[0];
}

TEST_F(Preflight, OneBatchBeyondTheMachineIsRefusedBeforeAnyWork) {
    const app::Engine engine;
    const app::ReconService service(engine);
    // Issue 29: --size 60000 --memory-budget 512 planned 16 slices of 220 GB and failed later.
    app::ReconRequest r = request(20, 60000);
    r.memoryBudget = 512 * kMiB;
    r.output.path = path("huge.raw");
    auto p = service.preflight(r, machine(24 * kGiB, std::nullopt));
    ASSERT_FALSE(p.isOk());
    EXPECT_EQ(p.status().code(), ErrorCode::OutOfMemory);
    const std::string m = p.status().message();
    // One batch of 16: input, output, filtered and packed copies of 60000^2 floats each.
    EXPECT_NE(m.find("one FBP batch of 16 slice(s) needs 429.15 GiB"), std::string::npos) << m;
    EXPECT_NE(m.find("this machine has 24.00 GiB of memory available"), std::string::npos) << m;
    EXPECT_NE(m.find("the budget is 512.0 MiB"), std::string::npos) << m;
    // run() refuses before it starts on this machine too (the 429 GiB batch; the 268 GiB output
    // may also exceed its disk), without creating the output.
    auto run = service.run(r, {}, {});
    ASSERT_FALSE(run.isOk());
    EXPECT_NE(run.status().message().find("one FBP batch of 16 slice(s) needs 429.15 GiB"),
              std::string::npos)
        << run.status().message();
    EXPECT_FALSE(std::filesystem::exists(r.output.path));
}

TEST_F(Preflight, AResultHeldInMemoryMustFitTheMachine) {
    const app::Engine engine;
    const app::ReconService service(engine);
    // Issue 28: the GUI started a 6000^2 x 256 FBP (36.9 GB, kept in memory) on a 23 GB machine.
    app::ReconRequest r = request(256, 6000);
    auto p = service.preflight(r, machine(23 * kGiB, std::nullopt));
    ASSERT_FALSE(p.isOk());
    EXPECT_EQ(p.status().code(), ErrorCode::OutOfMemory);
    const std::string m = p.status().message();
    EXPECT_NE(m.find("the result, held whole in memory, 34.33 GiB"), std::string::npos) << m;
    EXPECT_NE(m.find("23.00 GiB of memory available"), std::string::npos) << m;
    EXPECT_NE(m.find("write the result to a streamed file"), std::string::npos) << m;
}

TEST_F(Preflight, APythonRefusalNamesTheKeywordsNotTheFlags) {
    const app::Engine engine;
    const app::ReconService service(engine);
    app::ReconRequest r = request(256, 6000);
    r.frontEnd = app::FrontEnd::Python;
    auto p = service.preflight(r, machine(23 * kGiB, std::nullopt));
    ASSERT_FALSE(p.isOk());
    EXPECT_EQ(p.status().code(), ErrorCode::OutOfMemory);
    const std::string m = p.status().message();
    EXPECT_NE(m.find("the result, held whole in memory, 34.33 GiB"), std::string::npos) << m;
    EXPECT_NE(m.find("output=\"result.h5\""), std::string::npos) << m;
    EXPECT_EQ(m.find("--"), std::string::npos) << m;
    EXPECT_EQ(m.find("Region and sampling"), std::string::npos) << m;
}

TEST_F(Preflight, ABudgetBelowOneBatchUsesAndNamesTheMinimum) {
    const app::Engine engine;
    const app::ReconService service(engine);
    app::ReconRequest r = request(40, 256);
    r.memoryBudget = kMiB;  // one batch of 16 slices of 256^2 needs 12.5 MiB
    auto p = service.preflight(r, machine(8 * kGiB, std::nullopt));
    ASSERT_TRUE(p.isOk()) << p.status().message();
    EXPECT_EQ(p->minimumSlices, 16u);
    EXPECT_EQ(p->slabSlices, 16u);
    EXPECT_EQ(p->slabs, 3u);
    ASSERT_FALSE(p->notes.empty());
    EXPECT_NE(p->notes.back().find("one FBP batch of 16 slice(s) needs"), std::string::npos)
        << p->notes.back();
    EXPECT_NE(p->notes.back().find("more than the memory budget of 1.0 MiB: using that minimum"),
              std::string::npos)
        << p->notes.back();
    // The run says so too, and its slabs are the plan's.
    auto run = service.run(r, {}, {});
    ASSERT_TRUE(run.isOk()) << run.status().message();
    EXPECT_EQ(run->slabSlices, 16u);
    EXPECT_EQ(run->preflight->notes, p->notes);
}

TEST_F(Preflight, ABudgetAboveTheMachineIsLoweredToIt) {
    const app::Engine engine;
    const app::ReconService service(engine);
    app::ReconRequest r = request(64, 256);
    r.memoryBudget = 4 * kGiB;
    auto p = service.preflight(r, machine(30 * kMiB, std::nullopt));
    ASSERT_TRUE(p.isOk()) << p.status().message();
    EXPECT_EQ(p->effectiveBudget, 30 * kMiB - 64 * 256 * 256 * 4);  // less the result held
    EXPECT_LE(p->peakBytes, 30 * kMiB);
    EXPECT_EQ(p->slabSlices, 32u);
    EXPECT_NE(p->notes.front().find("more than this machine has available (30.0 MiB"),
              std::string::npos)
        << p->notes.front();
}

TEST_F(Preflight, IterativeSolvesAreCutWithinTheBudget) {
    const app::Engine engine;
    const app::ReconService service(engine);
    app::ReconRequest r = request(20, 64, "sirt");
    r.parameters["iterations"] = "2";
    auto whole = service.preflight(r, machine(8 * kGiB, std::nullopt));
    ASSERT_TRUE(whole.isOk()) << whole.status().message();
    EXPECT_EQ(whole->slabSlices, 20u);  // all slices in one solve when they fit
    // A budget for about five slices' solves: four solves, said in a note.
    r.memoryBudget = whole->heldInputBytes + 5 * (whole->slabBytes / 20) + 1;
    auto cut = service.preflight(r, machine(8 * kGiB, std::nullopt));
    ASSERT_TRUE(cut.isOk());
    EXPECT_EQ(cut->slabSlices, 5u);
    EXPECT_LE(cut->heldInputBytes + cut->slabBytes, r.memoryBudget);
    auto run = service.run(r, {}, {});
    ASSERT_TRUE(run.isOk()) << run.status().message();
    EXPECT_EQ(run->slabs, 4u);
    bool told = false;
    for (const std::string& n : run->notes)
        told = told || n.find("holds 5 of the 20 slices per sirt solve") != std::string::npos;
    EXPECT_TRUE(told);
}

// Issue 27: a stack held in memory and reconstructed in one step is read in place (FbpSlabs,
// IterativeSlabs), so it is counted once: as the held input, not again as the step's input copy.
// A machine with room for the step and half the stack besides admits an FBP job that the double
// count refused, and a budget that fits one step of every slice, once, plans one solve.
TEST_F(Preflight, AStackHeldInMemoryIsCountedOnce) {
    const app::Engine engine;
    const app::ReconService service(engine);
    app::ReconRequest fbp = request(8, 64);  // one FBP batch covers all 8 slices
    auto big = service.preflight(fbp, machine(8 * kGiB, std::nullopt));
    ASSERT_TRUE(big.isOk()) << big.status().message();
    ASSERT_EQ(big->minimumSlices, 8u);
    ASSERT_GT(big->heldInputBytes, 0u);
    EXPECT_EQ(big->peakBytes, big->minimumBytes + big->heldOutputBytes);
    const std::size_t room = big->minimumBytes + big->heldOutputBytes;
    auto fits = service.preflight(fbp, machine(room + big->heldInputBytes / 2, std::nullopt));
    EXPECT_TRUE(fits.isOk()) << fits.status().message();
    auto refused = service.preflight(fbp, machine(room - 1, std::nullopt));
    EXPECT_FALSE(refused.isOk());

    app::ReconRequest sirt = request(20, 64, "sirt");
    sirt.parameters["iterations"] = "2";
    auto whole = service.preflight(sirt, machine(8 * kGiB, std::nullopt));
    ASSERT_TRUE(whole.isOk()) << whole.status().message();
    ASSERT_EQ(whole->slabSlices, 20u);
    sirt.memoryBudget = whole->slabBytes + whole->heldInputBytes / 2;
    auto once = service.preflight(sirt, machine(8 * kGiB, std::nullopt));
    ASSERT_TRUE(once.isOk()) << once.status().message();
    EXPECT_EQ(once->slabSlices, 20u);
    EXPECT_LE(once->peakBytes - once->heldOutputBytes, sirt.memoryBudget);
    auto run = service.run(sirt, {}, {});
    ASSERT_TRUE(run.isOk()) << run.status().message();
    EXPECT_EQ(run->slabs, 1u);
}

// Issue 27: `tomo recon --backend cuda --algo mbir` without a GPU fell back to the CPU without
// a word. Every algorithm the front door serves, asked for a compiled device backend that has
// no device here (or an exactly matched pair the device does not have), runs on the CPU and
// says so in a note naming the backend. Skips when every compiled backend has a device.
TEST(FrontDoorFallback, EveryFallbackToTheCpuIsSaid) {
    const app::Engine engine;
    const app::ReconService service(engine);
    int checked = 0;
    for (const std::string& backend : app::compiledBackends()) {
        if (backend == "cpu" || app::primaryDevice(backend).isOk()) continue;
        for (const AlgorithmSpec& spec : algorithmSpecs()) {
            app::ReconRequest r = request(1, 32, spec.id);
            r.backend = backend;
            if (spec.iterative) r.parameters.insert_or_assign("iterations", std::string("1"));
            auto report = service.run(r, {}, {});
            ASSERT_TRUE(report.isOk()) << spec.id << ": " << report.status().message();
            EXPECT_EQ(report->backend, "cpu") << spec.id;
            bool said = false;
            for (const std::string& note : report->notes)
                said = said || (note.find(backend) != std::string::npos &&
                                note.find("CPU") != std::string::npos);
            EXPECT_TRUE(said) << spec.id << " on " << backend << " fell back without a note";
            ++checked;
        }
    }
    if (checked == 0) GTEST_SKIP() << "every compiled backend has a device";
}

}  // namespace
}  // namespace tomo
