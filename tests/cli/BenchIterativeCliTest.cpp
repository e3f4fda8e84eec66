// End-to-end tests of `tomo bench --suite sirt|ordering --backend ...`
// (app/cli/BenchIterative.cpp): the JSON rows of a device run name their backend and device and
// hold positive times whose derived rates agree with them, a device run its timeline; a backend
// without a device, or an unknown one, is a one-line error. Speeds are never asserted (benchmarks
// measure them).
#include <gtest/gtest.h>

#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "CliTestSupport.h"

namespace tomo {
namespace {

using test::CliRun;
using Row = std::map<std::string, std::string>;  ///< key -> value text (strings unquoted)

class BenchIterativeCli : public test::CliTest {
  protected:
    static CliRun tomo(const std::string& args) { return test::runTomo(args); }

    /// The rows of the JSON array in @p output: one object per line, flat "key": value pairs.
    static std::vector<Row> jsonRows(const std::string& output) {
        static const std::regex kPair("\"([a-z_]+)\": (\"([^\"]*)\"|[^,}]+)");
        std::vector<Row> rows;
        std::istringstream lines(output);
        for (std::string line; std::getline(lines, line);) {
            if (line.rfind("  {", 0) != 0) continue;
            Row row;
            for (auto it = std::sregex_iterator(line.begin(), line.end(), kPair);
                 it != std::sregex_iterator(); ++it)
                row[(*it)[1]] = (*it)[3].matched ? (*it)[3].str() : (*it)[2].str();
            rows.push_back(row);
        }
        return rows;
    }

    /// True (and a note) when @p r failed because @p backend cannot run in this build or here.
    static bool unavailable(const CliRun& r, const std::string& backend) {
        if (r.code == 0 || (r.output.find("not compiled into this build") == std::string::npos &&
                            r.output.find("no usable device") == std::string::npos))
            return false;
        std::printf("[ note ] %s unavailable: %s", backend.c_str(), r.output.c_str());
        return true;
    }
};

TEST_F(BenchIterativeCli, SirtRowsNameTheBackendAndHoldPositiveTimes) {
    for (const std::string backend : {"cpu", "opencl"}) {
        CliRun r = tomo("bench --suite sirt --quick --threads 1 --backend " + backend + " --json");
        if (backend != "cpu" && unavailable(r, backend)) continue;
        ASSERT_EQ(r.code, 0) << r.output;
        const std::vector<Row> rows = jsonRows(r.output);
        ASSERT_EQ(rows.size(), 1u) << r.output;  // --quick: one 64^2 x 32 problem
        Row row = rows[0];
        EXPECT_EQ(row["suite"], "sirt");
        EXPECT_EQ(row["backend"], backend);
        EXPECT_FALSE(row["device"].empty()) << r.output;
        EXPECT_EQ(row["size"], "64");
        EXPECT_EQ(row["angles"], "32");
        for (const char* key : {"iteration_seconds", "forward_seconds", "back_seconds"})
            EXPECT_GT(std::stod(row[key]), 0.0) << key << "\n" << r.output;
        if (backend == "cpu") {
            EXPECT_EQ(row.count("timeline"), 0u) << r.output;
            continue;
        }
        // The device pair runs on core's pipeline: the timeline of its timed projections.
        ASSERT_EQ(row.count("kernels"), 1u) << r.output;
        EXPECT_GT(std::stod(row["kernels"]), 0.0) << r.output;
        EXPECT_GT(std::stod(row["efficiency"]), 0.0) << r.output;
        // 2 x --repeat 3 calls, each uploading and downloading 64^2 or 32 x 64 floats.
        EXPECT_EQ(row["upload_bytes"], std::to_string(3 * (64 * 64 + 32 * 64) * 4)) << r.output;
        EXPECT_EQ(row["download_bytes"], row["upload_bytes"]) << r.output;
    }
}

TEST_F(BenchIterativeCli, OpenClOrderingRowsCoverTheFourOrderings) {
    CliRun r = tomo("bench --suite ordering --quick --repeat 1 --backend opencl --json");
    if (unavailable(r, "opencl")) GTEST_SKIP() << "no OpenCL platform";
    ASSERT_EQ(r.code, 0) << r.output;
    const std::vector<Row> rows = jsonRows(r.output);
    ASSERT_EQ(rows.size(), 4u) << r.output;
    const char* orderings[] = {"unordered", "strips", "strips-consecutive", "segments"};
    for (std::size_t i = 0; i < rows.size(); ++i) {
        Row row = rows[i];
        EXPECT_EQ(row["backend"], "opencl");
        EXPECT_EQ(row["ordering"], orderings[i]);
        const double seconds = std::stod(row["forward_seconds"]);
        ASSERT_GT(seconds, 0.0) << r.output;
        // rays/s = angles x detectors / time (both printed to 6 significant digits).
        EXPECT_NEAR(std::stod(row["rays_per_second"]) / (32.0 * 64.0 / seconds), 1.0, 1e-4);
    }
}

TEST_F(BenchIterativeCli, CudaWithoutADeviceIsAOneLineError) {
    CliRun r = tomo("bench --suite sirt --quick --backend cuda --json");
    if (r.code == 0) GTEST_SKIP() << "a CUDA device is present";
    expectOneLineError(r, "--backend cuda: ");
    EXPECT_TRUE(unavailable(r, "cuda")) << r.output;
    EXPECT_EQ(r.code, 6) << r.output;  // kExitUnsupported, as other unsupported backends
    CliRun ordering = tomo("bench --suite ordering --quick --backend cuda");
    expectOneLineError(ordering, "--backend cuda: ");
}

TEST_F(BenchIterativeCli, UnknownBackendIsAnInvalidArgument) {
    CliRun r = tomo("bench --suite sirt --quick --backend nonsense");
    expectOneLineError(r, "--backend nonsense: expected cpu, opencl or cuda");
    EXPECT_EQ(r.code, 2);  // kExitUsage
}

}  // namespace
}  // namespace tomo
