// The one front door (app/recon/ReconService.h) seen from both front ends: the same request
// made with `tomo recon` and through the GUI session (File > Open, then Reconstruct) gives the
// same bits, for FBP, gridrec and CGLS, on every backend with a device; and the GUI's iterative
// job on a device backend runs that device's operator pair.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

#include <QSignalSpy>
#include <QTemporaryDir>

#include "app/jobs/DemoJob.h"
#include "core/io/ImageIO.h"
#include "tests/gpu/GpuTestSupport.h"
#include "tests/ui/UiTestSupport.h"

namespace tomo::ui::test {
namespace {

constexpr int kSize = 40;  // demo image; detectors and angles follow (demoSpecForSize)
constexpr int kSlices = 3;

/// Runs `tomo ARGS`; the exit code, output on failure in @p output.
int runTomo(const std::string& args, std::string& output) {
    const std::string command = std::string(TOMO_CLI_EXE) + " " + args + " 2>&1";
    FILE* pipe = ::popen(command.c_str(), "r");
    if (!pipe) return -1;
    char buffer[4096];
    output.clear();
    for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;)
        output.append(buffer, n);
    const int status = ::pclose(pipe);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

std::vector<float> readFloats(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::vector<char> bytes((std::istreambuf_iterator<char>(in)), {});
    std::vector<float> v(bytes.size() / sizeof(float));
    std::memcpy(v.data(), bytes.data(), v.size() * sizeof(float));
    return v;
}

std::vector<float> volumeFloats(const Volume& v) {
    std::vector<float> out;
    for (std::size_t z = 0; z < v.dim(0); ++z)
        for (std::size_t y = 0; y < v.dim(1); ++y)
            out.insert(out.end(), v.row(z, y).begin(), v.row(z, y).end());
    return out;
}

/// A session window, the demo sinogram written as a 3-slice raw stack (slice k scaled by
/// 1 + k/4) and opened through the GUI's File > Open job, as a user would.
class FrontDoor : public ::testing::TestWithParam<std::string> {
  protected:
    void SetUp() override {
        const std::string backend = GetParam();
        if (backend != "cpu" && f.session.registry().list(backend).empty())
            TOMO_DEVICE_SKIP(backend << ": no device in this build or machine");
        auto demo = app::makeDemoDataset(app::demoSpecForSize(kSize), ExecContext{});
        ASSERT_TRUE(demo.isOk()) << demo.status().toString();
        angles = demo->sinograms.dim(1);
        detectors = demo->sinograms.dim(2);
        auto stack = Sinograms::create(kSlices, angles, detectors);
        ASSERT_TRUE(stack.isOk());
        for (std::size_t k = 0; k < kSlices; ++k)
            for (std::size_t a = 0; a < angles; ++a)
                for (std::size_t d = 0; d < detectors; ++d)
                    (*stack)(k, a, d) = demo->sinograms(0, a, d) * (1.0f + 0.25f * float(k));
        input = dir.filePath(QStringLiteral("sino.raw")).toStdString();
        ASSERT_TRUE(writeVolume(input, *stack).isOk());

        app::LoadRequest request;
        request.path = input;
        request.shape = std::array<std::size_t, 3>{kSlices, angles, detectors};
        QSignalSpy finished(&f.session, &Session::jobFinished);
        ASSERT_TRUE(f.session.startLoadFile(request, QStringLiteral("sino.raw")));
        ASSERT_TRUE(waitFor(finished, 1, 60000));
        ASSERT_TRUE(finished.at(0).at(1).toBool()) << finished.at(0).at(2).toString().toStdString();
    }

    /// `tomo recon` on the same file with @p args; the output's floats.
    std::vector<float> cli(const std::string& args) {
        const std::string out = dir.filePath(QStringLiteral("cli.raw")).toStdString();
        std::string output;
        const int code = runTomo("recon " + input + " --shape " + std::to_string(angles) + "x" +
                                     std::to_string(detectors) + "x" + std::to_string(kSlices) +
                                     " --angles 0:180:" + std::to_string(angles) + " -o " + out +
                                     " --quiet " + args,
                                 output);
        EXPECT_EQ(code, 0) << output;
        return readFloats(out);
    }

    /// Waits for the session's running job; its image's floats.
    std::vector<float> gui(QSignalSpy& finished) {
        EXPECT_TRUE(waitFor(finished, 1, 120000));
        EXPECT_TRUE(finished.at(0).at(1).toBool()) << finished.at(0).at(2).toString().toStdString();
        auto recon = f.session.reconstruction();
        return recon ? volumeFloats(recon->image) : std::vector<float>{};
    }

