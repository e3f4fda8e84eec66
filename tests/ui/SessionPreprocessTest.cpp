// Sessions keep the preprocessing: its JSON round trip (every field, a file's and a folder's),
// sessions saved before it was stored still open with none applied, malformed preprocessing
// names the field, and the journey striped demo folder -> rings + zingers -> centre -> FBP ->
// save session -> open it in a fresh window -> FBP gives the same bits; a data file's rings and
// binning read again the same way; preprocessing the data refuses is a message.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>

#include "app/jobs/DemoJob.h"
#include "core/io/ImageIO.h"
#include "tests/ui/SameBits.h"
#include "tests/ui/SessionWaits.h"
#include "tests/ui/UiTestSupport.h"
#include "tests/ui/UserActions.h"
#include "ui/main/FileActions.h"
#include "ui/panels/CenterPanel.h"
#include "ui/panels/PreprocessPanel.h"
#include "ui/session/SessionFile.h"

namespace tomo::ui::test {
namespace {

/// Every step of the pipeline set away from its default.
PreprocessOptions everyStep() {
    PreprocessOptions o;
    o.angleRange = {3, 100};
    o.angleStep = 2;
    o.cropRows = {1, IndexRange::kAll};
    o.cropColumns = {4, 60};
    o.binRows = 2;
    o.binColumns = 3;
    o.zingers =
        ZingerOptions{5, 0.30000000000000004, ThresholdMode::LineIntegral, OutlierSign::Dark};
    o.flatDark = true;
    o.flatField.projectionPositions = {0.0, 0.5, 1.0};
    o.flatField.flatPositions = {-0.1, 1.1};
    o.flatField.minDenominator = 2e-3f;
    o.flatsBefore = 4;
    o.paganin = PaganinOptions{25.0, 300.0, 1.3, 250.0};
    o.minusLog = true;
    o.logEpsilon = 1e-5f;
    o.rings = RingMethod::FourierWavelet;
    o.sorting.size = 11;
    o.fourierWavelet = {3, 1.5, "haar", 2.5};
    return o;
}

TEST(SessionPreprocessing, EveryFieldRoundTripsForAFolderAndAFile) {
    QTemporaryDir dir;
    const std::filesystem::path file = dir.filePath(QStringLiteral("s.json")).toStdString();
    SessionState s;
    s.dataPath = "/data/stack";
    s.folderPreprocessing.rings = RingMethod::Sorting;
    s.folderPreprocessing.sorting = {9, 2.75};
    s.folderPreprocessing.zingers = ZingerOptions{};
    ASSERT_TRUE(saveSessionFile(file, s).isOk());
    Result<SessionState> back = loadSessionFile(file);
    ASSERT_TRUE(back.isOk()) << back.status().toString();
    EXPECT_TRUE(*back == s);
    EXPECT_EQ(describe(back->folderPreprocessing), describe(s.folderPreprocessing));
    EXPECT_EQ(back->folderPreprocessing.sorting.snr, 2.75);

    s = SessionState{};
    app::LoadRequest request;
    request.path = "/data/scan.h5";
    request.format = "hdf5";
    request.preprocessing = everyStep();
    request.minusLog = false;
    s.dataFile = request;
    ASSERT_TRUE(saveSessionFile(file, s).isOk());
    back = loadSessionFile(file);
    ASSERT_TRUE(back.isOk()) << back.status().toString();
    ASSERT_TRUE(back->dataFile);
    EXPECT_TRUE(*back == s);
    const PreprocessOptions& a = back->dataFile->preprocessing;
    const PreprocessOptions b = everyStep();
    EXPECT_FALSE(back->dataFile->minusLog);
    EXPECT_EQ(describe(a), describe(b));
    EXPECT_EQ(a.angleRange.first, 3u);
    EXPECT_EQ(a.cropRows.count, IndexRange::kAll);
    EXPECT_EQ(a.cropColumns.count, 60u);
    EXPECT_EQ(a.zingers->threshold, b.zingers->threshold);  // bit-exact
    EXPECT_EQ(a.zingers->mode, ThresholdMode::LineIntegral);
    EXPECT_EQ(a.zingers->sign, OutlierSign::Dark);
    EXPECT_EQ(a.flatField.flatPositions, b.flatField.flatPositions);
    EXPECT_EQ(a.flatField.minDenominator, b.flatField.minDenominator);
    EXPECT_EQ(a.flatsBefore, b.flatsBefore);
    EXPECT_EQ(a.paganin->pixelSizeUm, 1.3);
    EXPECT_EQ(a.logEpsilon, b.logEpsilon);
    EXPECT_EQ(a.fourierWavelet.wavelet, "haar");
    EXPECT_EQ(a.fourierWavelet.snr, 2.5);
    EXPECT_EQ(a.sorting.size, 11);
}

TEST(SessionPreprocessing, SessionsSavedWithoutItOpenWithNoneApplied) {
    QTemporaryDir dir;
    const std::filesystem::path file = dir.filePath(QStringLiteral("old.json")).toStdString();
    std::ofstream(file) << R"({"format": "tomostation-session", "version": 1,
        "data": {"path": "/data/stack", "demo_size": 0, "center_of_rotation": 20.5,
                 "file": {"path": "/data/scan.tif", "format": "tiff", "shape": null,
                          "first_degrees": 0, "end_degrees": 180, "angle_unit": "auto"}},
        "algorithm": "fbp", "parameters": {}})";
    Result<SessionState> old = loadSessionFile(file);
    ASSERT_TRUE(old.isOk()) << old.status().toString();
    EXPECT_TRUE(old->folderPreprocessing.empty());
    ASSERT_TRUE(old->dataFile);
    EXPECT_TRUE(old->dataFile->preprocessing.empty());
    EXPECT_TRUE(old->dataFile->minusLog);
    EXPECT_EQ(old->centerOfRotation, 20.5);
}

