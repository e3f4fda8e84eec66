// End-to-end tests of `tomo recon --algo ...` (iterative): progress lines, the L-curve file with
// its corner, results checked against the phantom independently of the CLI's own numbers,
// one-line errors for bad parameters, chunked solves and Ctrl-C (SIGTERM) as StopAndKeep.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "CliTestSupport.h"
#include "core/io/ImageIO.h"
#include "core/metrics/Metrics.h"

namespace tomo {
namespace {
namespace fs = std::filesystem;

using test::CliRun;

constexpr int kSize = 48;
constexpr int kAngles = 40;
constexpr int kDetectors = 69;

class IterativeCli : public test::CliTest {
  protected:
    static CliRun tomo(const std::string& args) { return test::runTomo(args); }

    /// A noisy Shepp-Logan stack of @p slices slices and its ground truth.
    void makePhantom(int slices = 1) {
        CliRun p = tomo("phantom -o " + path("sino.raw") + " --truth " + path("truth.raw") +
                        " --size " + std::to_string(kSize) +
                        " --angles 0:180:" + std::to_string(kAngles) + " --detectors " +
                        std::to_string(kDetectors) + " --slices " + std::to_string(slices) +
                        " --noise 1000 --attenuation-scale 0.05 --quiet --threads 1");
        ASSERT_EQ(p.code, 0) << p.output;
        m_slices = slices;
    }

    /// `tomo recon` on the phantom with @p extra arguments, output rec.raw.
    CliRun recon(const std::string& extra) const {
        const std::string s = std::to_string(m_slices);
        return tomo("recon " + path("sino.raw") + " --shape " + std::to_string(kAngles) + "x" +
                    std::to_string(kDetectors) + "x" + s +
                    " --angles 0:180:" + std::to_string(kAngles) + " --size " +
                    std::to_string(kSize) + " -o " + path("rec.raw") + " --threads 1 " + extra);
    }

    std::string truthArgs() const {
        return " --reference " + path("truth.raw") + " --truth-shape " + std::to_string(kSize) +
               "x" + std::to_string(kSize) + "x" + std::to_string(m_slices);
    }

    /// RMSE of rec.raw against the truth over all slices, and of the zero image.
    std::pair<double, double> errors() const {
        const std::size_t n = std::size_t(m_slices);
        auto rec = readRawFloat32(path("rec.raw"), {n, kSize, kSize});
        auto truth = readRawFloat32(path("truth.raw"), {n, kSize, kSize});
        EXPECT_TRUE(rec.isOk() && truth.isOk());
        if (!rec.isOk() || !truth.isOk()) return {1e30, 0};
        double e = 0, z = 0;
        for (std::size_t s = 0; s < n; ++s)
            for (std::size_t y = 0; y < std::size_t(kSize); ++y)
                for (std::size_t x = 0; x < std::size_t(kSize); ++x) {
                    const double t = (*truth)(s, y, x), d = (*rec)(s, y, x) - t;
                    e += d * d;
                    z += t * t;
                }
        const double count = double(n) * kSize * kSize;
        return {std::sqrt(e / count), std::sqrt(z / count)};
    }

    static int countLines(const std::string& text, const std::string& needle) {
        int n = 0;
        std::istringstream in(text);
        for (std::string line; std::getline(in, line);)
            n += line.find(needle) != std::string::npos;
        return n;
    }

    /// The rows of a CSV file after its header, split on commas (empty fields kept).
    static std::vector<std::vector<std::string>> csvRows(const std::string& file,
                                                         std::string* header) {
        std::ifstream in(file);
        std::getline(in, *header);
        std::vector<std::vector<std::string>> rows;
        for (std::string line; std::getline(in, line);) {
            std::vector<std::string> fields;
            std::size_t start = 0;
            for (std::size_t comma; (comma = line.find(',', start)) != std::string::npos;
                 start = comma + 1)
                fields.push_back(line.substr(start, comma - start));
            fields.push_back(line.substr(start));
            rows.push_back(fields);
        }
        return rows;
    }

