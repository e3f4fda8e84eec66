#include "ui/main/MainWindow.h"

#include <algorithm>
#include <utility>

#include <QAction>
#include <QCloseEvent>
#include <QDockWidget>
#include <QLabel>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QSettings>
#include <QStatusBar>
#include <QTabWidget>
#include <QVBoxLayout>

#include "app/jobs/FieldOfView.h"
#include "ui/charts/ConvergenceDock.h"
#include "ui/main/ConeActions.h"
#include "ui/main/FileActions.h"
#include "ui/main/HelpWindow.h"
#include "ui/main/LivePreview.h"
#include "ui/main/MbirRestart.h"
#include "ui/main/ReconstructionTab.h"
#include "ui/main/ResultViews.h"
#include "ui/panels/AlgorithmPanel.h"
#include "ui/panels/CenterPanel.h"
#include "ui/panels/DevicesPanel.h"
#include "ui/panels/ParameterForm.h"
#include "ui/panels/PreprocessPanel.h"
#include "ui/teaching/ConeTeachingPanel.h"
#include "ui/teaching/TeachingPanel.h"
#include "ui/views/LineProfileView.h"
#include "ui/views/SliceView.h"
#include "ui/widgets/MetricsPanel.h"
#include "ui/widgets/ReconParamsPanel.h"
#include "ui/widgets/SamplingBox.h"