TEST(SessionPreprocessing, MalformedPreprocessingNamesTheField) {
    QTemporaryDir dir;
    const std::filesystem::path file = dir.filePath(QStringLiteral("bad.json")).toStdString();
    auto expectError = [&](const char* preprocessing, const std::string& field) {
        std::ofstream(file) << R"({"format": "tomostation-session", "version": 1,
            "data": {"path": "/d", "preprocessing": )"
                            << preprocessing << "}}";
        Result<SessionState> s = loadSessionFile(file);
        ASSERT_FALSE(s.isOk()) << preprocessing;
        EXPECT_NE(s.status().message().find(field), std::string::npos) << s.status().toString();
    };
    expectError(R"({"rings": "bogus"})", "data.preprocessing.rings");
    expectError(R"({"zingers": {"threshold": "high"}})", "data.preprocessing.zingers.threshold");
    expectError(R"({"crop_columns": [4]})", "data.preprocessing.crop_columns");
    expectError(R"({"bin_rows": 0})", "data.preprocessing");
    expectError(R"([1, 2])", "data.preprocessing");
}

/// The demo of @p n pixels with a stripe (a miscalibrated detector column) and two zingers,
/// saved as a dataset folder in @p folder; returns the peak of its sinogram.
float saveStripedDemo(int n, const std::filesystem::path& folder) {
    auto made = app::makeDemoDataset(app::demoSpecForSize(n), ExecContext{});
    EXPECT_TRUE(made.isOk());
    if (!made) return 0;
    Sinograms& s = made->sinograms;
    const std::size_t angles = s.dim(1), column = s.dim(2) / 2 + 6;
    float peak = 0;
    for (std::size_t a = 0; a < angles; ++a)
        for (std::size_t d = 0; d < s.dim(2); ++d)
            peak = std::max(peak, s(0, a, d));
    for (std::size_t a = 0; a < angles; ++a)
        s(0, a, column) += 0.05f * peak;
    s(0, angles / 3, column - 9) -= std::log(20.0f);  // zingers: dark in line integrals
    s(0, angles / 2, column + 4) -= std::log(20.0f);
    EXPECT_TRUE(app::saveDataset(*made, folder).isOk());
    return peak;
}

