// Sessions and presets: JSON round trips of every field (NaN centre included), malformed files
// named in the error, and the window's full state captured, saved, opened in a second window
// and captured again unchanged (algorithm, every parameter, FBP settings, variant, centre of
// rotation, colour map, window/level, panel).
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSignalSpy>
#include <QTemporaryDir>

#include "tests/ui/UiTestSupport.h"
#include "ui/main/FileActions.h"
#include "ui/main/SessionBinding.h"
#include "ui/panels/AlgorithmPanel.h"
#include "ui/panels/ParameterForm.h"
#include "ui/session/SessionFile.h"
#include "ui/views/ImageView.h"
#include "ui/widgets/ReconParamsPanel.h"

namespace tomo::ui {
namespace {

using test::waitFor;

SessionState sampleState() {
    SessionState s;
    s.dataPath = "/data/scan 7";
    s.demoSize = 0;
    s.centerOfRotation = 183.25000000000003;  // needs all 17 digits
    s.algorithm = "cgls";
    s.parameters["cgls"] = {{"iterations", "17"}, {"lambda", "0.0030000000000000001"}};
    s.parameters["sirt"] = {{"nonnegative", "true"}, {"relaxation", "1.5"}};
    s.fbpFilter = "hann";
    s.fbpCutoff = 0.7000000000000001;
    s.variant = "cpu.simd.nn";
    s.colorMap = "inferno";
    s.window = 0.123456789012345;
    s.level = -0.0625;
    s.panel = "center";
    return s;
}

TEST(SessionFile, JsonRoundTripsEveryField) {
    QTemporaryDir dir;
    const std::filesystem::path file = dir.filePath(QStringLiteral("s.json")).toStdString();
    SessionState s = sampleState();
    ASSERT_TRUE(saveSessionFile(file, s).isOk());
    Result<SessionState> back = loadSessionFile(file);
    ASSERT_TRUE(back.isOk()) << back.status().toString();
    EXPECT_TRUE(*back == s);
    EXPECT_EQ(back->centerOfRotation, s.centerOfRotation);  // bit-exact
    EXPECT_EQ(back->fbpCutoff, s.fbpCutoff);

    s.centerOfRotation = std::nan("");  // "the dataset's own": written as null
    ASSERT_TRUE(saveSessionFile(file, s).isOk());
    back = loadSessionFile(file);
    ASSERT_TRUE(back.isOk());
    EXPECT_TRUE(std::isnan(back->centerOfRotation));
    EXPECT_TRUE(*back == s);
}

TEST(SessionFile, ConeBeamDataRoundTripRelativeToTheSessionFile) {
    QTemporaryDir dir;
    const std::filesystem::path folder = dir.path().toStdString();
    SessionState s = sampleState();
    s.dataPath.clear();
    s.cone = ConeSession{(folder / "scan" / "proj.raw").string(),
                         (folder / "geometry.xml").string(),
                         "/elsewhere/truth.mha",
                         std::array<double, 2>{0.75, 0.5},
                         std::array<std::size_t, 3>{360, 64, 96},
                         {48, 40, 32},
                         1.25};
    ASSERT_TRUE(saveSessionFile(folder / "s.json", s).isOk());
    QFile file(QString::fromStdString((folder / "s.json").string()));
    ASSERT_TRUE(file.open(QIODevice::ReadOnly));
    const QJsonObject cone = QJsonDocument::fromJson(file.readAll())
                                 .object()[QStringLiteral("data")]
                                 .toObject()[QStringLiteral("cone")]
                                 .toObject();
    EXPECT_EQ(cone[QStringLiteral("projections")].toString(), QStringLiteral("scan/proj.raw"));
    EXPECT_EQ(cone[QStringLiteral("truth")].toString(), QStringLiteral("/elsewhere/truth.mha"));
    Result<SessionState> back = loadSessionFile(folder / "s.json");
    ASSERT_TRUE(back.isOk()) << back.status().toString();
    EXPECT_TRUE(*back == s);
    // No grid: the default grid, written as null.
    s.cone->grid = {};
    s.cone->gridSpacing = 0;
    s.cone->pitch.reset();
    ASSERT_TRUE(saveSessionFile(folder / "s.json", s).isOk());
    back = loadSessionFile(folder / "s.json");
    ASSERT_TRUE(back.isOk());
    EXPECT_TRUE(*back == s);
    // A malformed one names the field.
    Result<ConeSession> bad = coneFromJson(QJsonObject{{QStringLiteral("projections"), "p.mha"},
                                                       {QStringLiteral("geometry"), "g.xml"},
                                                       {QStringLiteral("grid"), QJsonArray{1, 2}}});
    ASSERT_FALSE(bad.isOk());
    EXPECT_NE(bad.status().message().find("data.cone.grid"), std::string::npos);
}

TEST(SessionFile, MalformedFilesNameTheCause) {
    QTemporaryDir dir;
    const std::filesystem::path file = dir.filePath(QStringLiteral("bad.json")).toStdString();
    std::ofstream(file) << R"({"format": "tomostation-session", "version": 1,
        "fbp": {"cutoff": "high"}})";
    Result<SessionState> r = loadSessionFile(file);
    ASSERT_FALSE(r.isOk());
    EXPECT_NE(r.status().message().find("fbp.cutoff"), std::string::npos) << r.status().message();
    std::ofstream(file, std::ios::trunc) << R"({"format": "tomostation-preset"})";
    r = loadSessionFile(file);
    ASSERT_FALSE(r.isOk());
    EXPECT_NE(r.status().message().find("not a tomostation-session"), std::string::npos);
    std::ofstream(file, std::ios::trunc) << "{ not json";
    EXPECT_FALSE(loadSessionFile(file).isOk());
    EXPECT_EQ(
        loadSessionFile(dir.filePath(QStringLiteral("none.json")).toStdString()).status().code(),
        ErrorCode::NotFound);
}

