// MainWindow's construction of its menus, docks and status bar, its panel navigation and the
// Help menu's windows (MainWindow.h); the window's behaviour is in MainWindow.cpp.
#include <algorithm>

#include <QAction>
#include <QActionGroup>
#include <QDockWidget>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QStatusBar>
#include <QTabWidget>
#include <QTimer>
#include <QVBoxLayout>

#include "tomo/config.h"
#include "ui/charts/ConvergenceDock.h"
#include "ui/main/ConeActions.h"
#include "ui/main/CopyAsPython.h"
#include "ui/main/FileActions.h"
#include "ui/main/MainWindow.h"
#include "ui/main/ResultViews.h"
#include "ui/panels/AlgorithmPanel.h"
#include "ui/panels/CenterPanel.h"
#include "ui/panels/ConeGeometryPanel.h"
#include "ui/panels/DevicesPanel.h"
#include "ui/panels/PreprocessPanel.h"
#include "ui/teaching/TeachingPanel.h"
#include "ui/views/ImageView.h"
#include "ui/views/LineProfileView.h"
#include "ui/views/SliceView.h"
#include "ui/widgets/ConeVolumeBox.h"
#include "ui/widgets/MetricsPanel.h"
#include "ui/widgets/ReconParamsPanel.h"
#include "ui/widgets/SamplingBox.h"
#include "ui/widgets/WheelGuard.h"

namespace tomo::ui {

void MainWindow::createMenus() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    m_files->populate(file);
    auto* copy = new CopyAsPython(m_session, file, this);  // File > Copy as Python (issue 30)
    connect(copy, &CopyAsPython::copied, this,
            [this](const QString& message) { m_statusLabel->setText(message); });

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
        for (SliceView* v : {m_sinogram, m_recon, m_truth})
            v->autoWindow();
    });
    view->addAction(tr("&Fit images"), this, [this] {
        for (SliceView* v : {m_sinogram, m_recon, m_truth, m_difference})
            if (auto* image = qobject_cast<ImageView*>(v)) image->fitToWindow();
    });
    QAction* profile = view->addAction(tr("&Line profile tool"));
    profile->setObjectName(QStringLiteral("lineProfileTool"));
    profile->setCheckable(true);
    profile->setToolTip(tr("Drag on the reconstruction to plot the values along a line"));
    connect(profile, &QAction::toggled, this, [this](bool on) {
        m_recon->setProfileToolEnabled(on);
        if (!on) return;
        showPanel(QStringLiteral("profile"));
        // A third of the window's height: the axes' labels are readable at once.
        resizeDocks({m_docks[QStringLiteral("profile")]}, {std::max(240, height() / 3)},
                    Qt::Vertical);
    });
    view->addSeparator();
    for (const auto& [name, dockWidget] : m_docks)
        view->addAction(dockWidget->toggleViewAction());

    QMenu* run = menuBar()->addMenu(tr("&Reconstruction"));
    m_runAction = run->addAction(tr("&Reconstruct"), this, &MainWindow::reconstruct);
    m_runAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_R));
    m_runAction->setShortcutContext(Qt::WindowShortcut);
    m_runAction->setToolTip(tr("Run the method of the Parameters dock on the dataset"));
    QAction* toFile = run->addAction(tr("Reconstruct to &file..."), m_files,
                                     &FileActions::reconstructToFileDialog);
    toFile->setToolTip(
        tr("FBP or gridrec streamed to a file a slab at a time, as tomo recon -o "
           "does: for a result too big to hold in memory"));
    run->addAction(tr("&Cancel the running job"), &m_session, &Session::cancel);

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    QAction* guide =
        help->addAction(tr("&User guide"), this, [this] { showHelp(HelpWindow::Page::UserGuide); });
    guide->setShortcut(QKeySequence::HelpContents);
    help->addAction(tr("&Keyboard and mouse"), this,
                    [this] { showHelp(HelpWindow::Page::Shortcuts); });
    help->addSeparator();
    help->addAction(tr("&About TomoStation"), this, &MainWindow::showAbout);
}

