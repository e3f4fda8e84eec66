#include "ui/main/MainWindow.h"

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QFileDialog>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QStatusBar>
#include <QVBoxLayout>

#include "core/io/ImageIO.h"
#include "tomo/config.h"
#include "ui/views/ImageView.h"
#include "ui/widgets/MetricsPanel.h"
#include "ui/widgets/ReconParamsPanel.h"

namespace tomo::ui {

namespace {

/// A titled frame around an image view.
QGroupBox* framed(const QString& title, ImageView* view) {
    auto* box = new QGroupBox(title);
    auto* layout = new QVBoxLayout(box);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addWidget(view);
    view->setTitle(title);
    return box;
}

/// image - reference for one plane, densely stored; empty when the shapes differ.
std::vector<float> difference(View2<const float> image, View2<const float> reference) {
    std::vector<float> diff;
    if (image.rows() != reference.rows() || image.cols() != reference.cols()) return diff;
    diff.resize(image.rows() * image.cols());
    for (std::size_t r = 0; r < image.rows(); ++r)
        for (std::size_t c = 0; c < image.cols(); ++c)
            diff[r * image.cols() + c] = image(r, c) - reference(r, c);
    return diff;
}

}  // namespace

MainWindow::MainWindow(Session& session, QWidget* parent)
    : QMainWindow(parent), m_session(session) {
    setWindowTitle(tr("TomoStation"));
    createMenus();
    auto* central = new QWidget(this);
    auto* layout = new QHBoxLayout(central);
    layout->addWidget(createCentralViews(), 1);
    layout->addWidget(createSidePanel(), 0);
    setCentralWidget(central);
    createStatusBar();
    resize(1200, 800);

    connect(&m_session, &Session::busyChanged, this, &MainWindow::onBusyChanged);
    connect(&m_session, &Session::progress, this, &MainWindow::onProgress);
    connect(&m_session, &Session::datasetChanged, this, &MainWindow::onDatasetChanged);
    connect(&m_session, &Session::reconstructionChanged, this,
            &MainWindow::onReconstructionChanged);
    connect(&m_session, &Session::jobFinished, this, &MainWindow::onJobFinished);
    connect(m_params, &ReconParamsPanel::reconstructRequested, this, &MainWindow::reconstruct);
    onDatasetChanged();
    onBusyChanged(m_session.isBusy());
}

void MainWindow::createMenus() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    m_openAction =
        file->addAction(tr("&Open dataset folder..."), this, &MainWindow::openDatasetFolder);
    m_openAction->setShortcut(QKeySequence::Open);
    m_saveAction =
        file->addAction(tr("&Save reconstruction..."), this, &MainWindow::saveReconstruction);
    m_saveAction->setShortcut(QKeySequence::Save);
    file->addSeparator();
    QAction* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);

    QMenu* view = menuBar()->addMenu(tr("&View"));
    auto* maps = new QActionGroup(this);
    for (ColorMap map : {ColorMap::Grey, ColorMap::Inferno}) {
        QAction* a = view->addAction(tr("Colour map: %1").arg(colorMapName(map)), this,
                                     [this, map] { setColorMap(map); });
        a->setCheckable(true);
        a->setChecked(map == ColorMap::Grey);
        maps->addAction(a);
    }
    view->addSeparator();
    view->addAction(tr("&Auto window/level"), this, [this] {
        for (ImageView* v : {m_sinogram, m_recon, m_truth})
            v->autoWindow();
    });
    view->addAction(tr("&Fit images"), this, [this] {
        for (ImageView* v : {m_sinogram, m_recon, m_truth, m_difference})
            v->fitToWindow();
    });

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&About TomoStation"), this, &MainWindow::showAbout);
}

QWidget* MainWindow::createCentralViews() {
    m_sinogram = new ImageView;
    m_recon = new ImageView;
    m_truth = new ImageView;
    m_difference = new ImageView;
    auto* views = new QWidget;
    auto* grid = new QGridLayout(views);
    grid->setContentsMargins(0, 0, 0, 0);
    grid->addWidget(framed(tr("Sinogram"), m_sinogram), 0, 0);
    grid->addWidget(framed(tr("Reconstruction"), m_recon), 0, 1);
    grid->addWidget(framed(tr("Ground truth"), m_truth), 1, 0);
    grid->addWidget(framed(tr("Difference (reconstruction - truth)"), m_difference), 1, 1);
    for (ImageView* v : {m_sinogram, m_recon, m_truth, m_difference})
        connect(v, &ImageView::pixelHovered, this,
                [this](const QString& text) { m_hoverLabel->setText(text); });
    return views;
}