TEST(SessionFile, PresetRoundTripsThroughThePanel) {
    QTemporaryDir dir;
    const std::string file = dir.filePath(QStringLiteral("p.json")).toStdString();
    AlgorithmPanel panel(app::makeRegistry());
    ASSERT_TRUE(panel.setAlgorithm("sirt"));
    ASSERT_TRUE(
        panel.form()
            ->setValues({{"iterations", "77"}, {"relaxation", "1.25"}, {"nonnegative", "true"}})
            .empty());
    const auto saved = panel.values();
    ASSERT_TRUE(panel.savePreset(file).isOk());
    panel.form()->resetToDefaults();
    ASSERT_TRUE(panel.setAlgorithm("cgls"));
    ASSERT_TRUE(panel.loadPreset(file).isOk());
    EXPECT_EQ(panel.algorithm(), "sirt");
    EXPECT_EQ(panel.values(), saved);
    EXPECT_EQ(panel.values().at("iterations"), "77");
}

TEST(SessionFile, WindowStateRoundTripsThroughAFile) {
    test::WindowFixture a;
    ASSERT_TRUE(a.startDemo(64));
    MainWindow& w = *a.window;
    // Change every parameter from its default.
    AlgorithmPanel* algo = w.algorithmPanel();
    ASSERT_TRUE(algo->setAlgorithm("sirt"));
    ASSERT_TRUE(algo->form()
                    ->setValues({{"iterations", "42"},
                                 {"relaxation", "1.7"},
                                 {"nonnegative", "true"},
                                 {"tolerance", "0.001"}})
                    .empty());
    ASSERT_TRUE(algo->setAlgorithm("cgls"));
    ASSERT_TRUE(algo->form()->setValues({{"iterations", "9"}, {"lambda", "0.25"}}).empty());
    ASSERT_TRUE(w.paramsPanel()->setFilter(QStringLiteral("cosine")));
    w.paramsPanel()->setCutoff(0.55);
    ASSERT_TRUE(w.paramsPanel()->setVariant("cpu.reference.lin"));
    w.setColorMap(ColorMap::Inferno);
    w.reconstructionView()->setWindowLevel({0.5, 0.2});
    const double center = a.session.dataset()->geometry.centerOfRotation() + 1.3;
    ASSERT_TRUE(a.session.setCenterOfRotation(center).isOk());
    w.showPanel(QStringLiteral("devices"));

    const SessionState before = captureSessionState(w);
    EXPECT_EQ(before.algorithm, "cgls");
    EXPECT_EQ(before.parameters.at("sirt").at("iterations"), "42");
    EXPECT_EQ(before.parameters.at("cgls").at("lambda"), "0.25");
    EXPECT_EQ(before.variant, "cpu.reference.lin");
    EXPECT_EQ(before.demoSize, 64);
    EXPECT_EQ(before.panel, "devices");
    EXPECT_DOUBLE_EQ(before.centerOfRotation, center);
    const std::filesystem::path file = a.dir.filePath(QStringLiteral("s.json")).toStdString();
    ASSERT_TRUE(w.fileActions()->saveSession(file).isOk());
    EXPECT_EQ(w.fileActions()->recent().list().front(), QString::fromStdString(file.string()));

    // A fresh window: opening the session loads the 64 demo, then applies the centre.
    test::WindowFixture b;
    QSignalSpy finished(&b.session, &Session::jobFinished);
    Status opened = b.window->fileActions()->openSession(file);
    ASSERT_TRUE(opened.isOk()) << opened.toString();
    ASSERT_TRUE(waitFor(finished, 1, 30000));
    ASSERT_TRUE(finished.at(0).at(1).toBool());
    const SessionState after = captureSessionState(*b.window);
    EXPECT_EQ(after.parameters, before.parameters);
    EXPECT_EQ(after.algorithm, before.algorithm);
    EXPECT_EQ(after.fbpFilter, before.fbpFilter);
    EXPECT_EQ(after.fbpCutoff, before.fbpCutoff);
    EXPECT_EQ(after.variant, before.variant);
    EXPECT_EQ(after.colorMap, before.colorMap);
    EXPECT_EQ(after.centerOfRotation, before.centerOfRotation);
    EXPECT_EQ(after.demoSize, before.demoSize);
    EXPECT_EQ(after.panel, before.panel);
    EXPECT_TRUE(after == before);
}