void MainWindow::createDocks() {
    auto addDock = [this](const QString& name, const QString& title, QWidget* content,
                          Qt::DockWidgetArea area) {
        auto* d = new QDockWidget(title, this);
        d->setObjectName(name + QStringLiteral("Dock"));
        d->setWidget(content);
        addDockWidget(area, d);
        m_docks[name] = d;
        return d;
    };
    m_cone = new ConeActions(*this);
    auto* params = new QWidget;
    auto* layout = new QVBoxLayout(params);
    m_datasetLabel = new QLabel(params);
    m_datasetLabel->setObjectName(QStringLiteral("datasetLabel"));
    m_datasetLabel->setWordWrap(true);
    m_algorithm = new AlgorithmPanel(m_session.registry(), params);
    m_sampling = new SamplingBox(m_session, params);
    auto* metricsBox = new QGroupBox(tr("Result"), params);
    m_metrics = new MetricsPanel(metricsBox);
    (new QVBoxLayout(metricsBox))->addWidget(m_metrics);
    layout->addWidget(m_datasetLabel);
    layout->addWidget(m_algorithm);
    layout->addWidget(m_sampling);
    layout->addWidget(m_cone->volumeBox());
    layout->addWidget(metricsBox);
    layout->addStretch(1);
    auto* scroll = new QScrollArea;
    scroll->setWidget(params);
    scroll->setWidgetResizable(true);
    scroll->setMinimumWidth(320);
    // The run bar stays under the scrolling form, always in view; its button takes no focus
    // from a click, so the form neither scrolls nor selects a field when it is pressed.
    auto* dockContent = new QWidget;
    auto* dockLayout = new QVBoxLayout(dockContent);
    dockLayout->setContentsMargins(0, 0, 0, 0);
    dockLayout->addWidget(scroll, 1);
    auto* runBar = new QWidget(dockContent);
    runBar->setObjectName(QStringLiteral("runBar"));
    auto* runLayout = new QHBoxLayout(runBar);
    runLayout->setContentsMargins(6, 2, 6, 4);
    m_runSummary = new QLabel(runBar);
    m_runSummary->setObjectName(QStringLiteral("runSummary"));
    m_runSummary->setWordWrap(true);
    m_runButton = new QPushButton(tr("Reconstruct"), runBar);
    m_runButton->setObjectName(QStringLiteral("reconstructButton"));
    m_runButton->setFocusPolicy(Qt::TabFocus);
    m_runButton->setToolTip(tr("Reconstruct the dataset with these settings (Ctrl+R)"));
    connect(m_runButton, &QPushButton::clicked, this, &MainWindow::reconstruct);
    runLayout->addWidget(m_runSummary, 1);
    runLayout->addWidget(m_runButton);
    dockLayout->addWidget(runBar);
    // The wheel scrolls the form unless a control has keyboard focus (WheelGuard.h).
    WheelGuard::install(dockContent);
    QDockWidget* parameters = addDock(QStringLiteral("parameters"), tr("Parameters"), dockContent,
                                      Qt::RightDockWidgetArea);
    // Preprocessing: a tab beside Parameters (it is applied by reloading, before them).
    m_preprocess = new PreprocessPanel(m_session);
    auto* preprocessScroll = new QScrollArea;
    preprocessScroll->setWidget(m_preprocess);
    preprocessScroll->setWidgetResizable(true);
    WheelGuard::install(preprocessScroll);
    QDockWidget* preprocessing = addDock(QStringLiteral("preprocessing"), tr("Preprocessing"),
                                         preprocessScroll, Qt::RightDockWidgetArea);
    tabifyDockWidget(parameters, preprocessing);
    parameters->raise();

    m_convergence = new ConvergenceDock;
    addDock(QStringLiteral("convergence"), tr("Convergence"), m_convergence,
            Qt::BottomDockWidgetArea);
    m_center = new CenterPanel(m_session);
    // The centre's preview and sweep reconstruct as Reconstruct would (filter, projector).
    m_center->setMethodSource([this] {
        CenterPanel::Method m{m_algorithm->analyticOptions().filter, paramsPanel()->variantId(),
                              m_algorithm->analyticMethod()};
        m.method.frontEnd = app::FrontEnd::Gui;
        return m;
    });
    QDockWidget* center = addDock(QStringLiteral("center"), tr("Centre of rotation"), m_center,
                                  Qt::BottomDockWidgetArea);
    m_devices = new DevicesPanel(m_session);
    QDockWidget* devices =
        addDock(QStringLiteral("devices"), tr("Devices"), m_devices, Qt::BottomDockWidgetArea);
    QDockWidget* cone = addDock(QStringLiteral("cone"), tr("Cone geometry"), m_cone->panel(),
                                Qt::BottomDockWidgetArea);
    addDock(QStringLiteral("profile"), tr("Line profile"), m_results->profileView(),
            Qt::RightDockWidgetArea);
    tabifyDockWidget(m_docks[QStringLiteral("convergence")], center);
    tabifyDockWidget(center, devices);
    tabifyDockWidget(devices, cone);
    m_docks[QStringLiteral("convergence")]->raise();
    // Shown by View > Line profile tool.
    m_docks[QStringLiteral("profile")]->hide();
    // The images get most of the height once the window has its size; the dock can be dragged
    // taller.
    QTimer::singleShot(0, this, [this] {
        resizeDocks({m_docks[QStringLiteral("convergence")]}, {height() / 3}, Qt::Vertical);
    });
}

