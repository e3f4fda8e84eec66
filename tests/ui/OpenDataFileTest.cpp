// File > Open of a data file (FileActions::openDataFile, the path the menu takes after its
// dialogs): a noiseless Shepp-Logan sinogram written with the core writers (TIFF, raw) loads off
// the GUI thread into the session with the stated angles, the sinogram view shows the written
// values, and FBP of it matches the rasterised phantom. A corrupt file is one error naming it and
// leaves the previous dataset in place.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>

#include <QCheckBox>
#include <QLabel>
#include <QSpinBox>
#include <QSignalSpy>

#include "app/data/DataFormats.h"
#include "app/jobs/LoadJob.h"
#include "app/jobs/SinogramCheck.h"
#include "core/io/ImageIO.h"
#include "core/phantom/Phantom.h"
#include "tests/ui/UiTestSupport.h"
#include "tomo/config.h"
#if TOMO_WITH_HDF5
#include "core/hdf5io/Hdf5Writer.h"
#endif
#include "ui/main/CompareTab.h"
#include "ui/main/FileActions.h"
#include "ui/main/ResultViews.h"
#include "ui/panels/PreprocessPanel.h"
#include "ui/views/SliceView.h"

namespace tomo::ui {
namespace {

using test::correlation;
using test::waitFor;

/// 32 x 32 Shepp-Logan (scale 16 px), 45 angles over [0, 180), 51 detectors, no noise.
app::Dataset phantomSinogram() {
    app::DemoSpec spec = app::demoSpecForSize(32);
    spec.angles = 45;
    spec.incidentCount = 0;
    auto data = app::makeDemoDataset(spec, ExecContext{});
    EXPECT_TRUE(data.isOk()) << data.status().toString();
    return std::move(*data);
}

/// Opens @p request through FileActions and waits for the load job; the jobFinished arguments.
QList<QVariant> openAndWait(test::WindowFixture& f, const app::LoadRequest& request) {
    QSignalSpy finished(&f.session, &Session::jobFinished);
    EXPECT_TRUE(f.window->fileActions()->openDataFile(request));
    EXPECT_TRUE(f.session.isBusy());
    EXPECT_TRUE(waitFor(finished, 1, 20000)) << "load did not finish in 20 s";
    return finished.isEmpty() ? QList<QVariant>{} : finished.at(0);
}

/// @p tolerance: largest allowed |loaded - written| sinogram value (0 for stacks stored as is).
void expectLoadedAndReconstructs(test::WindowFixture& f, const app::Dataset& written,
                                 const std::filesystem::path& file, float tolerance = 0.0f) {
    auto data = f.session.dataset();
    ASSERT_NE(data, nullptr);
    const Sinograms& sino = data->sinograms;
    ASSERT_EQ(sino.dims(), written.sinograms.dims());
    for (std::size_t a = 0; a < sino.dim(1); ++a)
        for (std::size_t d = 0; d < sino.dim(2); ++d)
            ASSERT_NEAR(sino(0, a, d), written.sinograms(0, a, d), tolerance) << a << "," << d;

    // Geometry as tomo recon --angles 0:180:45: uniform angles, axis at the detector centre.
    const ParallelGeometry& g = data->geometry;
    ASSERT_EQ(g.angleCount(), 45);
    for (int i = 0; i < 45; ++i)
        EXPECT_NEAR(g.angles()[i], i * kPi / 45.0, 1e-12);
    EXPECT_DOUBLE_EQ(g.centerOfRotation(), 25.0);
    EXPECT_EQ(data->grid.nx, 51);
    EXPECT_TRUE(data->truth.empty());

    // The sinogram view holds the file's values: (x, y) = (detector, angle).
    SliceView* view = f.window->sinogramView();
    ASSERT_TRUE(view->hasImage());
    for (auto [x, y] : {std::pair{0, 0}, std::pair{25, 10}, std::pair{40, 44}, std::pair{12, 30}})
        EXPECT_EQ(view->valueAt(x, y), sino(0, y, x)) << x << "," << y;
    EXPECT_EQ(f.session.datasetName(), QString::fromStdString(file.string()));
    EXPECT_EQ(f.window->fileActions()->recent().list().value(0),
              QString::fromStdString(file.string()));

    // Reconstruction is enabled and FBP recovers the phantom (rasterised independently on the
    // 51 x 51 grid of the loaded geometry, same pixel size).
    QSignalSpy finished(&f.session, &Session::jobFinished);
    f.window->reconstruct();
    ASSERT_TRUE(waitFor(finished, 1, 20000));
    ASSERT_EQ(finished.at(0).at(0).value<Session::JobKind>(), Session::JobKind::Reconstruct);
    ASSERT_TRUE(finished.at(0).at(1).toBool()) << finished.at(0).at(2).toString().toStdString();
    auto recon = f.session.reconstruction();
    ASSERT_NE(recon, nullptr);
    auto phantom = Phantom::fromName("shepp-logan", 16.0);
    ASSERT_TRUE(phantom.isOk());
    Volume truth;
    ASSERT_TRUE(phantom->rasterize(data->grid, truth, 4, ExecContext{}).isOk());
    EXPECT_GT(correlation(recon->image.plane(0), truth.plane(0)), 0.9);  // measured 0.962
}

TEST(OpenDataFile, FiltersListEveryReadableFormat) {
    auto filters = FileActions::dataFileFilters();
    ASSERT_TRUE(filters.isOk()) << filters.status().toString();
    auto registry = app::makeFormatRegistry();
    ASSERT_TRUE(registry.isOk());
    int readable = 0;
    for (const FileFormat& format : registry->formats()) {
        if (!format.readVolume && !format.openAcquisition) continue;
        ++readable;
        for (const std::string& ext : format.extensions)
            EXPECT_TRUE(filters->contains(QStringLiteral("*") + QString::fromStdString(ext)))
                << ext;
    }
    // "All data files" plus one filter per readable format.
    EXPECT_EQ(filters->split(QStringLiteral(";;")).size(), readable + 1);
    EXPECT_TRUE(filters->contains(QStringLiteral("*.raw")));
#if TOMO_WITH_HDF5
    EXPECT_TRUE(filters->contains(QStringLiteral("*.h5")));
#endif
}

TEST(OpenDataFile, TiffSinogramStackLoadsAndReconstructs) {
    if (!tiffSupported()) GTEST_SKIP() << "no TIFF support in this build";
    test::WindowFixture f;
    const app::Dataset written = phantomSinogram();
    const std::filesystem::path file = f.dir.filePath(QStringLiteral("sino.tif")).toStdString();
    ASSERT_TRUE(writeVolume(file, written.sinograms).isOk());
    app::LoadRequest request;
    request.path = file;
    QList<QVariant> done = openAndWait(f, request);
    ASSERT_EQ(done.size(), 3);
    ASSERT_TRUE(done.at(1).toBool()) << done.at(2).toString().toStdString();
    expectLoadedAndReconstructs(f, written, file);
}

TEST(OpenDataFile, RawNeedsShapeAndLoadsWithIt) {
    test::WindowFixture f;
    const app::Dataset written = phantomSinogram();
    const std::filesystem::path file = f.dir.filePath(QStringLiteral("sino.raw")).toStdString();
    ASSERT_TRUE(writeRawFloat32(file, written.sinograms).isOk());
    app::LoadRequest request;
    request.path = file;
    // Without a shape: an error naming the file, as tomo recon without --shape.
    auto missing = app::loadDataFile(request, ExecContext{});
    ASSERT_FALSE(missing.isOk());
    EXPECT_NE(missing.status().message().find("sino.raw"), std::string::npos);
    EXPECT_NE(missing.status().message().find("shape"), std::string::npos);

    request.shape = std::array<std::size_t, 3>{1, 45, 51};
    QList<QVariant> done = openAndWait(f, request);
    ASSERT_EQ(done.size(), 3);
    ASSERT_TRUE(done.at(1).toBool()) << done.at(2).toString().toStdString();
    expectLoadedAndReconstructs(f, written, file);
}

#if TOMO_WITH_HDF5
/// The phantom's sinogram scaled to line integrals of at most ~0.5, written as a DXchange
/// acquisition (counts I = D + (F - D) exp(-p), flat 1000, dark 10) to @p file; the scaled
/// sinogram is returned.
app::Dataset writePhantomDxchange(const std::filesystem::path& file) {
    app::Dataset written = phantomSinogram();
    for (std::size_t a = 0; a < written.sinograms.dim(1); ++a)
        for (std::size_t d = 0; d < written.sinograms.dim(2); ++d)
            written.sinograms(0, a, d) *= 0.02f;
    // Flat 1000, dark 10: the loader must undo both and -log.
    EXPECT_TRUE(
        writeDxchange(file, test::acquisitionOf(written.sinograms, written.geometry.angles()))
            .isOk());
    return written;
}

TEST(OpenDataFile, DxchangeAcquisitionIsNormalisedWithItsFlatsAndAngles) {
    test::WindowFixture f;
    const std::filesystem::path file = f.dir.filePath(QStringLiteral("scan.h5")).toStdString();
    const app::Dataset written = writePhantomDxchange(file);
    app::LoadRequest request;
    request.path = file;
    request.endDegrees = 90.0;  // ignored: the file's own angles (0..180) win
    QList<QVariant> done = openAndWait(f, request);
    ASSERT_EQ(done.size(), 3);
    ASSERT_TRUE(done.at(1).toBool()) << done.at(2).toString().toStdString();
    // float32 counts: relative rounding ~6e-8, i.e. ~1e-7 in -log; 1e-5 allows the divisions.
    expectLoadedAndReconstructs(f, written, file, 1e-5f);
}

TEST(OpenDataFile, APathAsOnTheCommandLineOpensAndReconstructsADxchangeFile) {
    test::WindowFixture f;
    const std::filesystem::path file = f.dir.filePath(QStringLiteral("scan.h5")).toStdString();
    const app::Dataset written = writePhantomDxchange(file);
    QSignalSpy finished(&f.session, &Session::jobFinished);
    ASSERT_TRUE(f.window->openAndReconstruct(file));  // what `tomostation scan.h5` calls
    ASSERT_TRUE(waitFor(finished, 2, 30000));
    ASSERT_TRUE(finished.at(1).at(1).toBool()) << finished.at(1).at(2).toString().toStdString();
    EXPECT_EQ(finished.at(1).at(0).value<Session::JobKind>(), Session::JobKind::Reconstruct);
    auto recon = f.session.reconstruction();
    ASSERT_NE(recon, nullptr);
    auto phantom = Phantom::fromName("shepp-logan", 16.0);
    ASSERT_TRUE(phantom.isOk());
    Volume truth;
    ASSERT_TRUE(phantom->rasterize(f.session.dataset()->grid, truth, 4, ExecContext{}).isOk());
    EXPECT_GT(correlation(recon->image.plane(0), truth.plane(0)), 0.9);
    EXPECT_TRUE(f.session.dataset()->warnings.empty());
}

TEST(OpenDataFile, ThePanelsRingSettingReachesTheSavedFilesProvenance) {
    test::WindowFixture f;
    const std::filesystem::path file = f.dir.filePath(QStringLiteral("scan.h5")).toStdString();
    (void)writePhantomDxchange(file);
    QSignalSpy finished(&f.session, &Session::jobFinished);
    ASSERT_TRUE(f.window->openAndReconstruct(file));
    ASSERT_TRUE(waitFor(finished, 2, 30000));
    PreprocessPanel& panel = *f.window->preprocessPanel();
    EXPECT_EQ(describe(panel.options()), "none");  // the defaults change nothing

    // A user picks the sorting ring filter, window 5: the preview shows its effect at once.
    panel.setRings(RingMethod::Sorting, 5);
    const SliceView* before = panel.beforeView();
    const SliceView* after = panel.afterView();
    ASSERT_TRUE(before->hasImage() && after->hasImage());
    double changed = 0;
    for (int y = 0; y < before->imageHeight(); ++y)
        for (int x = 0; x < before->imageWidth(); ++x)
            changed += std::fabs(before->valueAt(x, y) - after->valueAt(x, y));
    EXPECT_GT(changed, 0.0);

    ASSERT_TRUE(f.window->applyPreprocessing());
    ASSERT_TRUE(waitFor(finished, 4, 30000));
    ASSERT_TRUE(finished.at(3).at(1).toBool()) << finished.at(3).at(2).toString().toStdString();
    EXPECT_NE(f.session.dataset()->preprocessing.find("rings vo size 5"), std::string::npos)
        << f.session.dataset()->preprocessing;
    // The same scan read again: the result without the ring filter stays to compare with.
    CompareTab& compare = *f.window->resultViews()->compare();
    ASSERT_EQ(compare.historySize(), 2u);
    EXPECT_TRUE(compare.choices()[1].contains(QStringLiteral("rings vo size 5")))
        << compare.choices()[1].toStdString();
    EXPECT_FALSE(compare.choices()[2].contains(QStringLiteral("rings")));

    const std::filesystem::path out = f.dir.filePath(QStringLiteral("recon.h5")).toStdString();
    ASSERT_TRUE(f.window->fileActions()->saveReconstruction(out).isOk());
    auto provenance = readHdf5Provenance(out);
    ASSERT_TRUE(provenance.isOk()) << provenance.status().toString();
    EXPECT_NE((*provenance)["preprocessing"].find("rings vo size 5"), std::string::npos);
    EXPECT_EQ((*provenance)["algorithm"], "fbp");
    EXPECT_EQ((*provenance)["input"], file.string());
    auto back = readHdf5Volume(out);
    ASSERT_TRUE(back.isOk());
    EXPECT_EQ(back->dims(), f.session.reconstruction()->image.dims());
}

TEST(OpenDataFile, FlatsPaganinLogAndCropsFromThePanelReachTheLoadedData) {
    test::WindowFixture f;
    const std::filesystem::path file = f.dir.filePath(QStringLiteral("scan.h5")).toStdString();
    const app::Dataset written = writePhantomDxchange(file);
    QSignalSpy finished(&f.session, &Session::jobFinished);
    ASSERT_TRUE(f.window->openAndReconstruct(file));
    ASSERT_TRUE(waitFor(finished, 2, 30000));
    const std::size_t columns = written.sinograms.dim(2);

    // Flats before and after (1 before), Paganin, -log off, rows 0..1 and a column crop.
    PreprocessPanel& panel = *f.window->preprocessPanel();
    panel.setFlatsBefore(1);
    PaganinOptions paganin;
    paganin.energyKeV = 25;
    paganin.distanceMm = 50;
    paganin.pixelSizeUm = 2;
    paganin.deltaOverBeta = 10;
    panel.setPaganin(paganin);
    auto* minusLog = panel.findChild<QCheckBox*>(QStringLiteral("minusLog"));
    ASSERT_NE(minusLog, nullptr);
    minusLog->setChecked(false);
    EXPECT_FALSE(panel.minusLog());
    const std::pair<const char*, int> crops[] = {{"rowFirst", 0},
                                                 {"rowLast", 1},
                                                 {"columnFirst", 2},
                                                 {"columnLast", static_cast<int>(columns) - 2}};
    for (const auto& [name, value] : crops) {
        auto* box = panel.findChild<QSpinBox*>(QString::fromLatin1(name));
        ASSERT_NE(box, nullptr) << name;
        box->setValue(value);
    }
    ASSERT_TRUE(f.window->applyPreprocessing());
    ASSERT_TRUE(waitFor(finished, 4, 30000));
    ASSERT_TRUE(finished.at(2).at(1).toBool()) << finished.at(2).at(2).toString().toStdString();
    const app::Dataset& data = *f.session.dataset();
    for (const char* step : {"interpolated flats, 1 before", "paganin 25", "crop rows 0:1"})
        EXPECT_NE(data.preprocessing.find(step), std::string::npos) << step << ": "
                                                                    << data.preprocessing;
    EXPECT_EQ(data.preprocessing.find("minus-log"), std::string::npos) << data.preprocessing;
    EXPECT_EQ(data.sinograms.dim(2), columns - 4);
    // Without -log the values are transmissions exp(-p) with p <= ~0.5 (Paganin keeps the mean).
    double sum = 0, lowest = 1e9;
    for (std::size_t a = 0; a < data.sinograms.dim(1); ++a)
        for (std::size_t d = 0; d < data.sinograms.dim(2); ++d) {
            sum += data.sinograms(0, a, d);
            lowest = std::min(lowest, static_cast<double>(data.sinograms(0, a, d)));
        }
    EXPECT_GT(lowest, 0.5);
    EXPECT_GT(sum / static_cast<double>(data.sinograms.dim(1) * data.sinograms.dim(2)), 0.8);
}
#endif

TEST(OpenDataFile, AFolderWithoutADatasetOrAMissingPathSaysWhatToOpen) {
    test::WindowFixture f;
    auto* status = f.window->findChild<QLabel*>(QStringLiteral("statusLabel"));
    ASSERT_NE(status, nullptr);
    const std::filesystem::path empty = f.dir.filePath(QStringLiteral("empty")).toStdString();
    std::filesystem::create_directory(empty);
    EXPECT_FALSE(f.window->openAndReconstruct(empty));
    EXPECT_FALSE(f.session.isBusy());
    EXPECT_TRUE(status->text().contains(QStringLiteral("is not a dataset folder")))
        << status->text().toStdString();
    EXPECT_TRUE(status->text().contains(QStringLiteral("Open data file")));
    EXPECT_FALSE(f.window->openAndReconstruct(empty / "scan.h5"));
    EXPECT_TRUE(status->text().contains(QStringLiteral("no such folder")))
        << status->text().toStdString();
    // No internal code names in what the user reads.
    EXPECT_FALSE(status->text().contains(QStringLiteral("not-found:")));
}

TEST(OpenDataFile, ATinyImageIsRefusedAndAPhotographIsFlagged) {
    if (!tiffSupported()) GTEST_SKIP() << "no TIFF support in this build";
    test::WindowFixture f;
    // 3 x 5: too small to be a sinogram; the message has no "invalid-data:" prefix.
    Array3<float> tiny(1, 3, 5);
    tiny.fill(1.0f);
    const std::filesystem::path tinyFile = f.dir.filePath(QStringLiteral("tiny.tif")).toStdString();
    ASSERT_TRUE(writeVolume(tinyFile, tiny).isOk());
    app::LoadRequest request;
    request.path = tinyFile;
    QList<QVariant> done = openAndWait(f, request);
    ASSERT_EQ(done.size(), 3);
    EXPECT_FALSE(done.at(1).toBool());
    EXPECT_TRUE(done.at(2).toString().contains(QStringLiteral("too small to be a sinogram")))
        << done.at(2).toString().toStdString();
    EXPECT_FALSE(done.at(2).toString().startsWith(QStringLiteral("invalid-data")));

    // A "photograph": dark sky over bright ground, row sums far from constant.
    Array3<float> photo(1, 64, 80);
    for (std::size_t r = 0; r < 64; ++r)
        for (std::size_t c = 0; c < 80; ++c)
            photo(0, r, c) = r < 32 ? 0.1f + 0.001f * c : 0.9f;
    const std::filesystem::path photoFile =
        f.dir.filePath(QStringLiteral("photo.tif")).toStdString();
    ASSERT_TRUE(writeVolume(photoFile, photo).isOk());
    request.path = photoFile;
    done = openAndWait(f, request);
    ASSERT_TRUE(done.at(1).toBool()) << done.at(2).toString().toStdString();
    ASSERT_EQ(f.session.dataset()->warnings.size(), 1u);
    EXPECT_NE(f.session.dataset()->warnings[0].find("may not be a sinogram"), std::string::npos);
    auto* label = f.window->findChild<QLabel*>(QStringLiteral("datasetLabel"));
    ASSERT_NE(label, nullptr);
    EXPECT_TRUE(label->text().contains(QStringLiteral("Warning: ")));
    // The demo's sinogram varies by well under the threshold (an exact parallel-beam sinogram).
    const app::Dataset demo = phantomSinogram();
    EXPECT_LT(app::rowSumVariation(demo.sinograms, 0), 0.02);
    EXPECT_GT(app::rowSumVariation(f.session.dataset()->sinograms, 0), 0.25);
}

TEST(OpenDataFile, CorruptFileReportsAndKeepsPreviousData) {
    test::WindowFixture f;
    ASSERT_TRUE(f.startDemo(32));
    auto before = f.session.dataset();
    const QString beforeName = f.session.datasetName();
    const float shown = f.window->sinogramView()->valueAt(10, 5);
    ASSERT_EQ(shown, before->sinograms(0, 5, 10));

    const std::filesystem::path file = f.dir.filePath(QStringLiteral("bad.tif")).toStdString();
    {
        std::ofstream out(file, std::ios::binary);
        out << "this is not a TIFF file at all, just text";
    }
    app::LoadRequest request;
    request.path = file;
    QList<QVariant> done = openAndWait(f, request);
    ASSERT_EQ(done.size(), 3);
    EXPECT_EQ(done.at(0).value<Session::JobKind>(), Session::JobKind::Load);
    EXPECT_FALSE(done.at(1).toBool());
    EXPECT_TRUE(done.at(2).toString().contains(QStringLiteral("bad.tif")))
        << done.at(2).toString().toStdString();

    EXPECT_EQ(f.session.dataset(), before);  // the same published object
    EXPECT_EQ(f.session.datasetName(), beforeName);
    EXPECT_NE(f.session.reconstruction(), nullptr);
    EXPECT_EQ(f.window->sinogramView()->valueAt(10, 5), shown);
    EXPECT_FALSE(
        f.window->fileActions()->recent().list().contains(QString::fromStdString(file.string())));
}

}  // namespace
}  // namespace tomo::ui