TEST(SessionPreprocessing, RingsZingersCentreFbpSavedAndReopenedGiveTheSameBits) {
    WindowFixture a;
    const std::filesystem::path folder = a.dir.filePath(QStringLiteral("striped")).toStdString();
    saveStripedDemo(40, folder);
    QSignalSpy loaded(&a.session, &Session::jobFinished);
    ASSERT_TRUE(a.window->fileActions()->openPath(folder));
    ASSERT_TRUE(waitFor(loaded, 1, 60000));
    settleSession(a.session);

    PreprocessPanel* panel = a.window->preprocessPanel();
    choose(child<QComboBox>(panel, QStringLiteral("ringMethod")), QStringLiteral("sorting"));
    click(child<QCheckBox>(panel, QStringLiteral("removeZingers")));
    typeInto(child<QDoubleSpinBox>(panel, QStringLiteral("zingerThreshold")),
             QStringLiteral("0.20"));  // a fraction: ln 1.2 below the median
    clickAndSettle(a.session, child<QPushButton>(panel, QStringLiteral("applyPreprocessing")));
    const std::string applied = a.session.loadedDataset()->preprocessing;
    ASSERT_NE(applied.find("rings vo"), std::string::npos) << applied;
    ASSERT_NE(applied.find("zinger"), std::string::npos) << applied;

    CenterPanel* center = a.window->centerPanel();
    const double centre = a.session.dataset()->geometry.centerOfRotation() + 0.5;
    typeInto(child<QDoubleSpinBox>(center, QStringLiteral("centerSpin")),
             QString::number(centre, 'f', 2));
    clickAndSettle(a.session, child<QPushButton>(center, QStringLiteral("applyCenter")));
    clickAndSettle(a.session, a.window->runButton());
    const Volume before = a.session.reconstruction()->image.clone();
    const std::filesystem::path file = a.dir.filePath(QStringLiteral("s.json")).toStdString();
    ASSERT_TRUE(a.window->fileActions()->saveSession(file).isOk());

    WindowFixture b;
    QSignalSpy finished(&b.session, &Session::jobFinished);
    Status opened = b.window->fileActions()->openSession(file);
    ASSERT_TRUE(opened.isOk()) << opened.toString();
    ASSERT_TRUE(waitFor(finished, 1, 60000));
    ASSERT_TRUE(finished.at(0).at(1).toBool()) << finished.at(0).at(2).toString().toStdString();
    settleSession(b.session);
    EXPECT_EQ(b.session.loadedDataset()->preprocessing, applied);
    EXPECT_DOUBLE_EQ(b.session.dataset()->geometry.centerOfRotation(), centre);
    // The Preprocessing tab shows what is applied, in its words and its widgets.
    PreprocessPanel* reopened = b.window->preprocessPanel();
    EXPECT_TRUE(labelText(reopened, QStringLiteral("preprocessingApplied"))
                    .contains(QStringLiteral("rings vo")));
    EXPECT_EQ(child<QComboBox>(reopened, QStringLiteral("ringMethod"))->currentData().toInt(),
              static_cast<int>(RingMethod::Sorting));
    EXPECT_TRUE(child<QCheckBox>(reopened, QStringLiteral("removeZingers"))->isChecked());

    clickAndSettle(b.session, b.window->runButton());
    const Volume& after = b.session.reconstruction()->image;
    ASSERT_EQ(after.dims(), before.dims());
    EXPECT_EQ(differingVoxels(after, before), 0u);
}