QWidget* MainWindow::createSidePanel() {
    auto* side = new QWidget;
    side->setMinimumWidth(280);
    auto* layout = new QVBoxLayout(side);
    layout->setContentsMargins(0, 0, 0, 0);

    auto* datasetBox = new QGroupBox(tr("Dataset"));
    m_datasetLabel = new QLabel(datasetBox);
    m_datasetLabel->setWordWrap(true);
    (new QVBoxLayout(datasetBox))->addWidget(m_datasetLabel);

    auto* paramsBox = new QGroupBox(tr("Filtered back-projection"));
    m_params = new ReconParamsPanel(m_session.registry(), paramsBox);
    (new QVBoxLayout(paramsBox))->addWidget(m_params);

    auto* metricsBox = new QGroupBox(tr("Result"));
    m_metrics = new MetricsPanel(metricsBox);
    (new QVBoxLayout(metricsBox))->addWidget(m_metrics);

    layout->addWidget(datasetBox);
    layout->addWidget(paramsBox);
    layout->addWidget(metricsBox);
    layout->addStretch(1);
    return side;
}

void MainWindow::createStatusBar() {
    m_statusLabel = new QLabel(this);
    m_hoverLabel = new QLabel(this);
    m_progress = new QProgressBar(this);
    m_progress->setRange(0, 1000);
    m_progress->setMinimumWidth(240);
    m_cancel = new QPushButton(tr("Cancel"), this);
    connect(m_cancel, &QPushButton::clicked, &m_session, &Session::cancel);
    statusBar()->addWidget(m_statusLabel, 1);
    statusBar()->addPermanentWidget(m_hoverLabel);
    statusBar()->addPermanentWidget(m_progress);
    statusBar()->addPermanentWidget(m_cancel);
}

void MainWindow::startDemo(const app::DemoSpec& spec, const std::filesystem::path& folder) {
    m_reconstructWhenLoaded = m_session.startDemo(spec, folder);
}

void MainWindow::openDatasetAndReconstruct(const std::filesystem::path& folder) {
    m_reconstructWhenLoaded = m_session.startLoad(folder);
}

void MainWindow::reconstruct() {
    if (!m_session.startReconstruct(m_params->options(), m_params->variantId()))
        m_statusLabel->setText(m_session.dataset() ? tr("Busy: wait for the running job")
                                                   : tr("Open a dataset first"));
}

void MainWindow::openDatasetFolder() {
    QString dir = QFileDialog::getExistingDirectory(this, tr("Open dataset folder"));
    if (dir.isEmpty()) return;
    m_reconstructWhenLoaded = false;
    m_session.startLoad(std::filesystem::path(dir.toStdString()));
}

void MainWindow::saveReconstruction() {
    QString filter = tiffSupported() ? tr("TIFF (*.tif *.tiff);;Raw float32 (*.raw)")
                                     : tr("Raw float32 (*.raw)");
    QString file = QFileDialog::getSaveFileName(
        this, tr("Save reconstruction"), tiffSupported() ? "recon.tif" : "recon.raw", filter);
    if (file.isEmpty()) return;
    Status status = m_session.saveReconstruction(std::filesystem::path(file.toStdString()));
    if (!status) {
        QMessageBox::warning(this, tr("Save reconstruction"),
                             QString::fromStdString(status.message()));
        return;
    }
    m_statusLabel->setText(tr("Saved %1").arg(file));
}

void MainWindow::showAbout() {
    QMessageBox::about(
        this, tr("About TomoStation"),
        tr("<b>TomoStation %1</b><p>CT reconstruction workstation: filtered back-projection "
           "with selectable back-projector variants, metrics against ground truth.</p>"
           "<p>Build: %2, %3. Back-projector variants: %4.</p>")
            .arg(QStringLiteral(TOMO_VERSION), QStringLiteral(TOMO_BUILD_TYPE),
                 QStringLiteral(TOMO_CXX_COMPILER))
            .arg(m_session.registry().list().size()));
}

void MainWindow::setColorMap(ColorMap map) {
    // The difference stays grey: its window is symmetric around zero.
    for (ImageView* v : {m_sinogram, m_recon, m_truth})
        v->setColorMap(map);
}

