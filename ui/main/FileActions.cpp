#include "ui/main/FileActions.h"

#include "tomo/config.h"

#include <QInputDialog>
#include <QLineEdit>

#include <utility>

#include <QFileDialog>
#include <QFileInfo>
#include <QImage>
#include <QJsonDocument>
#include <QMenu>
#include <QMessageBox>
#include <QPixmap>

#include "app/data/AcquisitionLoader.h"
#include "app/data/DataFormats.h"
#include "app/jobs/RawShape.h"
#include "core/io/ImageIO.h"
#include "ui/main/ConeActions.h"
#include "ui/main/MainWindow.h"
#include "ui/main/OpenDataDialog.h"
#include "ui/main/SessionBinding.h"
#include "ui/session/SessionFile.h"
#include "ui/views/ImageView.h"

namespace tomo::ui {

namespace {
std::filesystem::path toPath(const QString& s) {
    return std::filesystem::path(s.toStdString());
}

/// True for an HDF5 file that holds a reconstruction volume and no acquisition.
bool isReconstructionFile(const FileFormat& format, const std::filesystem::path& file) {
    if (!app::isAcquisitionFormat(format) || !format.describe) return false;
    Result<FileDescription> d = format.describe(file, ReadOptions{});
    if (!d || d->acquisition) return false;
    for (const DatasetInfo& info : d->datasets)
        if (info.path == "/reconstruction/data") return true;
    return false;
}

}  // namespace

FileActions::FileActions(MainWindow& window)
    : QObject(&window), m_window(window), m_recent(window.settings()) {
    connect(&window.session(), &Session::jobFinished, this,
            [this](Session::JobKind kind, bool ok, const QString&) {
                if (kind != Session::JobKind::Load) return;
                const QString file = std::exchange(m_pendingRecent, QString());
                // A session's data that failed to load: its centre must not reach later data.
                if (!ok) m_pendingCenter.reset();
                if (auto cone = m_window.session().coneDataset(); ok && cone && file.isEmpty()) {
                    addConeRecent(cone->request);
                    return;
                }
                if (!ok || file.isEmpty()) return;
                m_recent.add(file);
                refreshRecent();
            });
}

void FileActions::populate(QMenu* menu) {
    m_openFile = menu->addAction(tr("&Open data file..."), this, &FileActions::openDataFileDialog);
    m_openFile->setShortcut(QKeySequence::Open);
    m_open = menu->addAction(tr("Open dataset &folder..."), this, &FileActions::openDatasetFolder);
    m_openCone = menu->addAction(tr("Open &cone-beam dataset..."), m_window.coneActions(),
                                 &ConeActions::openDialog);
    m_openCone->setToolTip(tr("Projections and an RTK XML or JSON geometry: FDK"));
    m_recentMenu = menu->addMenu(tr("Open &recent"));
    m_openSession = menu->addAction(tr("Open sess&ion..."), this, &FileActions::openSessionDialog);
    menu->addAction(tr("Save s&ession..."), this, &FileActions::saveSessionDialog);
    menu->addSeparator();
    m_openReference = menu->addAction(tr("Open reference image (&golden)..."), this,
                                      &FileActions::openReferenceDialog);
    QAction* openVolume = menu->addAction(tr("Open reco&nstruction (volume)..."), this,
                                          &FileActions::openVolumeDialog);
    openVolume->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
    m_saveVolume = menu->addAction(tr("&Save reconstruction (volume)..."), this,
                                   &FileActions::saveVolumeDialog);
    m_saveVolume->setShortcut(QKeySequence::Save);
    m_saveSlice = menu->addAction(tr("Save s&lice..."), this, &FileActions::saveSliceDialog);
    menu->addAction(tr("Save screens&hot..."), this, &FileActions::saveScreenshotDialog);
    menu->addSeparator();
    QAction* quit = menu->addAction(tr("&Quit"), &m_window, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);
    refreshRecent();
    setBusy(false);
}

void FileActions::setBusy(bool busy) {
    m_busy = busy;
    for (QAction* a : {m_openFile, m_open, m_openCone, m_openSession, m_openReference})
        if (a) a->setEnabled(!busy);
    if (m_recentMenu) m_recentMenu->setEnabled(!busy);
    setHasResult(m_hasResult);
}

void FileActions::setHasResult(bool hasResult) {
    m_hasResult = hasResult;
    if (m_saveVolume) m_saveVolume->setEnabled(hasResult && !m_busy);
    if (m_saveSlice) m_saveSlice->setEnabled(hasResult);
}

void FileActions::refreshRecent() {
    if (!m_recentMenu) return;
    m_recentMenu->clear();
    for (const QString& path : m_recent.list())
        m_recentMenu->addAction(
            m_recent.coneRequest(path).isEmpty() ? path : tr("%1 (cone beam)").arg(path), this,
            [this, path] { openRecent(path); });
    if (m_recentMenu->isEmpty()) m_recentMenu->addAction(tr("(none)"))->setEnabled(false);
}

bool FileActions::confirmReplace() {
    // Asked only while there is a result that was not saved since it was made.
    if (!m_window.session().resultUnsaved()) return true;
    return m_window.confirm(tr("Replace the data"),
                            tr("The current reconstruction has not been saved and will be "
                               "discarded. Open the other data anyway?"));
}

void FileActions::addConeRecent(const app::ConeOpenRequest& request) {
    const QByteArray json =
        QJsonDocument(coneToJson(ConeSession::of(request))).toJson(QJsonDocument::Compact);
    m_recent.addCone(QString::fromStdString(request.projections.string()), QString::fromUtf8(json));
    refreshRecent();
}

void FileActions::openRecent(const QString& path) {
    if (const QString cone = m_recent.coneRequest(path); !cone.isEmpty()) {
        const Result<ConeSession> c =
            coneFromJson(QJsonValue(QJsonDocument::fromJson(cone.toUtf8()).object()));
        if (!c) {
            m_window.report(tr("Open recent"), c.status());
            return;
        }
        if (confirmReplace() && !m_window.coneActions()->openCone(c->request()))
            m_window.showStatus(tr("Busy: wait for the running job"));
        return;
    }
    if (path.endsWith(QStringLiteral(".json"))) {
        if (!confirmReplace()) return;
        m_window.report(tr("Open session"), openSession(toPath(path)));
        return;
    }
    openPath(toPath(path));
}

Result<QString> FileActions::dataFileFilters() {
    TOMO_ASSIGN_OR_RETURN(FormatRegistry registry, app::makeFormatRegistry());
    QStringList filters;
    QStringList all;
    for (const FileFormat& format : registry.formats()) {
        if (!format.readVolume && !format.openAcquisition) continue;
        QStringList patterns;
        for (const std::string& ext : format.extensions)
            patterns << QStringLiteral("*") + QString::fromStdString(ext);
        all << patterns;
        const std::string label = format.description.empty() ? format.name : format.description;
        filters << QStringLiteral("%1 (%2)").arg(QString::fromStdString(label),
                                                 patterns.join(QLatin1Char(' ')));
    }
    if (all.isEmpty()) return unsupported("this build reads no data file formats");
    filters.prepend(tr("All data files (%1)").arg(all.join(QLatin1Char(' '))));
    return filters.join(QStringLiteral(";;"));
}

bool FileActions::openDataFile(const app::LoadRequest& request) {
    const QString name = QString::fromStdString(request.path.string());
    if (!m_window.session().startLoadFile(request, name)) return false;
    m_pendingRecent = name;
    return true;
}

bool FileActions::askAndOpen(const std::filesystem::path& file) {
    app::LoadRequest request;
    request.path = file;
    auto registry = app::makeFormatRegistry();
    if (!registry) {
        m_window.report(tr("Open data file"), registry.status());
        return false;
    }
    std::error_code ec;
    if (!std::filesystem::is_regular_file(file, ec)) {
        m_window.report(tr("Open data file"), notFound(file.string() + ": no such file"));
        return false;
    }
    auto format = registry->forPath(file);
    if (!format) {
        m_window.report(tr("Open data file"), format.status());
        return false;
    }
    if (isReconstructionFile(**format, file)) {
        // A reconstruction (ours: /reconstruction/data): opened as one, slice by slice.
        const Status opened = openVolume(file);
        m_window.report(tr("Open data file"), opened);
        if (opened)
            m_window.showStatus(tr("%1 holds a reconstruction: opened it in its own window")
                                    .arg(QString::fromStdString(file.string())));
        return false;
    }
    if (!app::isAcquisitionFormat(**format)) {
        // Sinogram stacks carry no angles (and raw files no shape): ask, as tomo recon does.
        auto asked = OpenDataDialog::ask(&m_window, file, (*format)->name == "raw");
        if (!asked) return false;
        request = *asked;
    }
    // Asked only once the file is known to be readable as a format of the build (a failed
    // load keeps the current data and result anyway).
    if (!confirmReplace()) return false;
    return openDataFile(request);
}

void FileActions::openDataFileDialog() {
    auto filters = dataFileFilters();
    if (!filters) {
        m_window.report(tr("Open data file"), filters.status());
        return;
    }
    QString file = QFileDialog::getOpenFileName(&m_window, tr("Open data file"), {}, *filters);
    if (file.isEmpty()) return;
    askAndOpen(toPath(file));
}

Status FileActions::openVolume(const std::filesystem::path& file, const ReadOptions& options) {
    TOMO_ASSIGN_OR_RETURN(app::PlaneCache cache, app::PlaneCache::open(file, options));
    // What made the volume, where the format stores it (HDF5 attributes).
    std::map<std::string, std::string> provenance;
    if (auto registry = app::makeFormatRegistry())
        if (auto format = registry->forPath(file); format && (*format)->describe)
            if (auto described = (*format)->describe(file, options)) {
                provenance = described->metadata;
                provenance.erase("axes");
            }
    auto* browser = new VolumeBrowser(
        std::move(cache), QString::fromStdString(file.filename().string()), provenance, &m_window);
    browser->setWindowFlag(Qt::Window);
    browser->setAttribute(Qt::WA_DeleteOnClose);
    browser->resize(640, 700);
    browser->show();
    m_lastBrowser = browser;
    return Status::ok();
}

Status FileActions::openReference(const std::filesystem::path& file) {
    TOMO_ASSIGN_OR_RETURN(FormatRegistry registry, app::makeFormatRegistry());
    TOMO_ASSIGN_OR_RETURN(Volume reference, registry.readVolume(file, ReadOptions{}));
    return m_window.session().setReference(std::move(reference)).withContext(file.string());
}

void FileActions::openReferenceDialog() {
    const QString file = QFileDialog::getOpenFileName(
        &m_window, tr("Open reference image (the ground truth of this dataset)"), {},
        tr("Volumes (*.h5 *.hdf5 *.tif *.tiff *.mha *.mhd *.nrrd)"));
    if (file.isEmpty()) return;
    const Status status = openReference(file.toStdString());
    m_window.report(tr("Open reference image"), status);
    if (status) m_window.showStatus(tr("Reference image: %1").arg(file));
}

void FileActions::openVolumeDialog() {
    const QString file =
        QFileDialog::getOpenFileName(&m_window, tr("Open reconstruction (read slice by slice)"), {},
                                     tr("Volumes (*.h5 *.hdf5 *.tif *.tiff *.raw *.f32 *.bin)"));
    if (file.isEmpty()) return;
    ReadOptions options;
    if (file.endsWith(QStringLiteral(".raw")) || file.endsWith(QStringLiteral(".f32")) ||
        file.endsWith(QStringLiteral(".bin"))) {
        // Raw volumes carry no shape: ask for it (slices x rows x columns).
        // Suggested from the file's size: square slices, as many as fit.
        QString suggested;
        std::error_code ec;
        const auto floats = app::rawFloats(std::filesystem::file_size(toPath(file), ec));
        if (auto shape = floats ? app::squareStackShape(*floats) : std::nullopt; shape && !ec)
            suggested =
                QStringLiteral("%1x%2x%3").arg((*shape)[0]).arg((*shape)[1]).arg((*shape)[2]);
        bool ok = false;
        const QString text = QInputDialog::getText(
            &m_window, tr("Raw volume"),
            floats ? tr("Shape: SLICES x ROWS x COLUMNS (float32; the file holds %1 values)")
                         .arg(*floats)
                   : tr("Shape: SLICES x ROWS x COLUMNS (float32)"),
            QLineEdit::Normal, suggested, &ok);
        if (!ok) return;
        const QStringList parts = text.split(QLatin1Char('x'));
        std::array<std::size_t, 3> shape{};
        bool valid = parts.size() == 3;
        for (int i = 0; valid && i < 3; ++i)
            shape[i] = parts[i].trimmed().toULongLong(&valid);
        if (!valid) {
            m_window.report(
                tr("Open reconstruction"),
                invalidArgument(tr("'%1' is not SLICESxROWSxCOLUMNS").arg(text).toStdString()));
            return;
        }
        options.shape = shape;
    }
    m_window.report(tr("Open reconstruction"), openVolume(toPath(file), options));
}

Status FileActions::checkDatasetFolder(const std::filesystem::path& folder) {
    std::error_code ec;
    if (!std::filesystem::is_directory(folder, ec))
        return notFound(folder.string() + ": no such folder");
    if (!std::filesystem::is_regular_file(folder / "geometry.txt", ec))
        return invalidArgument(
            folder.string() +
            " is not a dataset folder: it has no geometry.txt. A dataset folder holds "
            "geometry.txt and sinogram.tif (optionally truth.tif), as `tomo demo --write-data "
            "DIR` writes them. To open a scan, use File > Open data file (HDF5 / NXtomo / "
            "DXchange, TIFF, raw, MetaImage, NRRD) or give the file to tomostation.");
    return Status::ok();
}

bool FileActions::openPath(const std::filesystem::path& path) {
    std::error_code ec;
    if (std::filesystem::is_regular_file(path, ec)) return askAndOpen(path);
    Status folder = checkDatasetFolder(path);
    if (!folder) {
        m_window.report(tr("Open"), folder);
        return false;
    }
    if (!confirmReplace() || !m_window.session().startLoad(path)) return false;
    m_recent.add(QString::fromStdString(path.string()));
    refreshRecent();
    return true;
}

void FileActions::openDatasetFolder() {
    QString dir = QFileDialog::getExistingDirectory(&m_window, tr("Open dataset folder"));
    if (!dir.isEmpty()) openPath(toPath(dir));
}

void FileActions::onDatasetLoaded() {
    if (!m_pendingCenter) return;
    SessionState state = *std::exchange(m_pendingCenter, std::nullopt);
    for (const std::string& f : applySessionCenter(m_window, state))
        QMessageBox::warning(&m_window, tr("Open session"), QString::fromStdString(f));
}

Status FileActions::saveSession(const std::filesystem::path& file) {
    TOMO_RETURN_IF_ERROR(saveSessionFile(file, captureSessionState(m_window)));
    m_recent.add(QString::fromStdString(file.string()));
    refreshRecent();
    return Status::ok();
}

Status FileActions::openSession(const std::filesystem::path& file) {
    TOMO_ASSIGN_OR_RETURN(SessionState state, loadSessionFile(file));
    bool loading = false;
    std::vector<std::string> failed = applySessionState(m_window, state, &loading);
    if (loading) m_pendingCenter = state;
    m_recent.add(QString::fromStdString(file.string()));
    refreshRecent();
    if (!failed.empty())
        return invalidArgument(
            file.string() + ": could not apply " + failed.front() +
            (failed.size() > 1 ? " (and " + std::to_string(failed.size() - 1) + " more)" : ""));
    return Status::ok();
}

Status FileActions::saveSlice(const std::filesystem::path& file) const {
    auto recon = m_window.session().reconstruction();
    if (!recon) return invalidArgument("there is no reconstruction to save yet");
    const std::string ext = file.extension().string();
    if (ext == ".png") {
        // As displayed: window/level and colour map applied.
        QImage image =
            renderImage(recon->image.plane(0), m_window.reconstructionView()->windowLevel(),
                        m_window.colorMap());
        if (!image.save(QString::fromStdString(file.string()), "PNG"))
            return ioError("cannot write " + file.string());
        return Status::ok();
    }
    // Values: one plane through the volume writers.
    Volume slice(1, recon->image.dim(1), recon->image.dim(2));
    for (std::size_t r = 0; r < slice.dim(1); ++r)
        for (std::size_t c = 0; c < slice.dim(2); ++c)
            slice(0, r, c) = recon->image(0, r, c);
    return writeVolume(file, slice).withContext("saving slice " + file.string());
}

Status FileActions::saveScreenshot(const std::filesystem::path& file) const {
    if (!m_window.grab().save(QString::fromStdString(file.string()), "PNG"))
        return ioError("cannot write " + file.string());
    return Status::ok();
}

void FileActions::openSessionDialog() {
    QString file = QFileDialog::getOpenFileName(&m_window, tr("Open session"), {},
                                                tr("TomoStation sessions (*.json)"));
    if (file.isEmpty() || !confirmReplace()) return;
    m_window.report(tr("Open session"), openSession(toPath(file)));
}

void FileActions::saveSessionDialog() {
    QString file =
        QFileDialog::getSaveFileName(&m_window, tr("Save session"), QStringLiteral("session.json"),
                                     tr("TomoStation sessions (*.json)"));
    if (!file.isEmpty()) m_window.report(tr("Save session"), saveSession(toPath(file)));
}

void FileActions::saveVolumeDialog() {
    // The formats this build writes, HDF5 (with its provenance attributes) first.
    const QString hdf5 = tr("HDF5 with provenance (*.h5)");
    const QString tiff32 = tr("TIFF float32 (*.tif *.tiff)");
    const QString tiff16 = tr("TIFF 16-bit, scaled to the data range (*.tif *.tiff)");
    const bool withHdf5 = TOMO_WITH_HDF5 != 0;
    QStringList filters;
    if (withHdf5) filters << hdf5;
    if (tiffSupported()) filters << tiff32 << tiff16;
    filters << tr("Raw float32 (*.raw)");
    QString chosen = filters.front();
    QString file = QFileDialog::getSaveFileName(
        &m_window, tr("Save reconstruction"),
        withHdf5 ? QStringLiteral("recon.h5") : QStringLiteral("recon.raw"),
        filters.join(QStringLiteral(";;")), &chosen);
    if (!file.isEmpty()) (void)saveReconstruction(toPath(file), chosen == tiff16);  // reported
}

Status FileActions::saveReconstruction(const std::filesystem::path& file, bool tiff16) {
    Status saved = m_window.session().saveReconstruction(file, tiff16);
    m_window.report(tr("Save reconstruction"), saved);
    if (saved) {
        const Volume& image = m_window.session().reconstruction()->image;
        m_window.showStatus(tr("Saved %1 slice(s) of %2 x %3 to %4")
                                .arg(image.dim(0))
                                .arg(image.dim(2))
                                .arg(image.dim(1))
                                .arg(QString::fromStdString(file.string())));
    }
    return saved;
}

void FileActions::saveSliceDialog() {
    QString file = QFileDialog::getSaveFileName(
        &m_window, tr("Save slice"), QStringLiteral("slice.png"),
        tr("PNG as displayed (*.png);;TIFF float32 (*.tif);;Raw float32 (*.raw)"));
    if (!file.isEmpty()) m_window.report(tr("Save slice"), saveSlice(toPath(file)));
}

void FileActions::reconstructToFileDialog() {
    const QString file = QFileDialog::getSaveFileName(
        &m_window, tr("Reconstruct to file (streamed a slab at a time)"),
        QStringLiteral("result.h5"), tr("HDF5 (*.h5);;TIFF float32 (*.tif);;Raw float32 (*.raw)"));
    if (!file.isEmpty()) m_window.reconstructToFile(toPath(file));
}

void FileActions::saveScreenshotDialog() {
    QString file = QFileDialog::getSaveFileName(
        &m_window, tr("Save screenshot"), QStringLiteral("tomostation.png"), tr("PNG (*.png)"));
    if (!file.isEmpty()) m_window.report(tr("Save screenshot"), saveScreenshot(toPath(file)));
}

}  // namespace tomo::ui