    /// A variant of the backend (the first registered, linear interpolation).
    std::string variantOf(const std::string& backend) const {
        if (backend == "cpu") return "cpu.simd.lin";
        for (const BackProjectorInfo& info : f.session.registry().list(backend))
            if (info.interpolation == Interpolation::Linear && info.exact) return info.id;
        return {};
    }

    QTemporaryDir dir;
    WindowFixture f;
    std::string input;
    std::size_t angles = 0, detectors = 0;
};

TEST_P(FrontDoor, FbpThroughTheCliAndTheGuiIsBitIdentical) {
    const std::string variant = variantOf(GetParam());
    ASSERT_FALSE(variant.empty());
    FbpOptions options;
    options.filter.window = FilterWindow::Hann;
    QSignalSpy finished(&f.session, &Session::jobFinished);
    ASSERT_TRUE(f.session.startReconstruct(options, variant));
    const std::vector<float> fromGui = gui(finished);
    const std::vector<float> fromCli = cli("--variant " + variant + " --filter hann");
    ASSERT_EQ(fromGui.size(), std::size_t(kSlices) * detectors * detectors);
    EXPECT_TRUE(fromGui == fromCli) << variant;
    EXPECT_EQ(f.session.reconstruction()->variant, variant);
}

TEST_P(FrontDoor, GridrecThroughTheCliAndTheGuiIsBitIdentical) {
    // Gridrec on the backend (OpenCL has none: both fall back to the CPU's, with a note).
    const std::string backend = GetParam();
    FbpOptions options;
    options.filter.window = FilterWindow::Hann;
    const app::AnalyticMethod method{"gridrec", {{"filter", "hann"}}, backend};
    QSignalSpy finished(&f.session, &Session::jobFinished);
    ASSERT_TRUE(f.session.startReconstruct(options, "", method));
    const std::vector<float> fromGui = gui(finished);
    const std::vector<float> fromCli = cli("--algo gridrec --filter hann --backend " + backend);
    ASSERT_EQ(fromGui.size(), std::size_t(kSlices) * detectors * detectors);
    EXPECT_TRUE(fromGui == fromCli) << backend;
    EXPECT_EQ(f.session.reconstruction()->algorithm, "gridrec");
}

TEST_P(FrontDoor, ARegionOfInterestThroughTheCliAndTheGuiIsBitIdentical) {
    // The Region and sampling box and `tomo recon --size --pixel-size --roi-center` make one
    // grid (app/recon/ReconGrid.h).
    const std::string variant = variantOf(GetParam());
    ASSERT_FALSE(variant.empty());
    app::Sampling sampling;
    sampling.grid.size = 24;
    sampling.grid.pixelSize = 0.5;
    sampling.grid.centerX = 6;
    sampling.grid.centerY = -3.5;
    ASSERT_TRUE(f.session.setSampling(sampling).isOk());
    QSignalSpy finished(&f.session, &Session::jobFinished);
    ASSERT_TRUE(f.session.startReconstruct(FbpOptions{}, variant));
    const std::vector<float> fromGui = gui(finished);
    const std::vector<float> fromCli =
        cli("--variant " + variant + " --size 24 --pixel-size 0.5 --roi-center 6,-3.5");
    ASSERT_EQ(fromGui.size(), std::size_t(kSlices) * 24 * 24);
    EXPECT_TRUE(fromGui == fromCli) << variant;
}

TEST_P(FrontDoor, CglsThroughTheCliAndTheGuiIsBitIdentical) {
    const std::string backend = GetParam();
    app::IterativeJobSpec spec;
    spec.algorithm = "cgls";
    spec.parameters = {{"iterations", "6"}};
    spec.backend = backend;
    QSignalSpy finished(&f.session, &Session::jobFinished);
    ASSERT_TRUE(f.session.startIterative(spec));
    const std::vector<float> fromGui = gui(finished);
    const std::vector<float> fromCli = cli("--algo cgls --iterations 6 --backend " + backend);
    ASSERT_EQ(fromGui.size(), std::size_t(kSlices) * detectors * detectors);
    EXPECT_TRUE(fromGui == fromCli);
    // CGLS needs the exactly matched pair: the CPU ran, and the session says why.
    EXPECT_EQ(f.session.lastIterativeRun().backend, "cpu");
    EXPECT_FALSE(f.session.lastIterativeRun().deviceOperator);
    if (backend != "cpu") {
        EXPECT_FALSE(f.session.lastIterativeRun().notes.empty());
    }
}

TEST_P(FrontDoor, GuiIterativeOnADeviceBackendRunsItsOperatorPair) {
    const std::string backend = GetParam();
    app::IterativeJobSpec spec;
    spec.algorithm = "sirt";
    spec.parameters = {{"iterations", "4"}};
    spec.backend = backend;
    QSignalSpy finished(&f.session, &Session::jobFinished);
    ASSERT_TRUE(f.session.startIterative(spec));
    const std::vector<float> fromGui = gui(finished);
    EXPECT_EQ(f.session.lastIterativeRun().backend, backend);
    EXPECT_EQ(f.session.lastIterativeRun().deviceOperator, backend != "cpu");
    // And the CLI's SIRT on that backend is the same computation.
    EXPECT_TRUE(fromGui == cli("--algo sirt --iterations 4 --backend " + backend));
}

// MBIR from the GUI on a device backend runs GPU-ICD (core/mbir/GpuIcd.h), the stack as one
// problem with its slices coupled by the prior, and says so; on the CPU, PSV-ICD. GPU-ICD's device
// scheduling is not bit-reproducible, so the image is checked against the CLI's within a tolerance,
// not for the same bits.
TEST_P(FrontDoor, GuiMbirOnADeviceBackendRunsGpuIcd) {
    const std::string backend = GetParam();
    app::IterativeJobSpec spec;
    spec.algorithm = "mbir";
    spec.parameters = {{"iterations", "20"},
                       {"stop_threshold", "0"},
                       {"gpu_sv_side", "12"},
                       {"gpu_blocks", "4"},
                       {"gpu_threads", "64"}};
    spec.backend = backend;
    QSignalSpy finished(&f.session, &Session::jobFinished);
    ASSERT_TRUE(f.session.startIterative(spec));
    const std::vector<float> fromGui = gui(finished);
    EXPECT_EQ(f.session.lastIterativeRun().backend, backend);
    bool gpuIcd = false, coupled = false;
    for (const std::string& note : f.session.lastIterativeRun().notes) {
        gpuIcd = gpuIcd || note.find("GPU-ICD on") != std::string::npos;
        coupled = coupled || note.find(std::to_string(kSlices) + " slices coupled by the prior") !=
                                 std::string::npos;
    }
    EXPECT_EQ(gpuIcd, backend != "cpu");
    EXPECT_EQ(coupled, backend != "cpu");
    const std::vector<float> fromCli =
        cli("--algo mbir --iterations 20 --param stop_threshold=0,gpu_sv_side=12,gpu_blocks=4,"
            "gpu_threads=64 --backend " +
            backend);
    ASSERT_EQ(fromGui.size(), fromCli.size());
    double diff = 0, norm = 0;
    for (std::size_t i = 0; i < fromGui.size(); ++i) {
        diff += (double(fromGui[i]) - fromCli[i]) * (double(fromGui[i]) - fromCli[i]);
        norm += double(fromCli[i]) * fromCli[i];
    }
    EXPECT_LT(std::sqrt(diff / norm), backend == "cpu" ? 1e-12 : 1e-2);
}

TEST_P(FrontDoor, OneDeviceContextServesTheBackProjectorsAndTheOperators) {
    const std::string backend = GetParam();
    const app::Engine& engine = f.session.engine();
    auto contextOf = [&]() -> std::optional<app::OpenDevice> {
        for (const app::OpenDevice& d : engine.openDevices())
            if (d.backend == backend) return d;
        return std::nullopt;
    };
    if (backend == "cpu") {
        EXPECT_FALSE(contextOf());  // the CPU holds no device context
        return;
    }
    std::size_t contexts = 0;
    for (const app::OpenDevice& d : engine.openDevices())
        contexts += d.backend == backend ? 1 : 0;
    EXPECT_EQ(contexts, 1u);
    const long before = contextOf()->users;
    EXPECT_GT(before, 0);  // the registry's variants hold it
    // An iterative operator made on this backend runs on that same context.
    auto spec = findAlgorithm("sirt");
    ASSERT_TRUE(spec.isOk());
    auto params = ParameterValues::resolve(*spec, {});
    ASSERT_TRUE(params.isOk());
    auto dataset = f.session.dataset();
    auto op = engine.operatorFactory(backend)(dataset->geometry, dataset->grid, *params);
    ASSERT_TRUE(op.isOk()) << op.status().toString();
    EXPECT_EQ(contextOf()->users, before + 1);
    op->reset();
    EXPECT_EQ(contextOf()->users, before);
    // So does a back-projector of the registry.
    auto bp = engine.registry().make(variantOf(backend));
    ASSERT_TRUE(bp.isOk());
    EXPECT_EQ(contextOf()->users, before + 1);
}

INSTANTIATE_TEST_SUITE_P(Backends, FrontDoor, ::testing::Values("cpu", "opencl", "cuda"),
                         [](const auto& p) { return p.param; });

}  // namespace
}  // namespace tomo::ui::test