namespace tomo::ui {
namespace {

/// MBIR's mu_water (given or its default) for the HU curve; none for other algorithms.
std::optional<double> muWaterOf(const app::IterativeJobSpec& spec) {
    if (spec.algorithm != "mbir") return std::nullopt;
    Result<AlgorithmSpec> algorithm = findAlgorithm(spec.algorithm);
    if (!algorithm) return std::nullopt;
    Result<ParameterValues> values = ParameterValues::resolve(*algorithm, spec.parameters);
    return values ? std::optional(values->real("mu_water")) : std::nullopt;
}

}  // namespace

MainWindow::MainWindow(Session& session, QSettings& settings, QWidget* parent)
    : QMainWindow(parent), m_session(session), m_settings(settings) {
    setWindowTitle(tr("TomoStation"));
    setDockNestingEnabled(true);
    m_tabs = new QTabWidget(this);
    m_reconTab = new ReconstructionTab(this);
    m_sinogram = m_reconTab->sinogramView();
    m_recon = m_reconTab->reconstructionView();
    m_truth = m_reconTab->truthView();
    m_difference = m_reconTab->differenceView();
    m_tabs->addTab(m_reconTab, tr("Reconstruction"));
    connect(m_reconTab, &ReconstructionTab::hovered, this,
            [this](const QString& text) { m_hoverLabel->setText(text); });
    m_results = new ResultViews(m_reconTab->reconstructionView(), this);
    m_tabs->addTab(m_results->compareTab(), tr("Compare"));
    m_tabs->addTab(m_results->volumeTab(), tr("Volume"));
    m_teaching = new TeachingPanel(m_session.engine());
    m_coneTeaching = new ConeTeachingPanel(m_session.engine());
    // Each lesson in a scroll area: its plots must not set the window's minimum height.
    m_teachingTab = new QTabWidget(this);
    m_teachingTab->setObjectName(QStringLiteral("teachingLessons"));
    for (QWidget* lesson :
         {static_cast<QWidget*>(m_teaching), static_cast<QWidget*>(m_coneTeaching)}) {
        auto* scroll = new QScrollArea(m_teachingTab);
        scroll->setWidget(lesson);
        scroll->setWidgetResizable(true);
        m_teachingTab->addTab(
            scroll, lesson == m_teaching ? tr("Parallel beam (FBP)") : tr("Cone beam (FDK)"));
    }
    m_tabs->addTab(m_teachingTab, tr("Teaching"));
    setCentralWidget(m_tabs);
    createDocks();
    m_files = new FileActions(*this);
    createMenus();
    createStatusBar();
    resize(1280, 800);

    connect(&m_session, &Session::busyChanged, this, &MainWindow::onBusyChanged);
    connect(&m_session, &Session::progress, this, &MainWindow::onProgress);
    connect(&m_session, &Session::datasetChanged, this, &MainWindow::onDatasetChanged);
    connect(&m_session, &Session::reconstructionChanged, this,
            &MainWindow::onReconstructionChanged);
    connect(&m_session, &Session::iterationReported, this, &MainWindow::onIteration);
    connect(&m_session, &Session::previewChanged, this, &MainWindow::onPreview);
    connect(&m_session, &Session::jobFinished, this, &MainWindow::onJobFinished);
    connect(m_sampling, &SamplingBox::applied, this, &MainWindow::reconstruct);
    m_live = new LivePreview(m_session, this);
    m_mbirRestart = new MbirRestart(
        m_session, *m_algorithm,
        [this](std::shared_ptr<const Volume> initial) {
            return startIterative(std::move(initial));
        },
        this);
    connect(m_mbirRestart, &MbirRestart::restarted, this,
            [this] { m_statusLabel->setText(tr("MBIR: warm restart from the current image")); });
    connect(m_live, &LivePreview::ready, this, &MainWindow::onLivePreview);
    connect(paramsPanel(), &ReconParamsPanel::optionsChanged, this, &MainWindow::settingsChanged);
    connect(m_algorithm, &AlgorithmPanel::algorithmChanged, this, &MainWindow::settingsChanged);
    connect(m_algorithm->form(), &ParameterForm::valuesChanged, this, &MainWindow::settingsChanged);
    connect(m_preprocess, &PreprocessPanel::applyRequested, this, &MainWindow::applyPreprocessing);
    connect(m_center, &CenterPanel::applyRequested, this, &MainWindow::applyCenter);
    connect(&m_session, &Session::stateNote, this, [this](const QString& text) {
        report(tr("Dataset"), invalidArgument(text.toStdString()));
    });
    connect(m_reconTab, &ReconstructionTab::sliceChanged, m_preprocess,
            &PreprocessPanel::setPreviewSlice);
    // The Result panel measures the slice shown, not always the first.
    connect(m_reconTab, &ReconstructionTab::sliceChanged, this, [this](int slice) {
        auto recon = m_session.reconstruction();
        if (!recon || m_session.coneResult() || std::size_t(slice) >= recon->image.dim(0)) return;
        m_metrics->showResultSlice(slice, metricsOf(recon->image.plane(std::size_t(slice))));
    });
    connect(
        m_convergence, &ConvergenceDock::iterateSelected, this,
        [this](int iteration, std::shared_ptr<const app::SliceImage> slice) {
            m_reconTab->showIterate(
                slice->view(),
                tr("Iterate %1 of slice %2").arg(iteration).arg(m_reconTab->currentSlice() + 1));
            m_metrics->showImage(tr("iterate %1 (not the result)").arg(iteration),
                                 metricsOf(slice->view()), measuredOver());
            m_statusLabel->setText(
                tr("Showing iterate %1 (the result is unchanged)").arg(iteration));
        });
    auto showLesson = [this] {
        if (m_tabs->currentWidget() != m_teachingTab) return;
        if (m_teachingTab->currentIndex() == 0 && !m_teaching->result()) m_teaching->recompute();
        if (m_teachingTab->currentIndex() == 1 && !m_coneTeaching->result())
            m_coneTeaching->recompute();
    };
    connect(m_tabs, &QTabWidget::currentChanged, this, showLesson);
    connect(m_teachingTab, &QTabWidget::currentChanged, this, showLesson);
    connect(m_devices, &DevicesPanel::variantOverridden, this,
            [this](const QString& id) { paramsPanel()->setVariant(id.toStdString()); });
    onDatasetChanged();
    onBusyChanged(m_session.isBusy());
}

MainWindow::~MainWindow() = default;

ReconParamsPanel* MainWindow::paramsPanel() const {
    return m_algorithm->fbpPanel();
}

bool MainWindow::confirm(const QString& title, const QString& question) {
    if (!m_confirm) return true;
    return QMessageBox::question(this, title, question) == QMessageBox::Yes;
}

void MainWindow::startDemo(const app::DemoSpec& spec, const std::filesystem::path& folder) {
    m_reconstructWhenLoaded = m_session.startDemo(spec, folder);
}

std::optional<ImageMetrics> MainWindow::metricsOf(View2<const float> image) const {
    View2<const float> truth = m_reconTab->currentTruth();
    if (truth.rows() == 0) return std::nullopt;
    // Over the field of view, as the results' metrics (FieldOfView.h).
    if (auto data = m_session.dataset()) {
        const app::FieldOfView fov = app::fieldOfView(data->geometry, data->grid);
        if (image.rows() == std::size_t(fov.rows) && image.cols() == std::size_t(fov.cols)) {
            auto metrics = app::fieldOfViewMetrics(image, truth, fov);
            return metrics ? std::optional(*metrics) : std::nullopt;
        }
    }
    auto metrics = compareImages(image, truth);
    return metrics ? std::optional(*metrics) : std::nullopt;
}

QString MainWindow::measuredOver() const {
    auto data = m_session.dataset();
    return data ? QString::fromStdString(app::fieldOfView(data->geometry, data->grid).describe())
                : QString();
}

void MainWindow::settingsChanged() {
    updateRunBar();
    m_metrics->markOutOfDate();
    if (m_session.coneDataset()) {
        m_cone->requestPreview();
        return;
    }
    if (!m_session.dataset() || m_algorithm->isIterative()) return;
    m_live->request(m_algorithm->analyticOptions(), paramsPanel()->variantId(),
                    m_reconTab->currentSlice(), m_algorithm->analyticMethod());
}

void MainWindow::onLivePreview(std::shared_ptr<const app::SliceImage> image, int slice,
                               double seconds, const QString& description) {
    if (slice != m_reconTab->currentSlice() || m_session.isBusy()) return;
    m_reconTab->showIterate(image->view(),
                            tr("Preview: %1, slice %2 (%3 s). Reconstruct runs every slice")
                                .arg(description)
                                .arg(slice + 1)
                                .arg(seconds, 0, 'f', 2));
    m_metrics->showImage(tr("preview of slice %1 (not the result)").arg(slice + 1),
                         metricsOf(image->view()), measuredOver());
}

bool MainWindow::applyPreprocessing() {
    m_reconstructWhenLoaded =
        m_session.startReload(m_preprocess->options(), m_preprocess->minusLog());
    return m_reconstructWhenLoaded;
}

bool MainWindow::applyCenter(double center) {
    auto data = m_session.dataset();
    if (!data) return false;
    const double now = data->geometry.centerOfRotation();
    if (m_session.reconstruction() &&
        !confirm(tr("Apply the centre of rotation"),
                 tr("Set the dataset's centre of rotation to %1 px (now %2 px) and reconstruct "
                    "again? The current result stays in the Compare tab.")
                     .arg(center, 0, 'f', 2)
                     .arg(now, 0, 'f', 2)))
        return false;
    const Status set = m_session.setCenterOfRotation(center);
    m_center->showApplied(set);
    report(tr("Apply the centre of rotation"), set);
    if (!set) return false;
    reconstruct();
    return true;
}

bool MainWindow::openAndReconstruct(const std::filesystem::path& path) {
    m_reconstructWhenLoaded = m_files->openPath(path);
    return m_reconstructWhenLoaded;
}

bool MainWindow::openConeAndReconstruct(const app::ConeOpenRequest& request) {
    m_reconstructWhenLoaded = m_cone->openCone(request);
    return m_reconstructWhenLoaded;
}

void MainWindow::showStatus(const QString& text) {
    m_statusLabel->setText(text);
}

void MainWindow::report(const QString& title, const Status& status) {
    if (status) return;
    const QString message = QString::fromStdString(status.message());
    m_statusLabel->setText(message);
    if (!m_confirm) return;
    // Window-modal but not blocking: no nested event loop inside a signal handler.
    auto* box = new QMessageBox(QMessageBox::Warning, title, message, QMessageBox::Ok, this);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

bool MainWindow::reconstructToFile(const std::filesystem::path& file) {
    m_live->cancel();
    if (m_session.coneDataset() || m_algorithm->isIterative()) {
        m_statusLabel->setText(
            tr("Reconstruct to file streams FBP and gridrec; for this method "
               "use tomo recon ... -o FILE"));
        return false;
    }
    app::AnalyticMethod method = m_algorithm->analyticMethod();
    method.outputPath = file;
    const bool started = m_session.startReconstruct(m_algorithm->analyticOptions(),
                                                    paramsPanel()->variantId(), method);
    if (!started)
        m_statusLabel->setText(m_session.dataset() ? tr("Busy: wait for the running job")
                                                   : tr("Open a dataset first"));
    return started;
}

void MainWindow::reconstruct() {
    m_live->cancel();  // the full run supersedes any preview still pending or running
    if (m_session.coneDataset()) {
        m_cone->reconstruct();  // says why when nothing started
        return;
    }
    const bool started =
        m_algorithm->isIterative()
            ? startIterative()
            : m_session.startReconstruct(m_algorithm->analyticOptions(), paramsPanel()->variantId(),
                                         m_algorithm->analyticMethod());
    if (!started)
        m_statusLabel->setText(m_session.dataset() ? tr("Busy: wait for the running job")
                                                   : tr("Open a dataset first"));
}

bool MainWindow::startIterative(std::shared_ptr<const Volume> initial) {
    app::IterativeJobSpec spec;
    spec.algorithm = m_algorithm->algorithm();
    spec.parameters = m_algorithm->values();
    spec.backend = m_algorithm->backend();
    spec.previewSlice = m_reconTab->currentSlice();
    spec.initial = std::move(initial);
    return m_session.startIterative(spec);
}

void MainWindow::closeEvent(QCloseEvent* event) {
    if (m_session.isBusy() && !confirm(tr("Quit"), tr("A job is running. Cancel it and quit?"))) {
        event->ignore();
        return;
    }
    if (!m_session.isBusy() && m_session.resultUnsaved() &&
        !confirm(tr("Quit"), tr("The reconstruction has not been saved. Quit anyway?"))) {
        event->ignore();
        return;
    }
    m_session.cancel();
    event->accept();
}

void MainWindow::setColorMap(ColorMap map) {
    m_colorMap = map;
    // The difference stays grey: its window is symmetric around zero.
    for (SliceView* v : {m_sinogram, m_recon, m_truth})
        v->setColorMap(map);
}

void MainWindow::onBusyChanged(bool busy) {
    const bool ready = !busy && (m_session.dataset() || m_session.coneDataset());
    m_algorithm->setReady(ready);
    m_runAction->setEnabled(ready);
    m_runButton->setEnabled(ready);
    updateRunBar();
    m_files->setBusy(busy);
    m_cone->setBusy(busy);
    const bool iterating = busy && m_session.currentJob() == Session::JobKind::Iterate;
    for (QWidget* w : {static_cast<QWidget*>(m_progress), static_cast<QWidget*>(m_cancel),
                       static_cast<QWidget*>(m_etaLabel)})
        w->setVisible(busy);
    m_keep->setVisible(iterating);
    if (busy) {
        m_eta.reset();
        m_etaLabel->clear();
        m_progress->setValue(0);
        m_progress->setFormat(tr("starting %p%"));
        if (iterating) {
            m_convergence->clear();
            m_convergence->setAlgorithm(m_session.iterativeSpec().algorithm);
            m_convergence->setMuWater(muWaterOf(m_session.iterativeSpec()));
        }
        m_statusLabel->setText(m_session.currentJob() == Session::JobKind::Load
                                   ? tr("Loading dataset...")
                                   : tr("Reconstructing..."));
    }
}

void MainWindow::onProgress(double fraction, const QString& stage) {
    m_progress->setValue(static_cast<int>(std::lround(std::clamp(fraction, 0.0, 1.0) * 1000)));
    m_progress->setFormat(stage.isEmpty() ? tr("%p%") : stage + tr(" %p%"));
    m_eta.update(fraction);
    m_etaLabel->setText(
        QString::fromStdString(app::EtaEstimator::format(m_eta.remainingSeconds())));
}

void MainWindow::onDatasetChanged() {
    auto data = m_session.dataset();
    updateRunBar();
    m_coneTeaching->setDataset(m_session.coneDataset(), m_session.datasetName());
    m_cone->onDatasetChanged();
    updateRunBar();                 // FDK's filter or FBP's, as the cone-beam actions just chose
    if (m_session.coneDataset()) {  // labels, views and panels: ConeActions
        m_live->cancel();
        m_metrics->clear();
        m_convergence->clear();
        m_algorithm->setReady(!m_session.isBusy());
        return;
    }
    if (!data) {
        m_datasetLabel->setText(
            tr("No dataset. Use File > Open data file, File > Open dataset folder or "
               "File > Open cone-beam dataset."));
        m_reconTab->showDataset(nullptr);
        return;
    }
    m_datasetLabel->setText(datasetText(*data));
    // Every panel starts afresh: nothing of the previous data stays on screen.
    m_live->cancel();
    m_reconTab->showDataset(data);
    // What the first live preview needs on a device (FFT plans, programs, buffers) is made now,
    // while the user looks at the data (issue 27 item 4).
    if (!m_algorithm->isIterative())
        m_live->prepare(m_algorithm->analyticOptions(), paramsPanel()->variantId(),
                        m_reconTab->currentSlice(), m_algorithm->analyticMethod());
    // The same scan (another centre or sampling), or the same file read again (other
    // preprocessing), keeps its results to compare.
    const std::filesystem::path source =
        m_session.dataFile() ? m_session.dataFile()->path : std::filesystem::path();
    const bool sameScan =
        m_session.loadSerial() == m_shownSerial || (!source.empty() && source == m_shownSource);
    m_results->onDatasetChanged(data, sameScan);
    m_shownSource = source;
    m_shownSerial = m_session.loadSerial();
    m_metrics->clear();
    m_convergence->clear();
    m_algorithm->setReady(!m_session.isBusy());
    // A result of earlier settings of this scan stays on screen, marked, until a new one.
    if (m_session.reconstruction()) onReconstructionChanged();
}

QString MainWindow::datasetText(const app::Dataset& data) const {
    const ParallelGeometry& g = data.geometry;
    const app::DatasetState& state = m_session.state();
    QString text = tr("%1\n%2 angles x %3 detectors, %4 slice(s); image %5 x %6; centre %7 px (%8)")
                       .arg(m_session.datasetName())
                       .arg(g.angleCount())
                       .arg(g.detectorCount())
                       .arg(g.rows())
                       .arg(data.grid.nx)
                       .arg(data.grid.ny)
                       .arg(g.centerOfRotation(), 0, 'f', 2)
                       .arg(state.center ? tr("set") : tr("as read"));
    for (const std::string& line : app::describeState(state, data))
        if (!line.starts_with("centre"))
            text += QStringLiteral("\n") + QString::fromStdString(line);
    if (!data.warnings.empty())
        text += tr("\nWarning: %1").arg(QString::fromStdString(data.warnings.front()));
    return text;
}

QString MainWindow::staleNote() const {
    if (m_session.resultIsCurrent() || !m_session.reconstruction()) return {};
    const app::DatasetState& was = m_session.resultState();
    const app::DatasetState& now = m_session.state();
    QStringList changed;
    if (was.center != now.center) changed << tr("centre");
    if (!(was.source == now.source)) changed << tr("preprocessing");
    if (!(was.sampling == now.sampling)) changed << tr("region and sampling");
    return tr("made before the %1 changed: Reconstruct (Ctrl+R) to update")
        .arg(changed.isEmpty() ? tr("data") : changed.join(tr(", ")));
}

void MainWindow::onReconstructionChanged() {
    auto recon = m_session.reconstruction();
    m_files->setHasResult(recon != nullptr);
    const QString stale = staleNote();
    m_reconTab->showReconstruction(recon, stale);
    m_convergence->clearShown();
    if (!recon || recon->image.empty()) {
        m_metrics->clear();
        return;
    }
    m_results->onReconstruction(recon);
    if (m_session.coneResult()) {
        m_cone->showResult();
        return;
    }
    m_metrics->showOutcome(*recon, stale.isEmpty() ? QString() : tr("the result (%1)").arg(stale));
    m_statusLabel->setToolTip(QString());
    // One pass (FBP with any projector, gridrec): cpu.joseph is not in the variant registry.
    if (m_session.registry().contains(recon->variant) || recon->algorithm == "fbp" ||
        recon->algorithm == "gridrec") {
        m_statusLabel->setText(reconSummary(*recon, m_session.reconOptions()));
    } else {
        const SolverSummary& summary = m_session.lastSummary();
        // The stopping rule's result: the corner rule returns an earlier iterate than the last.
        const QString kept = summary.keptIteration
                                 ? tr(", result = iteration %1 (%2)")
                                       .arg(*summary.keptIteration)
                                       .arg(QString::fromStdString(summary.stopRule))
                                 : QString();
        m_statusLabel->setText(
            tr("%1 on %5: %2 iterations (%3)%6, %4 s")
                .arg(QString::fromStdString(recon->variant))
                .arg(summary.iterations)
                .arg(QString::fromLatin1(terminationReasonName(summary.reason)))
                .arg(summary.seconds, 0, 'f', 2)
                .arg(QString::fromStdString(m_session.lastIterativeRun().backend))
                .arg(kept));
        m_statusLabel->setToolTip(QString::fromStdString(summary.stopNote));
    }
}

void MainWindow::onIteration(int iteration) {
    m_convergence->addIteration(m_session.iterations().back());
    m_statusLabel->setText(tr("Iteration %1").arg(iteration));
}

void MainWindow::onPreview() {
    if (auto preview = m_session.preview())
        m_reconTab->showIterate(preview->view(), tr("Live: iteration %1 of slice %2")
                                                     .arg(m_session.iterations().size())
                                                     .arg(m_reconTab->currentSlice() + 1));
}

void MainWindow::onJobFinished(Session::JobKind kind, bool ok, const QString& message) {
    m_etaLabel->clear();
    if (!ok) {
        m_reconstructWhenLoaded = false;
        m_statusLabel->setText(message);
        if (kind == Session::JobKind::Iterate) {
            // Cancel: back to the previous result, not the last preview.
            onReconstructionChanged();
            m_statusLabel->setText(message);
        }
        if (!message.endsWith(QStringLiteral("cancelled")))
            report(tr("TomoStation"), invalidData(message.toStdString()));
        return;
    }
    if (kind == Session::JobKind::Iterate) m_convergence->finishRun();
    if (!message.isEmpty()) m_statusLabel->setText(message);  // a result written to a file
    if (kind == Session::JobKind::Load) {
        m_statusLabel->setText(tr("Loaded %1").arg(m_session.datasetName()));
        if (auto data = m_session.dataset(); data && !data->warnings.empty())
            report(tr("Check the data"), invalidData(data->warnings.front()));
        m_files->onDatasetLoaded();
        if (std::exchange(m_reconstructWhenLoaded, false)) reconstruct();
    }
}

}  // namespace tomo::ui
