// Output larger than memory (issue 12): `tomo recon` reads its input and writes its output a
// slab of slices at a time. The streamed result equals the whole-volume one, bit for bit, in
// every streaming format; with --memory-budget below the volume's size the peak resident memory
// of the process stays under the budget plus a fixed overhead, measured here with wait4's
// rusage (ru_maxrss) of the `tomo` child.
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <algorithm>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "CliTestSupport.h"
#include "app/data/DataFormats.h"

namespace tomo::test {
namespace {

/// Runs `tomo ARGS...` without a shell; exit code and peak resident set size in KiB.
struct Measured {
    int code = -1;
    long peakKiB = 0;
};

Measured runMeasured(const std::vector<std::string>& args) {
    std::vector<std::string> argv{TOMO_CLI};
    argv.insert(argv.end(), args.begin(), args.end());
    std::vector<char*> cargs;
    for (std::string& a : argv)
        cargs.push_back(a.data());
    cargs.push_back(nullptr);
    std::fflush(stdout);  // the child must not print the parent's buffered lines again
    const pid_t pid = ::fork();
    if (pid == 0) {
        std::freopen("/dev/null", "w", stdout);
        ::execv(cargs[0], cargs.data());
        ::_exit(127);
    }
    Measured m;
    int status = 0;
    rusage usage{};
    if (pid > 0 && ::wait4(pid, &status, 0, &usage) == pid) {
        m.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
        m.peakKiB = usage.ru_maxrss;
    }
    return m;
}

std::string fileBytes(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), {}};
}

class SlabStream : public CliTest {
  protected:
    /// A phantom sinogram stack of @p slices slices, @p angles x @p detectors, as raw float32.
    std::string phantom(int slices, int angles, int detectors) {
        const std::string sino = path("sino.raw");
        CliRun r = runTomo("phantom -o " + sino + " --size " + std::to_string(detectors) +
                           " --angles 0:180:" + std::to_string(angles) + " --detectors " +
                           std::to_string(detectors) + " --slices " + std::to_string(slices));
        EXPECT_EQ(r.code, 0) << r.output;
        shape =
            std::to_string(angles) + "x" + std::to_string(detectors) + "x" + std::to_string(slices);
        angleSpec = "0:180:" + std::to_string(angles);
        return sino;
    }
    std::vector<std::string> recon(const std::string& in, const std::string& out,
                                   std::vector<std::string> more) {
        std::vector<std::string> args{"recon", in,  "--shape", shape,       "--angles", angleSpec,
                                      "-o",    out, "--quiet", "--backend", "cpu"};
        args.insert(args.end(), more.begin(), more.end());
        return args;
    }
    std::string shape, angleSpec;
};

TEST_F(SlabStream, StreamedOutputEqualsTheWholeVolumeInEveryStreamingFormat) {
    const std::string sino = phantom(40, 90, 64);
    for (const std::string ext : {".raw", ".tif", ".h5", ".mha"}) {
        const std::string whole = path("whole" + ext), slabs = path("slabs" + ext);
        ASSERT_EQ(runMeasured(recon(sino, whole, {})).code, 0) << ext;
        // 16-slice slabs (whole FBP batches): three slabs, the last one short.
        ASSERT_EQ(runMeasured(recon(sino, slabs, {"--chunk-rows", "16"})).code, 0) << ext;
        auto formats = app::makeFormatRegistry();
        ASSERT_TRUE(formats.isOk());
        ReadOptions options;
        options.shape = std::array<std::size_t, 3>{40, 64, 64};
        auto a = formats->readVolume(whole, options), b = formats->readVolume(slabs, options);
        ASSERT_TRUE(a.isOk()) << ext << ": " << a.status().toString();
        ASSERT_TRUE(b.isOk()) << ext << ": " << b.status().toString();
        ASSERT_EQ(a->dims(), b->dims()) << ext;
        bool same = true;
        for (std::size_t z = 0; z < a->dim(0) && same; ++z)
            for (std::size_t y = 0; y < a->dim(1) && same; ++y)
                same = std::equal(a->row(z, y).begin(), a->row(z, y).end(), b->row(z, y).begin());
        EXPECT_TRUE(same) << ext;
    }
    EXPECT_EQ(fileBytes(path("whole.raw")), fileBytes(path("slabs.raw")));
}