// FBP's Joseph projector (the FBP page's Projector box) is kept as its back-projector's id,
// cpu.joseph, and a session with a pixel-driven variant switches it back.
TEST(SessionFile, FbpsJosephProjectorRoundTripsThroughAFile) {
    test::WindowFixture a;
    ASSERT_TRUE(a.startDemo(48));
    ASSERT_TRUE(a.window->paramsPanel()->setProjector("joseph"));
    const SessionState before = captureSessionState(*a.window);
    EXPECT_EQ(before.variant, "cpu.joseph");
    const std::filesystem::path file = a.dir.filePath(QStringLiteral("j.json")).toStdString();
    ASSERT_TRUE(a.window->fileActions()->saveSession(file).isOk());

    test::WindowFixture b;
    QSignalSpy finished(&b.session, &Session::jobFinished);
    Status opened = b.window->fileActions()->openSession(file);
    ASSERT_TRUE(opened.isOk()) << opened.toString();
    ASSERT_TRUE(waitFor(finished, 1, 30000));
    EXPECT_EQ(b.window->paramsPanel()->projector(), "joseph");
    EXPECT_EQ(b.window->paramsPanel()->variantId(), "");
    EXPECT_EQ(captureSessionState(*b.window).variant, "cpu.joseph");

    SessionState pixel = before;
    pixel.variant = "cpu.simd.lin";
    EXPECT_TRUE(applySessionState(*b.window, pixel).empty());
    EXPECT_EQ(b.window->paramsPanel()->projector(), "pixel");
    EXPECT_EQ(b.window->paramsPanel()->variantId(), "cpu.simd.lin");
}

TEST(SessionFile, WindowLevelIsRestoredWithTheSameData) {
    test::WindowFixture a;
    ASSERT_TRUE(a.startDemo(64));
    SessionState s = captureSessionState(*a.window);
    s.window = 0.75;
    s.level = 0.125;
    s.colorMap = "inferno";
    std::vector<std::string> failed = applySessionState(*a.window, s);
    EXPECT_TRUE(failed.empty());
    EXPECT_EQ(a.window->reconstructionView()->windowLevel().width, 0.75);
    EXPECT_EQ(a.window->reconstructionView()->windowLevel().level, 0.125);
    EXPECT_EQ(a.window->colorMap(), ColorMap::Inferno);
    EXPECT_TRUE(captureSessionState(*a.window) == s);
}

}  // namespace
}  // namespace tomo::ui