void MainWindow::onBusyChanged(bool busy) {
    m_params->setReady(!busy && m_session.dataset() != nullptr);
    m_openAction->setEnabled(!busy);
    m_saveAction->setEnabled(!busy && m_session.reconstruction() != nullptr);
    m_progress->setVisible(busy);
    m_cancel->setVisible(busy);
    if (busy) {
        m_progress->setValue(0);
        m_progress->setFormat(tr("starting %p%"));
        m_statusLabel->setText(m_session.currentJob() == Session::JobKind::Load
                                   ? tr("Loading dataset...")
                                   : tr("Reconstructing..."));
    }
}

void MainWindow::onProgress(double fraction, const QString& stage) {
    m_progress->setValue(static_cast<int>(std::lround(std::clamp(fraction, 0.0, 1.0) * 1000)));
    m_progress->setFormat(stage.isEmpty() ? tr("%p%") : stage + tr(" %p%"));
}

void MainWindow::onDatasetChanged() {
    auto data = m_session.dataset();
    if (!data) {
        m_datasetLabel->setText(tr("No dataset. Use File > Open dataset folder."));
        for (ImageView* v : {m_sinogram, m_truth})
            v->clear(tr("no dataset"));
        return;
    }
    const ParallelGeometry& g = data->geometry;
    m_datasetLabel->setText(tr("%1\n%2 angles x %3 detectors, %4 slice(s); image %5 x %6")
                                .arg(m_session.datasetName())
                                .arg(g.angleCount())
                                .arg(g.detectorCount())
                                .arg(g.rows())
                                .arg(data->grid.nx)
                                .arg(data->grid.ny));
    m_sinogram->setImage(data->sinograms.plane(0));
    if (data->truth.empty())
        m_truth->clear(tr("ground truth unknown"));
    else
        m_truth->setImage(data->truth.plane(0));
}

void MainWindow::onReconstructionChanged() {
    auto recon = m_session.reconstruction();
    auto data = m_session.dataset();
    m_saveAction->setEnabled(recon != nullptr && !m_session.isBusy());
    if (!recon || recon->image.empty()) {
        m_recon->clear(tr("not reconstructed yet"));
        m_difference->clear(tr("needs a reconstruction and a ground truth"));
        m_metrics->clear();
        return;
    }
    // Keep a window the user adjusted when the new image has the same size.
    bool sameSize = m_recon->hasImage() &&
                    m_recon->imageWidth() == static_cast<int>(recon->image.dim(2)) &&
                    m_recon->imageHeight() == static_cast<int>(recon->image.dim(1));
    m_recon->setImage(recon->image.plane(0), !sameSize);
    m_metrics->showOutcome(*recon);
    m_statusLabel->setText(reconSummary(*recon, m_session.reconOptions()));

    std::vector<float> diff;
    if (data && !data->truth.empty())
        diff = difference(recon->image.plane(0), data->truth.plane(0));
    if (diff.empty()) {
        m_difference->clear(tr("ground truth unknown"));
        return;
    }
    std::size_t cols = recon->image.dim(2);
    m_difference->setImage(View2<const float>(diff.data(), diff.size() / cols, cols, cols), false);
    // Symmetric window around 0 covering 99 % of the absolute differences.
    std::vector<float> magnitude(diff.size());
    std::transform(diff.begin(), diff.end(), magnitude.begin(),
                   [](float v) { return std::fabs(v); });
    WindowLevel wl = percentileWindow(magnitude, 0.0, 99.0);
    m_difference->setWindowLevel({2.0 * std::max(wl.high(), 1e-12), 0.0});
}

void MainWindow::onJobFinished(Session::JobKind kind, bool ok, const QString& message) {
    if (!ok) {
        m_reconstructWhenLoaded = false;
        m_statusLabel->setText(message);
        if (!message.endsWith(QStringLiteral("cancelled"))) {
            // Window-modal but not blocking: no nested event loop inside a signal handler.
            auto* box = new QMessageBox(QMessageBox::Warning, tr("TomoStation"), message,
                                        QMessageBox::Ok, this);
            box->setAttribute(Qt::WA_DeleteOnClose);
            box->open();
        }
        return;
    }
    if (kind == Session::JobKind::Load) {
        m_statusLabel->setText(tr("Loaded %1").arg(m_session.datasetName()));
        if (std::exchange(m_reconstructWhenLoaded, false)) reconstruct();
    }
}

}  // namespace tomo::ui