// A data file (a TIFF sinogram stack) read with rings and binning: the reopened session reads
// it the same way (same shape, same bits) and the panel shows the binning.
TEST(SessionPreprocessing, ADataFilesRingsAndBinningAreReadAgainTheSameWay) {
    if (!tiffSupported()) GTEST_SKIP() << "no TIFF support in this build";
    WindowFixture a;
    auto made = app::makeDemoDataset(app::demoSpecForSize(40), ExecContext{});
    ASSERT_TRUE(made.isOk());
    const std::filesystem::path tif = a.dir.filePath(QStringLiteral("sino.tif")).toStdString();
    ASSERT_TRUE(writeVolume(tif, made->sinograms).isOk());
    app::LoadRequest request;
    request.path = tif;
    QSignalSpy loaded(&a.session, &Session::jobFinished);
    ASSERT_TRUE(a.window->fileActions()->openDataFile(request));
    ASSERT_TRUE(waitFor(loaded, 1, 60000));
    settleSession(a.session);
    PreprocessPanel* panel = a.window->preprocessPanel();
    choose(child<QComboBox>(panel, QStringLiteral("ringMethod")), QStringLiteral("sorting"));
    choose(child<QComboBox>(panel, QStringLiteral("binning")), QStringLiteral("2 x 2"));
    clickAndSettle(a.session, child<QPushButton>(panel, QStringLiteral("applyPreprocessing")));
    const Sinograms& read = a.session.loadedDataset()->sinograms;
    ASSERT_EQ(read.dim(2), made->sinograms.dim(2) / 2);
    const std::filesystem::path file = a.dir.filePath(QStringLiteral("s.json")).toStdString();
    ASSERT_TRUE(a.window->fileActions()->saveSession(file).isOk());

    WindowFixture b;
    QSignalSpy finished(&b.session, &Session::jobFinished);
    ASSERT_TRUE(b.window->fileActions()->openSession(file).isOk());
    ASSERT_TRUE(waitFor(finished, 1, 60000));
    ASSERT_TRUE(finished.at(0).at(1).toBool()) << finished.at(0).at(2).toString().toStdString();
    settleSession(b.session);
    EXPECT_EQ(b.session.loadedDataset()->preprocessing, a.session.loadedDataset()->preprocessing);
    const Sinograms& again = b.session.loadedDataset()->sinograms;
    ASSERT_EQ(again.dims(), read.dims());
    EXPECT_EQ(differingVoxels(again, read), 0u);
    EXPECT_EQ(child<QComboBox>(b.window->preprocessPanel(), QStringLiteral("binning"))
                  ->currentData()
                  .toInt(),
              2);
}

// A session asking a dataset folder for preprocessing it cannot take (a hand-edited crop) is
// refused by the load with the reason; the window keeps working.
TEST(SessionPreprocessing, PreprocessingTheDataRefusesIsAMessage) {
    WindowFixture f;
    const std::filesystem::path folder = f.dir.filePath(QStringLiteral("striped")).toStdString();
    saveStripedDemo(32, folder);
    SessionState s;
    s.dataPath = folder.string();
    s.folderPreprocessing.cropColumns = {2, 20};
    const std::filesystem::path file = f.dir.filePath(QStringLiteral("crop.json")).toStdString();
    ASSERT_TRUE(saveSessionFile(file, s).isOk());
    QSignalSpy finished(&f.session, &Session::jobFinished);
    ASSERT_TRUE(f.window->fileActions()->openSession(file).isOk());
    ASSERT_TRUE(waitFor(finished, 1, 60000));
    EXPECT_FALSE(finished.at(0).at(1).toBool());
    EXPECT_TRUE(finished.at(0).at(2).toString().contains(QStringLiteral("Region and sampling")))
        << finished.at(0).at(2).toString().toStdString();
    EXPECT_FALSE(f.session.isBusy());
}

}  // namespace
}  // namespace tomo::ui::test
