// The Region and sampling box through a saved session, as a user goes: open a sinogram stack,
// set the image size, pixel size, region centre and angle step, reconstruct, save the session,
// open it in a fresh window and reconstruct: the same widget values and the same bits. Sessions
// saved before the sampling was stored open with the defaults; a bad value is refused with a
// message naming the field. The two angle steps (Preprocessing's at load, this box's at
// reconstruction) multiply.
#include <gtest/gtest.h>

#include <fstream>
#include <optional>

#include <QDoubleSpinBox>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>

#include "app/jobs/DemoJob.h"
#include "core/geometry/ParallelGeometry.h"
#include "core/io/ImageIO.h"
#include "tests/ui/SameBits.h"
#include "tests/ui/SessionWaits.h"
#include "tests/ui/UiTestSupport.h"
#include "tests/ui/UserActions.h"
#include "ui/main/FileActions.h"
#include "ui/panels/PreprocessPanel.h"
#include "ui/session/SessionFile.h"
#include "ui/widgets/SamplingBox.h"

namespace tomo::ui::test {
namespace {

constexpr int kSize = 64;  // demo image: 90 angles, 96 detectors

/// The box's fields, in the order the user fills them.
struct Fields {
    QSpinBox* size;
    QDoubleSpinBox* pixel;
    QDoubleSpinBox* x;
    QDoubleSpinBox* y;
    QSpinBox* step;
    explicit Fields(const MainWindow& w)
        : Fields(child<SamplingBox>(&w, QStringLiteral("samplingBox"))) {}
    explicit Fields(const SamplingBox* box)
        : size(child<QSpinBox>(box, QStringLiteral("imageSize"))),
          pixel(child<QDoubleSpinBox>(box, QStringLiteral("pixelSize"))),
          x(child<QDoubleSpinBox>(box, QStringLiteral("regionCenterX"))),
          y(child<QDoubleSpinBox>(box, QStringLiteral("regionCenterY"))),
          step(child<QSpinBox>(box, QStringLiteral("angleStep"))) {}
};

class SessionSampling : public ::testing::Test {
  protected:
    void SetUp() override {
        auto made = app::makeDemoDataset(app::demoSpecForSize(kSize), ExecContext{});
        ASSERT_TRUE(made.isOk()) << made.status().toString();
        stack = f.dir.filePath(QStringLiteral("stack.raw")).toStdString();
        shape = made->sinograms.dims();
        ASSERT_TRUE(writeVolume(stack, made->sinograms).isOk());
    }
    void open(WindowFixture& w) {
        app::LoadRequest request;
        request.path = stack;
        request.shape = shape;
        runAndSettle(w.session,
                     [&] { ASSERT_TRUE(w.window->fileActions()->openDataFile(request)); });
    }
    std::filesystem::path sessionFile(const char* name) {
        return f.dir.filePath(QString::fromLatin1(name)).toStdString();
    }
    WindowFixture f;
    std::filesystem::path stack;
    std::array<std::size_t, 3> shape{};
};

TEST_F(SessionSampling, ASavedSessionReconstructsTheSameBitsWithTheSameFields) {
    open(f);
    const Fields in(*f.window);
    typeInto(in.size, QStringLiteral("48"));
    typeInto(in.pixel, QStringLiteral("1.5"));
    typeInto(in.x, QStringLiteral("4.5"));
    typeInto(in.y, QStringLiteral("-3.25"));
    typeInto(in.step, QStringLiteral("3"));
    // Apply reconstructs with them.
    runAndSettle(f.session, [&] {
        click(child<QPushButton>(f.window.get(), QStringLiteral("applySampling")));
    });
    ASSERT_TRUE(f.session.reconstruction());
    const Volume first = f.session.reconstruction()->image.clone();
    ASSERT_EQ(first.dim(1), 48u);
    ASSERT_EQ(f.session.dataset()->sinograms.dim(1), 30u);  // 90 angles, every 3rd
    const app::Sampling applied = f.session.sampling();
    EXPECT_EQ(applied.grid.pixelSize, 1.5);
    EXPECT_EQ(applied.grid.centerY, -3.25);

    const std::filesystem::path saved = sessionFile("s.json");
    ASSERT_TRUE(f.window->fileActions()->saveSession(saved).isOk());
    WindowFixture g;
    runAndSettle(g.session,
                 [&] { ASSERT_TRUE(g.window->fileActions()->openSession(saved).isOk()); });
    EXPECT_EQ(g.session.sampling(), applied);
    const Fields out(*g.window);
    EXPECT_EQ(out.size->value(), 48);
    EXPECT_EQ(out.pixel->value(), 1.5);
    EXPECT_EQ(out.x->value(), 4.5);
    EXPECT_EQ(out.y->value(), -3.25);
    EXPECT_EQ(out.step->value(), 3);
    runAndSettle(g.session, [&] { click(g.window->runButton()); });
    ASSERT_EQ(g.session.reconstruction()->image.dims(), first.dims());
    EXPECT_EQ(differingVoxels(g.session.reconstruction()->image, first), 0u);
}

TEST_F(SessionSampling, AnOldSessionOpensWithTheDefaults) {
    open(f);
    ASSERT_TRUE(f.session.setSampling({{kSize, 0, 0, 0}, 2}).isOk());
    const std::filesystem::path old = sessionFile("old.json");
    ASSERT_TRUE(f.window->fileActions()->saveSession(old).isOk());
    {  // as saved before the sampling was stored: version 1, no "sampling"
        QFile file(QString::fromStdString(old.string()));
        ASSERT_TRUE(file.open(QIODevice::ReadOnly));
        QJsonObject json = QJsonDocument::fromJson(file.readAll()).object();
        file.close();
        ASSERT_TRUE(json.contains(QStringLiteral("sampling")));
        json.remove(QStringLiteral("sampling"));
        json.insert(QStringLiteral("version"), 1);
        ASSERT_TRUE(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
        file.write(QJsonDocument(json).toJson());
    }
    WindowFixture g;
    runAndSettle(g.session, [&] { ASSERT_TRUE(g.window->fileActions()->openSession(old).isOk()); });
    EXPECT_TRUE(g.session.sampling().isDefault());
    EXPECT_EQ(Fields(*g.window).size->value(), 0);  // "as loaded (96)"
    EXPECT_EQ(Fields(*g.window).step->value(), 1);
    runAndSettle(g.session, [&] { click(g.window->runButton()); });
    EXPECT_EQ(g.session.reconstruction()->image.dim(1), 96u);  // the detector count
    EXPECT_EQ(g.session.dataset()->sinograms.dim(1), 90u);
}

TEST_F(SessionSampling, ABadValueIsRefusedNamingTheField) {
    const std::filesystem::path bad = sessionFile("bad.json");
    auto expectError = [&](const char* sampling, const std::string& field) {
        std::ofstream(bad, std::ios::trunc)
            << R"({"format": "tomostation-session", "version": 2, "data": {"path": ""},
                  "sampling": )"
            << sampling << "}";
        Status s = f.window->fileActions()->openSession(bad);
        ASSERT_FALSE(s.isOk()) << sampling;
        EXPECT_NE(s.message().find(field), std::string::npos) << s.toString();
    };
    expectError(R"({"image_size": -5})", "'sampling.image_size' must be a whole number");
    expectError(R"({"image_size": 12.5})", "'sampling.image_size'");
    expectError(R"({"angle_step": 0})", "'sampling.angle_step'");
    expectError(R"({"pixel_size": "fine"})", "'sampling.pixel_size' must be a number");
    expectError(R"({"pixel_size": -1})", "'sampling.pixel_size' must be 0 or positive");
    expectError(R"({"center_x": null})", "'sampling.center_x'");
    expectError(R"([64])", "'sampling' must be an object");
    EXPECT_FALSE(f.session.dataset());  // nothing was loaded
}

TEST_F(SessionSampling, TheLoadAndReconstructionAngleStepsMultiply) {
    open(f);
    typeInto(child<QSpinBox>(f.window->preprocessPanel(), QStringLiteral("angleStep")),
             QStringLiteral("2"));
    runAndSettle(f.session, [&] {
        click(
            child<QPushButton>(f.window->preprocessPanel(), QStringLiteral("applyPreprocessing")));
    });
    typeInto(Fields(*f.window).step, QStringLiteral("3"));
    runAndSettle(f.session, [&] {
        click(child<QPushButton>(f.window.get(), QStringLiteral("applySampling")));
    });
    // Every 6th projection of the file: angles 0, 6, 12, ... of the 90 stated over [0, 180).
    const std::vector<double> all = uniformAngles(0, 180 * kPi / 180.0, 90);
    const auto& used = f.session.dataset()->geometry.angles();
    ASSERT_EQ(used.size(), 15u);
    for (std::size_t a = 0; a < used.size(); ++a)
        EXPECT_EQ(used[a], all[6 * a]) << a;
    EXPECT_EQ(f.session.loadedDataset()->geometry.angleCount(), 45);
    const QString said = labelText(f.window.get(), QStringLiteral("effectiveAngles"));
    EXPECT_TRUE(said.contains(QStringLiteral("15 angles: every 3 of the 45 loaded")))
        << said.toStdString();
    EXPECT_TRUE(said.contains(QStringLiteral("every 6 of the file's projections")))
        << said.toStdString();
}

}  // namespace
}  // namespace tomo::ui::test
