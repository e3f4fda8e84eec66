// Sessions of data opened from a file (File > Open data file): the data source (file, format,
// raw shape, angle range, angle unit) round-trips through the JSON; a data file under the session
// file's folder is stored relative to it and resolved against it on opening (the pair can be
// moved); a raw file (shape and a non-default angle range) and a TIFF stack reopen in a fresh
// window through the load job with bit-identical sinogram values, the same angles and every
// parameter; a session whose data file is gone restores the rest and names the missing file.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <sstream>

#include <QSignalSpy>
#include <QTemporaryDir>

#include "core/io/ImageIO.h"
#include "tests/ui/UiTestSupport.h"
#include "ui/main/FileActions.h"
#include "ui/main/SessionBinding.h"
#include "ui/panels/AlgorithmPanel.h"
#include "ui/panels/ParameterForm.h"
#include "ui/session/SessionFile.h"
#include "ui/views/ImageView.h"
#include "ui/views/SliceView.h"
#include "ui/widgets/ReconParamsPanel.h"

namespace tomo::ui {
namespace {

using test::waitFor;

std::filesystem::path inDir(const QTemporaryDir& dir, const char* name) {
    return dir.filePath(QString::fromLatin1(name)).toStdString();
}

std::string readText(const std::filesystem::path& file) {
    std::ifstream in(file);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

/// Noiseless 32 x 32 Shepp-Logan sinogram, 40 angles, [1][40][51].
Sinograms phantomSinogram() {
    app::DemoSpec spec = app::demoSpecForSize(32);
    spec.angles = 40;
    spec.incidentCount = 0;
    auto data = app::makeDemoDataset(spec, ExecContext{});
    EXPECT_TRUE(data.isOk()) << data.status().toString();
    return data.isOk() ? std::move(data->sinograms) : Sinograms();
}

/// Starts @p request like File > Open and waits for the load; true when it loaded.
bool openAndWait(test::WindowFixture& f, const app::LoadRequest& request) {
    QSignalSpy finished(&f.session, &Session::jobFinished);
    if (!f.window->fileActions()->openDataFile(request)) return false;
    return waitFor(finished, 1, 20000) && finished.at(0).at(1).toBool();
}

/// Sets a non-default algorithm, parameters, FBP settings and view state on @p w.
void changeSettings(MainWindow& w) {
    AlgorithmPanel* algo = w.algorithmPanel();
    ASSERT_TRUE(algo->setAlgorithm("sirt"));
    ASSERT_TRUE(
        algo->form()
            ->setValues({{"iterations", "23"}, {"relaxation", "1.3"}, {"nonnegative", "true"}})
            .empty());
    ASSERT_TRUE(algo->setAlgorithm("cgls"));
    ASSERT_TRUE(algo->form()->setValues({{"iterations", "7"}, {"lambda", "0.125"}}).empty());
    ASSERT_TRUE(w.paramsPanel()->setFilter(QStringLiteral("hann")));
    w.paramsPanel()->setCutoff(0.8);
    w.setColorMap(ColorMap::Inferno);
    w.reconstructionView()->setWindowLevel({0.4, 0.1});
    w.showPanel(QStringLiteral("center"));
}

/// The restored window holds exactly @p written with angles first + i * (end - first) / count.
void expectData(const Session& session, const Sinograms& written, double firstDeg, double endDeg) {
    auto data = session.dataset();
    ASSERT_NE(data, nullptr);
    ASSERT_EQ(data->sinograms.dims(), written.dims());
    for (std::size_t a = 0; a < written.dim(1); ++a)
        for (std::size_t d = 0; d < written.dim(2); ++d)
            ASSERT_EQ(data->sinograms(0, a, d), written(0, a, d)) << a << "," << d;
    const std::size_t n = written.dim(1);
    ASSERT_EQ(data->geometry.angleCount(), static_cast<int>(n));
    for (std::size_t i = 0; i < n; ++i)
        EXPECT_NEAR(data->geometry.angles()[i],
                    (firstDeg + static_cast<double>(i) * (endDeg - firstDeg) / n) * kPi / 180.0,
                    1e-12);
}

TEST(SessionDataFile, SourceRoundTripsAndIsStoredRelativeUnderTheSessionFolder) {
    QTemporaryDir dir;
    SessionState s;
    app::LoadRequest request;
    request.path = inDir(dir, "scans/sino.raw");
    request.format = "raw";
    request.shape = std::array<std::size_t, 3>{2, 90, 129};
    request.firstDegrees = -12.5;
    request.endDegrees = 167.50000000000003;  // needs all 17 digits
    request.angleUnit = AngleUnit::Radians;
    s.dataFile = request;
    s.algorithm = "sirt";

    Result<SessionState> back = sessionFromJson(sessionToJson(s));
    ASSERT_TRUE(back.isOk()) << back.status().toString();
    EXPECT_TRUE(*back == s);
    EXPECT_EQ(back->dataFile->endDegrees, request.endDegrees);

    // Under the session folder: stored relative ("scans/sino.raw"), read back absolute.
    const std::filesystem::path file = inDir(dir, "s.json");
    ASSERT_TRUE(saveSessionFile(file, s).isOk());
    EXPECT_NE(readText(file).find("\"path\": \"scans/sino.raw\""), std::string::npos)
        << readText(file);
    back = loadSessionFile(file);
    ASSERT_TRUE(back.isOk()) << back.status().toString();
    EXPECT_EQ(back->dataFile->path, request.path);
    EXPECT_TRUE(*back == s);

    // Outside it: stored as given.
    QTemporaryDir other;
    const std::filesystem::path elsewhere = inDir(other, "s.json");
    ASSERT_TRUE(saveSessionFile(elsewhere, s).isOk());
    EXPECT_NE(readText(elsewhere).find(request.path.string()), std::string::npos);

    // A folder source without a file writes no "file" member and reads back without one.
    s.dataFile.reset();
    s.dataPath = "/data/scan 3";
    back = sessionFromJson(sessionToJson(s));
    ASSERT_TRUE(back.isOk());
    EXPECT_FALSE(back->dataFile.has_value());
    EXPECT_TRUE(*back == s);

    // A malformed shape is named.
    std::ofstream(file, std::ios::trunc) << R"({"format": "tomostation-session", "version": 1,
        "data": {"file": {"path": "x.raw", "shape": [1, 0, 5]}}})";
    Result<SessionState> bad = loadSessionFile(file);
    ASSERT_FALSE(bad.isOk());
    EXPECT_NE(bad.status().message().find("data.file.shape"), std::string::npos)
        << bad.status().message();
}

TEST(SessionDataFile, RawFileWithShapeAndAnglesReopensInAFreshWindow) {
    test::WindowFixture a;
    const Sinograms written = phantomSinogram();
    const std::filesystem::path raw = inDir(a.dir, "sino.raw");
    ASSERT_TRUE(writeRawFloat32(raw, written).isOk());
    app::LoadRequest request;
    request.path = raw;
    request.shape = std::array<std::size_t, 3>{1, 40, 51};
    request.firstDegrees = 10.0;
    request.endDegrees = 190.0;
    ASSERT_TRUE(openAndWait(a, request));
    changeSettings(*a.window);
    ASSERT_TRUE(a.session.setCenterOfRotation(24.75).isOk());
    const SessionState before = captureSessionState(*a.window);
    ASSERT_TRUE(before.dataFile.has_value());
    EXPECT_EQ(before.dataFile->format, "raw");
    EXPECT_TRUE(before.dataPath.empty());
    const std::filesystem::path file = inDir(a.dir, "raw-session.json");
    ASSERT_TRUE(a.window->fileActions()->saveSession(file).isOk());

    test::WindowFixture b;
    QSignalSpy finished(&b.session, &Session::jobFinished);
    Status opened = b.window->fileActions()->openSession(file);
    ASSERT_TRUE(opened.isOk()) << opened.toString();
    EXPECT_TRUE(b.session.isBusy());  // the same load job as File > Open
    ASSERT_TRUE(waitFor(finished, 1, 20000));
    EXPECT_EQ(finished.at(0).at(0).value<Session::JobKind>(), Session::JobKind::Load);
    ASSERT_TRUE(finished.at(0).at(1).toBool()) << finished.at(0).at(2).toString().toStdString();
    expectData(b.session, written, 10.0, 190.0);
    EXPECT_EQ(b.session.dataset()->geometry.centerOfRotation(), 24.75);
    EXPECT_EQ(b.window->sinogramView()->valueAt(20, 13), written(0, 13, 20));
    const SessionState after = captureSessionState(*b.window);
    EXPECT_EQ(after.parameters, before.parameters);
    EXPECT_EQ(after.algorithm, "cgls");
    EXPECT_EQ(after.dataFile, before.dataFile);
    EXPECT_TRUE(after == before);
}

TEST(SessionDataFile, TiffStackSessionMovedWithItsDataReopens) {
    if (!tiffSupported()) GTEST_SKIP() << "no TIFF support in this build";
    const Sinograms written = phantomSinogram();
    QTemporaryDir moved;
    SessionState before;
    {
        test::WindowFixture a;
        const std::filesystem::path tif = inDir(a.dir, "sino.tif");
        ASSERT_TRUE(writeVolume(tif, written).isOk());
        app::LoadRequest request;
        request.path = tif;
        ASSERT_TRUE(openAndWait(a, request));
        changeSettings(*a.window);
        before = captureSessionState(*a.window);
        ASSERT_TRUE(before.dataFile.has_value());
        EXPECT_EQ(before.dataFile->format, "tiff");
        ASSERT_TRUE(a.window->fileActions()->saveSession(inDir(a.dir, "s.json")).isOk());
        // Session and data move together to another folder; the originals are gone.
        for (const char* name : {"s.json", "sino.tif"})
            std::filesystem::rename(inDir(a.dir, name), inDir(moved, name));
    }
    test::WindowFixture b;
    QSignalSpy finished(&b.session, &Session::jobFinished);
    Status opened = b.window->fileActions()->openSession(inDir(moved, "s.json"));
    ASSERT_TRUE(opened.isOk()) << opened.toString();
    ASSERT_TRUE(waitFor(finished, 1, 20000));
    ASSERT_TRUE(finished.at(0).at(1).toBool()) << finished.at(0).at(2).toString().toStdString();
    expectData(b.session, written, 0.0, 180.0);
    const SessionState after = captureSessionState(*b.window);
    ASSERT_TRUE(after.dataFile.has_value());
    EXPECT_EQ(after.dataFile->path, inDir(moved, "sino.tif"));
    EXPECT_EQ(after.parameters, before.parameters);
    EXPECT_EQ(after.algorithm, before.algorithm);
    EXPECT_EQ(after.fbpFilter, before.fbpFilter);
    EXPECT_EQ(after.fbpCutoff, before.fbpCutoff);
    EXPECT_EQ(after.colorMap, before.colorMap);
    EXPECT_EQ(after.window, before.window);
    EXPECT_EQ(after.panel, before.panel);
}

TEST(SessionDataFile, MissingDataFileIsReportedAndTheRestRestored) {
    test::WindowFixture a;
    const std::filesystem::path raw = inDir(a.dir, "gone.raw");
    ASSERT_TRUE(writeRawFloat32(raw, phantomSinogram()).isOk());
    app::LoadRequest request;
    request.path = raw;
    request.shape = std::array<std::size_t, 3>{1, 40, 51};
    ASSERT_TRUE(openAndWait(a, request));
    changeSettings(*a.window);
    const SessionState before = captureSessionState(*a.window);
    const std::filesystem::path file = inDir(a.dir, "s.json");
    ASSERT_TRUE(a.window->fileActions()->saveSession(file).isOk());
    ASSERT_TRUE(std::filesystem::remove(raw));

    // A window showing the demo: the demo stays, no load starts, the rest is applied.
    test::WindowFixture b;
    ASSERT_TRUE(b.startDemo(32));
    auto demo = b.session.dataset();
    Status opened = b.window->fileActions()->openSession(file);
    ASSERT_FALSE(opened.isOk());
    EXPECT_NE(opened.message().find(raw.string()), std::string::npos) << opened.message();
    EXPECT_NE(opened.message().find("not there"), std::string::npos) << opened.message();
    EXPECT_FALSE(b.session.isBusy());
    EXPECT_EQ(b.session.dataset(), demo);
    const SessionState after = captureSessionState(*b.window);
    EXPECT_EQ(after.parameters, before.parameters);
    EXPECT_EQ(after.algorithm, before.algorithm);
    EXPECT_EQ(after.fbpFilter, before.fbpFilter);
    EXPECT_EQ(after.fbpCutoff, before.fbpCutoff);
    EXPECT_EQ(after.colorMap, before.colorMap);
    EXPECT_EQ(after.window, before.window);
    EXPECT_EQ(after.level, before.level);
    EXPECT_EQ(after.panel, before.panel);
    EXPECT_EQ(after.demoSize, 32);  // still the demo
}

}  // namespace
}  // namespace tomo::ui