TEST_F(SlabStream, PeakMemoryStaysWithinTheBudgetPlusAFixedOverhead) {
    // The fixed overhead: the same command on a one-slice input (code, libraries, device
    // runtimes), plus 24 MiB for allocator slack and the writer's buffers.
    const std::string tiny = phantom(1, 120, 512);
    const Measured base = runMeasured(recon(tiny, path("tiny.raw"), {}));
    ASSERT_EQ(base.code, 0);
    // 256 slices of 512^2: a 256 MiB volume from a 60 MiB input, with a 64 MiB budget (one
    // slab of 16 slices holds about 45 MiB: input, output, filtered and packed copies).
    const std::string sino = phantom(256, 120, 512);
    const long budgetKiB = 64 * 1024;
    const Measured slab = runMeasured(recon(sino, path("slab.raw"), {"--memory-budget", "64"}));
    ASSERT_EQ(slab.code, 0);
    const long overheadKiB = base.peakKiB + 24 * 1024;
    const long volumeKiB = 256L * 512 * 512 * 4 / 1024;
    std::printf(
        "peak RSS: one slice %ld KiB, 256 slices with a 64 MiB budget %ld KiB "
        "(bound %ld KiB; the volume is %ld KiB)\n",
        base.peakKiB, slab.peakKiB, budgetKiB + overheadKiB, volumeKiB);
    EXPECT_LE(slab.peakKiB, budgetKiB + overheadKiB);
    // The bound is meaningful: the volume alone is larger than it.
    EXPECT_GT(volumeKiB, budgetKiB + overheadKiB);
    // And the result is that of an unbounded run.
    ASSERT_EQ(runMeasured(recon(sino, path("whole.raw"), {"--memory-budget", "4096"})).code, 0);
    EXPECT_EQ(fileBytes(path("slab.raw")), fileBytes(path("whole.raw")));
}

// Issue 29: the budget holds on every algorithm the front door serves. Iterative methods solve
// as many slices at a time as the budget holds (MemoryModel.h); the peak of a 40-slice run with
// a budget for a few slices stays within that budget plus the peak of a one-slice run of the
// same job (the fixed overhead, one slice's solve and, for MemXCT and MBIR, the system matrix
// included), although the whole stack in one solve needs several times more.
TEST_F(SlabStream, IterativePeakMemoryStaysWithinTheBudgetPlusAOneSliceRun) {
    const std::string tiny = path("tiny.raw");
    std::filesystem::rename(phantom(1, 90, 112), tiny);
    const std::string tinyShape = shape, sino = phantom(40, 90, 112);
    for (const std::string algorithm :
         {"sirt", "os-sirt", "sart", "cgls", "tv", "memxct", "mbir"}) {
        const std::vector<std::string> args{"--algo", algorithm, "--iterations", "2"};
        std::vector<std::string> one = recon(tiny, path("one.raw"), args);
        one[3] = tinyShape;  // --shape of the one-slice input
        // The one-slice peak is the largest of three runs: a run whose worker threads happen
        // not to allocate (so glibc makes them no arenas) peaks up to 5 MiB lower (SART: 91908
        // KiB once under a loaded full ctest run, 96472-96836 KiB otherwise), and the budget is
        // about the overhead the process has, not its luckiest run.
        Measured base = runMeasured(one);
        ASSERT_EQ(base.code, 0) << algorithm;
        for (int again = 0; again < 2; ++again) {
            const Measured next = runMeasured(one);
            ASSERT_EQ(next.code, 0) << algorithm;
            base.peakKiB = std::max(base.peakKiB, next.peakKiB);
        }
        std::vector<std::string> all = args;
        all.insert(all.end(), {"--memory-budget", "4"});
        const Measured budget = runMeasured(recon(sino, path("budget.raw"), all));
        ASSERT_EQ(budget.code, 0) << algorithm;
        const Measured whole = runMeasured(recon(sino, path("whole.raw"), args));
        ASSERT_EQ(whole.code, 0) << algorithm;
        // The peak resident set of one and the same run varies by about +-0.5 MiB (measured
        // 93980-94756 KiB for SIRT's one-slice run on the 2-core machine under load: thread
        // arenas, the timing of page touches); a fixed 1 MiB slack keeps that noise from
        // deciding the test (SIRT's margin below the bound was 0.7 MiB and failed once under
        // a loaded full ctest run). One solve of the whole stack is still 15+ MiB above.
        const long slackKiB = 1024;
        const long boundKiB = 4 * 1024 + base.peakKiB + slackKiB;
        std::printf(
            "%s: peak RSS one slice %ld KiB, 40 slices within 4 MiB %ld KiB (bound %ld), "
            "40 slices in one solve %ld KiB\n",
            algorithm.c_str(), base.peakKiB, budget.peakKiB, boundKiB, whole.peakKiB);
        EXPECT_LE(budget.peakKiB, boundKiB) << algorithm;
        // The bound is meaningful: one solve of the whole stack exceeds it (not for MemXCT,
        // whose system matrix, paid once per solve, dominates its memory).
        if (algorithm != "memxct") {
            EXPECT_GT(whole.peakKiB, boundKiB) << algorithm;
        }
    }
}

}  // namespace
}  // namespace tomo::test
