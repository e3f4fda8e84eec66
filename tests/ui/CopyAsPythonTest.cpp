// File > Copy as Python (issue 30): a GUI session opens a file, sets a sampling and a grid,
// reconstructs (FBP, SIRT); the script the action puts on the clipboard, run with the
// tomostation module of this build, writes the same bits.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>

#include <QAction>
#include <QClipboard>
#include <QGuiApplication>
#include <QMenu>
#include <QSignalSpy>
#include <QTemporaryDir>

#include "app/jobs/DemoJob.h"
#include "core/io/ImageIO.h"
#include "tests/ui/UiTestSupport.h"
#include "ui/main/CopyAsPython.h"

namespace tomo::ui::test {
namespace {

constexpr int kSize = 40;
constexpr int kSlices = 2;

class CopyAsPythonTest : public ::testing::Test {
  protected:
    void SetUp() override {
#ifndef TOMO_PYTHON_EXE
        GTEST_SKIP() << "this build has no Python module (python3-dev, pybind11-dev)";
#endif
        auto demo = app::makeDemoDataset(app::demoSpecForSize(kSize), ExecContext{});
        ASSERT_TRUE(demo.isOk());
        const std::size_t angles = demo->sinograms.dim(1), detectors = demo->sinograms.dim(2);
        auto stack = Sinograms::create(kSlices, angles, detectors);
        ASSERT_TRUE(stack.isOk());
        for (std::size_t k = 0; k < kSlices; ++k)
            for (std::size_t a = 0; a < angles; ++a)
                for (std::size_t d = 0; d < detectors; ++d)
                    (*stack)(k, a, d) = demo->sinograms(0, a, d) * (1.0f + 0.5f * float(k));
        const std::string input = dir.filePath(QStringLiteral("sino.tif")).toStdString();
        ASSERT_TRUE(writeVolume(input, *stack).isOk());
        app::LoadRequest request;
        request.path = input;
        request.endDegrees = 180.0;
        QSignalSpy finished(&f.session, &Session::jobFinished);
        ASSERT_TRUE(f.session.startLoadFile(request, QStringLiteral("sino.tif")));
        ASSERT_TRUE(waitFor(finished, 1, 60000));
        ASSERT_TRUE(finished.at(0).at(1).toBool());
        // Every second projection, a 32^2 region of 1.25 px off the axis.
        app::Sampling sampling;
        sampling.angleStep = 2;
        sampling.grid.size = 32;
        sampling.grid.pixelSize = 1.25;
        sampling.grid.centerX = 3.5;
        sampling.grid.centerY = -2.0;
        ASSERT_TRUE(f.session.setSampling(sampling).isOk());
    }

    /// Triggers File > Copy as Python, runs the clipboard's script in the temporary folder and
    /// returns its reconstruction.tif.
    Array3<float> runCopiedScript() {
        auto* action = f.window->findChild<QAction*>(QStringLiteral("copyAsPython"));
        EXPECT_TRUE(action && action->isEnabled());
        if (!action) return {};
        QGuiApplication::clipboard()->clear();
        action->trigger();
        const std::string script = QGuiApplication::clipboard()->text().toStdString();
        EXPECT_NE(script.find("import tomostation"), std::string::npos) << script;
        const std::string path = dir.filePath(QStringLiteral("copied.py")).toStdString();
        std::ofstream(path) << script;
        const std::string command = "cd '" + dir.path().toStdString() + "' && PYTHONPATH='" +
                                    TOMO_PYTHON_PATH + "' '" + TOMO_PYTHON_EXE + "' copied.py 2>&1";
        std::string output;
        FILE* pipe = ::popen(command.c_str(), "r");
        char buffer[4096];
        for (std::size_t n; pipe && (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;)
            output.append(buffer, n);
        EXPECT_EQ(pipe ? ::pclose(pipe) : -1, 0) << output << "\n" << script;
        auto image = readTiff(dir.filePath(QStringLiteral("reconstruction.tif")).toStdString());
        EXPECT_TRUE(image.isOk()) << output;
        return image.isOk() ? std::move(*image) : Array3<float>{};
    }

    void expectSameBits(const Array3<float>& fromScript) {
        const Volume& gui = f.session.reconstruction()->image;
        ASSERT_EQ(fromScript.dims(), gui.dims());
        std::size_t differ = 0;
        for (std::size_t z = 0; z < gui.dim(0); ++z)
            for (std::size_t y = 0; y < gui.dim(1); ++y)
                for (std::size_t x = 0; x < gui.dim(2); ++x)
                    differ += fromScript(z, y, x) != gui(z, y, x);
        EXPECT_EQ(differ, 0u);
    }

    QTemporaryDir dir;
    WindowFixture f;
};

TEST_F(CopyAsPythonTest, TheFbpScriptGivesTheGuisBits) {
    FbpOptions options;
    options.filter.window = FilterWindow::Hann;
    options.filter.cutoff = 0.8;
    QSignalSpy finished(&f.session, &Session::jobFinished);
    ASSERT_TRUE(f.session.startReconstruct(options, "cpu.simd.lin"));
    ASSERT_TRUE(waitFor(finished, 1, 60000));
    ASSERT_TRUE(finished.at(0).at(1).toBool());
    expectSameBits(runCopiedScript());
}

TEST_F(CopyAsPythonTest, TheSirtScriptGivesTheGuisBits) {
    app::IterativeJobSpec spec;
    spec.algorithm = "sirt";
    spec.parameters = {{"iterations", "6"}, {"relaxation", "0.8"}};
    spec.backend = "cpu";
    QSignalSpy finished(&f.session, &Session::jobFinished);
    ASSERT_TRUE(f.session.startIterative(spec));
    ASSERT_TRUE(waitFor(finished, 1, 60000));
    ASSERT_TRUE(finished.at(0).at(1).toBool());
    expectSameBits(runCopiedScript());
}

TEST(CopyAsPythonMessages, AGeneratedDemoSaysWhatToDo) {
    WindowFixture f;
    ASSERT_TRUE(f.startDemo(48));
    QMenu menu;
    CopyAsPython copy(f.session, &menu, f.window.get());
    auto script = copy.script();
    if (f.session.dataFolder().empty()) {
        ASSERT_FALSE(script.isOk());
        EXPECT_NE(script.status().message().find("save the dataset"), std::string::npos);
    } else {
        ASSERT_TRUE(script.isOk());  // the bundled demo folder is read by read_dataset
        EXPECT_NE(script->find("ts.read_dataset("), std::string::npos);
    }
}

}  // namespace
}  // namespace tomo::ui::test