void MainWindow::createStatusBar() {
    m_statusLabel = new QLabel(this);
    m_statusLabel->setObjectName(QStringLiteral("statusLabel"));
    m_hoverLabel = new QLabel(this);
    m_progress = new QProgressBar(this);
    m_progress->setRange(0, 1000);
    m_progress->setMinimumWidth(200);
    m_etaLabel = new QLabel(this);
    m_cancel = new QPushButton(tr("Cancel"), this);
    m_cancel->setToolTip(tr("Stop and discard: the previous result stays"));
    m_keep = new QPushButton(tr("Stop and keep"), this);
    m_keep->setToolTip(tr("Stop after this iteration and keep the current iterate"));
    connect(m_cancel, &QPushButton::clicked, &m_session, &Session::cancel);
    connect(m_keep, &QPushButton::clicked, &m_session, &Session::stopAndKeep);
    statusBar()->addWidget(m_statusLabel, 1);
    statusBar()->addPermanentWidget(m_hoverLabel);
    statusBar()->addPermanentWidget(m_progress);
    statusBar()->addPermanentWidget(m_etaLabel);
    statusBar()->addPermanentWidget(m_keep);
    statusBar()->addPermanentWidget(m_cancel);
}

QDockWidget* MainWindow::dock(const QString& name) const {
    auto it = m_docks.find(name);
    return it == m_docks.end() ? nullptr : it->second;
}

void MainWindow::showPanel(const QString& name) {
    if (name == QStringLiteral("teaching") || name == QStringLiteral("teaching-cone")) {
        m_teachingTab->setCurrentIndex(name == QStringLiteral("teaching") ? 0 : 1);
        m_tabs->setCurrentWidget(m_teachingTab);
    } else if (name == QStringLiteral("compare")) {
        m_tabs->setCurrentWidget(m_results->compareTab());
    } else if (name == QStringLiteral("volume")) {
        m_tabs->setCurrentWidget(m_results->volumeTab());
    } else if (name == QStringLiteral("reconstruction")) {
        m_tabs->setCurrentIndex(0);
    } else if (QDockWidget* d = dock(name)) {
        d->show();
        d->raise();
    }
}

void MainWindow::updateRunBar() {
    if (!m_runSummary) return;
    const FilterOptions& f = paramsPanel()->options().filter;
    const QString filter = tr("%1 %2").arg(paramsPanel()->filterName()).arg(f.cutoff, 0, 'f', 2);
    QString text;
    if (m_session.coneDataset()) {
        text = tr("FDK, filter %1").arg(filter);
    } else if (m_algorithm->algorithm() == "gridrec") {  // its own filter, in its form
        const auto values = m_algorithm->values();
        const auto value = [&](const char* name, const char* fallback) {
            auto it = values.find(name);
            return QString::fromStdString(it != values.end() ? it->second : fallback);
        };
        text = tr("Gridrec, filter %1 %2")
                   .arg(value("filter", "ramp"))
                   .arg(value("cutoff", "1").toDouble(), 0, 'f', 2);
    } else if (m_algorithm->isIterative()) {
        const auto values = m_algorithm->values();
        auto it = values.find("iterations");
        text = QString::fromStdString(m_algorithm->algorithm()).toUpper() +
               (it != values.end() ? tr(", %1 iterations").arg(QString::fromStdString(it->second))
                                   : QString());
    } else {
        text = tr("FBP, filter %1").arg(filter);
        if (paramsPanel()->projector() == "joseph") text += tr(", Joseph projector");
    }
    if (m_session.isBusy()) text = tr("Running: %1").arg(text);
    m_runSummary->setText(text);
}

QString MainWindow::currentPanel() const {
    if (m_tabs->currentWidget() == m_teachingTab)
        return m_teachingTab->currentIndex() == 0 ? QStringLiteral("teaching")
                                                  : QStringLiteral("teaching-cone");
    if (m_tabs->currentWidget() == m_results->compareTab()) return QStringLiteral("compare");
    if (m_tabs->currentWidget() == m_results->volumeTab()) return QStringLiteral("volume");
    for (const auto& [name, d] : m_docks)
        if (name != QStringLiteral("parameters") && d->isVisible() && !d->visibleRegion().isEmpty())
            return name;
    return QStringLiteral("reconstruction");
}

HelpWindow* MainWindow::showHelp(HelpWindow::Page page) {
    QList<QAction*> actions;
    for (QAction* menu : menuBar()->actions())
        if (menu->menu()) actions += menu->menu()->actions();
    auto* window = new HelpWindow(page, actions, this);
    window->setAttribute(Qt::WA_DeleteOnClose);
    window->show();
    return window;
}

void MainWindow::showAbout() {
    QMessageBox::about(
        this, tr("About TomoStation"),
        tr("<b>TomoStation %1</b><p>CT reconstruction workstation: filtered back-projection "
           "and iterative methods with selectable back-projector variants, convergence and "
           "L-curve, centre-of-rotation tuning and a teaching mode.</p>"
           "<p>Build: %2, %3. Back-projector variants: %4.</p>")
            .arg(QStringLiteral(TOMO_VERSION), QStringLiteral(TOMO_BUILD_TYPE),
                 QStringLiteral(TOMO_CXX_COMPILER))
            .arg(m_session.registry().list().size()));
}

}  // namespace tomo::ui