    int m_slices = 1;
};

TEST_F(IterativeCli, CglsWritesProgressAndLCurveWithCorner) {
    makePhantom();
    CliRun r =
        recon("--algo cgls --iterations 40 --stop none --lcurve " + path("l.csv") + truthArgs());
    ASSERT_EQ(r.code, 0) << r.output;
    EXPECT_EQ(countLines(r.output, "cgls iteration "), 40) << r.output;
    EXPECT_NE(r.output.find("cgls iteration 40/40: residual "), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("L-curve: corner at iteration"), std::string::npos) << r.output;

    std::string header;
    const auto rows = csvRows(path("l.csv"), &header);
    EXPECT_EQ(header, "parameter,residual_norm,solution_norm,error,corner");
    ASSERT_EQ(rows.size(), 40u);
    int corners = 0;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        ASSERT_EQ(rows[i].size(), 5u);
        EXPECT_EQ(std::stod(rows[i][0]), double(i + 1));
        corners += rows[i][4] == "1";
        if (i > 0) {  // CGLS: the residual never grows
            EXPECT_LE(std::stod(rows[i][1]), std::stod(rows[i - 1][1]) * (1 + 1e-6));
        }
    }
    EXPECT_EQ(corners, 1);

    // Independently of the CLI: the result beats the zero image, and the last error in the
    // L-curve is that of the written image.
    // The best iterate beats it by far (40 iterations over-fit this noise).
    const auto [error, zero] = errors();
    double lowest = zero;
    for (const auto& row : rows)
        lowest = std::min(lowest, std::stod(row[3]));
    EXPECT_LT(lowest, 0.6 * zero);
    EXPECT_NEAR(std::stod(rows.back()[3]), error, 1e-4 * zero);
}

TEST_F(IterativeCli, BadParametersGiveOneLineErrors) {
    makePhantom();
    CliRun r = recon("--algo sirt --param relaxation=5");
    expectOneLineError(r, "relaxation");
    EXPECT_EQ(r.code, 2);
    r = recon("--algo sirt --param lambda=1");
    expectOneLineError(r, "unknown parameter 'lambda'");
    EXPECT_EQ(r.code, 2);
    r = recon("--algo cgls --param iterations");
    expectOneLineError(r, "NAME=VALUE");
    r = recon("--algo magic");
    expectOneLineError(r, "unknown algorithm 'magic'");
    EXPECT_EQ(r.code, 2);
    r = recon("--algo cgls --iterations 0");
    expectOneLineError(r, "iterations");
    r = recon("--algo cgls --lcurve " + path("l.txt"));
    expectOneLineError(r, ".csv or .json");
    r = recon("--algo fbp --iterations 3");
    expectOneLineError(r, "--iterations");
    expectOnly({"sino.raw", "truth.raw"});
}

// --stop corner: the run goes past the L-curve corner (or, without one, past the discrepancy
// principle's iterate), says which iteration it returns and why, marks it in the L-curve file,
// and the image written is that iteration's (a run of exactly that many iterations gives the
// same image). On this 40-view case the corner (a gradual turn) comes after the discrepancy
// principle's iterate, which the rule keeps.
TEST_F(IterativeCli, StopCornerReportsTheIterationItKeeps) {
    makePhantom();
    CliRun r =
        recon("--algo cgls --iterations 40 --stop corner --lcurve " + path("l.csv") + truthArgs());
    ASSERT_EQ(r.code, 0) << r.output;
    EXPECT_NE(r.output.find("(stopping-rule)"), std::string::npos) << r.output;
    const std::string marker = "stopping rule corner: result is iteration ";
    const std::size_t at = r.output.find(marker);
    ASSERT_NE(at, std::string::npos) << r.output;
    const int kept = std::stoi(r.output.substr(at + marker.size()));
    const int ran = countLines(r.output, "cgls iteration ");
    EXPECT_GE(ran - kept, 5) << r.output;  // stop-patience iterations past the corner
    std::string header;
    const auto rows = csvRows(path("l.csv"), &header);
    EXPECT_EQ(header, "parameter,residual_norm,solution_norm,error,corner,kept");
    ASSERT_EQ(rows.size(), std::size_t(ran));
    int corner = 0;
    for (const auto& row : rows) {
        ASSERT_EQ(row.size(), 6u);
        EXPECT_EQ(row[5], std::stoi(row[0]) == kept ? "1" : "0") << row[0];
        if (row[4] == "1") corner = std::stoi(row[0]);
    }
    // The kept iteration is the corner, the earlier discrepancy one, or without a corner (none
    // by half as many iterations again) the discrepancy one.
    const std::string why = corner == 0     ? "fell back to the discrepancy principle: iteration "
                            : corner > kept ? "discrepancy principle's iteration "
                                            : "L-curve corner at iteration ";
    EXPECT_TRUE(corner == 0 || corner >= kept) << corner << " " << kept;
    EXPECT_NE(r.output.find(why + std::to_string(kept)), std::string::npos) << r.output;
    auto stopped = readRawFloat32(path("rec.raw"), {1, kSize, kSize});
    ASSERT_TRUE(stopped.isOk());
    r = recon("--algo cgls --stop none --iterations " + std::to_string(kept));
    ASSERT_EQ(r.code, 0) << r.output;
    auto exact = readRawFloat32(path("rec.raw"), {1, kSize, kSize});
    ASSERT_TRUE(exact.isOk());
    double worst = 0;
    for (std::size_t y = 0; y < std::size_t(kSize); ++y)
        for (std::size_t x = 0; x < std::size_t(kSize); ++x)
            worst = std::max(worst, double(std::abs((*stopped)(0, y, x) - (*exact)(0, y, x))));
    EXPECT_LE(worst, 1e-6);

    // TV and MBIR have no corner: asking says why, and --lcurve marks none and says why.
    r = recon("--algo tv --stop corner");
    EXPECT_EQ(r.code, 2) << r.output;
    EXPECT_NE(r.output.find("no L-curve corner for TV"), std::string::npos) << r.output;
    r = recon("--algo tv --iterations 12 --lcurve " + path("tv.csv"));
    ASSERT_EQ(r.code, 0) << r.output;
    EXPECT_NE(r.output.find("L-curve: 12 point(s) -> " + path("tv.csv") +
                            "; no L-curve corner for TV: its iterations converge"),
              std::string::npos)
        << r.output;
    for (const auto& row : csvRows(path("tv.csv"), &header))
        EXPECT_EQ(row[4], "0");

    r = recon("--algo fbp --stop corner");
    EXPECT_EQ(r.code, 2) << r.output;
    EXPECT_NE(r.output.find("--stop applies to iterative algorithms"), std::string::npos)
        << r.output;
    r = recon("--algo cgls --stop soon");
    EXPECT_EQ(r.code, 2) << r.output;
    EXPECT_NE(r.output.find("parameter 'stop'"), std::string::npos) << r.output;
}

TEST_F(IterativeCli, EveryAlgorithmRunsTwoIterations) {
    makePhantom();
    for (const char* algo : {"sirt", "os-sirt", "sart", "cgls", "tv", "memxct", "mbir"}) {
        // MBIR has its own stopping rules (docs/mbir.md), not the common --stop.
        const std::string stop = std::string(algo) == "mbir" ? "" : " --stop none";
        CliRun r = recon(std::string("--algo ") + algo + " --iterations 2" + stop + " --lcurve " +
                         path("l.json") + truthArgs());
        ASSERT_EQ(r.code, 0) << algo << "\n" << r.output;
        EXPECT_EQ(countLines(r.output, std::string(algo) + " iteration "), 2) << r.output;
        EXPECT_NE(r.output.find("2 iteration(s)"), std::string::npos) << r.output;
        // Two points give no corner; the file is still written.
        std::ifstream in(path("l.json"));
        std::stringstream json;
        json << in.rdbuf();
        EXPECT_NE(json.str().find("\"corner\": null"), std::string::npos) << json.str();
        const auto [error, zero] = errors();
        EXPECT_LT(error, zero) << algo;
    }
}

// --backend opencl|cuda runs the SIRT family on the device's locality pair (the same source
// for both; a backend without a device falls back to the CPU with a note, and the test skips).
TEST_F(IterativeCli, DeviceBackendsGiveTheCpuSirtResult) {
    makePhantom(2);
    CliRun cpu = recon("--algo os-sirt --iterations 4 --param subsets=4 --backend cpu");
    ASSERT_EQ(cpu.code, 0) << cpu.output;
    auto expected = readRawFloat32(path("rec.raw"), {2, kSize, kSize});
    ASSERT_TRUE(expected.isOk());
    for (const char* backend : {"opencl", "cuda"}) {
        CliRun r = recon(std::string("--algo os-sirt --iterations 4 --param subsets=4 --backend ") +
                         backend);
        if (r.code != 0 && r.output.find("not compiled") != std::string::npos) continue;
        ASSERT_EQ(r.code, 0) << backend << "\n" << r.output;
        if (r.output.find("runs on the CPU") != std::string::npos) {
            std::printf("[ note ] %s: no device, ran on the CPU\n", backend);
            continue;
        }
        auto got = readRawFloat32(path("rec.raw"), {2, kSize, kSize});
        ASSERT_TRUE(got.isOk());
        double maxDiff = 0, maxValue = 0;
        for (std::size_t z = 0; z < 2; ++z)
            for (std::size_t y = 0; y < std::size_t(kSize); ++y)
                for (std::size_t x = 0; x < std::size_t(kSize); ++x) {
                    const double e = (*expected)(z, y, x);
                    maxDiff = std::max(maxDiff, std::abs((*got)(z, y, x) - e));
                    maxValue = std::max(maxValue, std::abs(e));
                }
        EXPECT_LT(maxDiff, 1e-4 * maxValue) << backend;
    }
    // Methods that need a matched pair say so and still run.
    CliRun cgls = recon("--algo cgls --iterations 2 --backend opencl");
    if (cgls.code == 0) {
        EXPECT_NE(cgls.output.find("matched projector pair"), std::string::npos) << cgls.output;
    }
}

TEST_F(IterativeCli, ChunkedSolvesCombineTheLCurve) {
    makePhantom(3);
    CliRun r =
        recon("--algo sirt --iterations 4 --chunk 2 --lcurve " + path("l.csv") + truthArgs());
    ASSERT_EQ(r.code, 0) << r.output;
    EXPECT_EQ(countLines(r.output, "chunk 1/2 sirt iteration "), 4) << r.output;
    EXPECT_EQ(countLines(r.output, "chunk 2/2 sirt iteration "), 4) << r.output;
    std::string header;
    const auto rows = csvRows(path("l.csv"), &header);
    ASSERT_EQ(rows.size(), 4u);
    // The combined error is the RMSE over all three slices of the written volume.
    const auto [error, zero] = errors();
    EXPECT_LT(error, zero);
    EXPECT_NEAR(std::stod(rows.back()[3]), error, 1e-4 * zero);
}

TEST_F(IterativeCli, InterruptKeepsTheCurrentIterate) {
    makePhantom();
    // SIGTERM (what InterruptToStop handles besides SIGINT; background jobs of a script ignore
    // SIGINT) once the first iteration has been reported; no stopping rule, so that only the
    // interrupt ends the run (SIRT's default rule would end it after some 40 iterations).
    const std::string log = path("log.txt");
    const std::string cmd =
        "sh -c '" + std::string(TOMO_CLI) + " recon " + path("sino.raw") + " --shape " +
        std::to_string(kAngles) + "x" + std::to_string(kDetectors) +
        " --angles 0:180:" + std::to_string(kAngles) + " --size " + std::to_string(kSize) + " -o " +
        path("rec.raw") + " --threads 1 --algo sirt --iterations 100000 --stop none >" + log +
        " 2>&1 & pid=$!; " + "until grep -q \"iteration 1/\" " + log +
        "; do sleep 0.02; done; kill -TERM $pid; " + "wait $pid'";
    const int status = std::system(cmd.c_str());
    std::ifstream in(log);
    std::stringstream text;
    text << in.rdbuf();
    ASSERT_EQ(WEXITSTATUS(status), 0) << text.str();
    EXPECT_NE(text.str().find("stopped by an interrupt after iteration"), std::string::npos)
        << text.str();
    EXPECT_LT(countLines(text.str(), "sirt iteration "), 100000);
    const auto [error, zero] = errors();
    EXPECT_LT(error, zero);
}

}  // namespace
}  // namespace tomo
