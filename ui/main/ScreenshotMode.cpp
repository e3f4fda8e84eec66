#include "ui/main/ScreenshotMode.h"

#include <cstdio>

#include <QChartView>
#include <QCoreApplication>
#include <QDockWidget>
#include <QPixmap>
#include <QTabWidget>
#include <QTimer>

#include "ui/charts/ConvergenceDock.h"
#include "ui/main/ConeOpenDialog.h"
#include "ui/main/MainWindow.h"
#include "ui/main/ResultViews.h"
#include "ui/panels/AlgorithmPanel.h"
#include "ui/panels/CenterPanel.h"
#include "ui/panels/DevicesPanel.h"
#include "ui/panels/ParameterForm.h"
#include "ui/teaching/ConeTeachingPanel.h"
#include "ui/teaching/TeachingPanel.h"
#include "ui/views/ImageView.h"
#include "ui/views/LineProfileView.h"
#include "ui/views/SliceView.h"

namespace tomo::ui {

QStringList screenshotViews() {
    return {
        QStringLiteral("main"),          QStringLiteral("sinogram"),   QStringLiteral("slice"),
        QStringLiteral("truth"),         QStringLiteral("difference"), QStringLiteral("parameters"),
        QStringLiteral("convergence"),   QStringLiteral("lcurve"),     QStringLiteral("center"),
        QStringLiteral("sweep"),         QStringLiteral("devices"),    QStringLiteral("teaching"),
        QStringLiteral("compare"),       QStringLiteral("volume"),     QStringLiteral("profile"),
        QStringLiteral("preprocessing"), QStringLiteral("cone"),       QStringLiteral("open-cone"),
        QStringLiteral("teaching-cone"), QStringLiteral("mbir"),       QStringLiteral("gridrec")};
}

ScreenshotMode::ScreenshotMode(MainWindow& window, QString view, QString file, QSize size)
    : QObject(&window),
      m_window(window),
      m_view(std::move(view)),
      m_file(std::move(file)),
      m_size(size) {
    window.setConfirmations(false);
    connect(&window.session(), &Session::jobFinished, this,
            [this](Session::JobKind kind, bool ok, const QString& message) {
                if (!ok) return fail(1, message);
                if (kind == Session::JobKind::Reconstruct && m_prepared) capture();  // gridrec
                if (kind == Session::JobKind::Reconstruct && !m_prepared) onFirstReconstruction();
                if (kind == Session::JobKind::Iterate) capture();
            });
    QTimer::singleShot(120000, this, [this] { fail(3, QStringLiteral("timed out")); });
}

ScreenshotMode::~ScreenshotMode() {
    delete m_detached;
}

void ScreenshotMode::onFirstReconstruction() {
    m_prepared = true;
    if (m_view == QStringLiteral("convergence") || m_view == QStringLiteral("lcurve") ||
        m_view == QStringLiteral("compare")) {
        m_window.showPanel(m_view == QStringLiteral("compare") ? m_view
                                                               : QStringLiteral("convergence"));
        AlgorithmPanel* a = m_window.algorithmPanel();
        a->setAlgorithm("sirt");
        a->form()->setValues({{"iterations", "30"}});
        m_window.reconstruct();  // capture() follows its jobFinished
    } else if (m_view == QStringLiteral("mbir")) {
        // MBIR with the demo's soft tissue (0.2 per pixel) as water: the HU curve is readable.
        m_window.showPanel(QStringLiteral("convergence"));
        AlgorithmPanel* a = m_window.algorithmPanel();
        a->setAlgorithm("mbir");
        a->form()->setValues({{"iterations", "12"}, {"mu_water", "0.2"}, {"sharpness", "0.5"}});
        m_window.reconstruct();  // capture() follows its jobFinished
    } else if (m_view == QStringLiteral("gridrec")) {
        AlgorithmPanel* a = m_window.algorithmPanel();
        a->setAlgorithm("gridrec");
        a->form()->setValues({{"filter", "hann"}});
        m_window.reconstruct();  // capture() follows its jobFinished
    } else if (m_view == QStringLiteral("center") || m_view == QStringLiteral("sweep")) {
        m_window.showPanel(QStringLiteral("center"));
        CenterPanel* c = m_window.centerPanel();
        if (m_view == QStringLiteral("sweep")) {
            connect(c, &CenterPanel::sweepFinished, this, &ScreenshotMode::capture);
            c->runSweep();
        } else {
            connect(c, &CenterPanel::previewUpdated, this, &ScreenshotMode::capture);
            c->setCenter(c->center() + 2.0);  // an off-centre preview, debounced
        }
    } else if (m_view == QStringLiteral("teaching")) {
        m_window.showPanel(QStringLiteral("teaching"));
        connect(m_window.teachingPanel(), &TeachingPanel::computed, this, [this] {
            m_window.teachingPanel()->showFrame(m_window.teachingPanel()->frameCount() / 3);
            capture();
        });
        m_window.teachingPanel()->recompute();
    } else if (m_view == QStringLiteral("teaching-cone")) {
        ConeTeachingPanel* panel = m_window.coneTeachingPanel();
        connect(panel, &ConeTeachingPanel::computed, this, [this, panel] {
            panel->showFrame(panel->frameCount() / 3);
            capture();
        });
        m_window.showPanel(m_view);  // starts the lesson
        if (!panel->result() && !panel->isComputing()) panel->recompute();
    } else if (m_view == QStringLiteral("devices")) {
        m_window.showPanel(QStringLiteral("devices"));
        if (!m_window.devicesPanel()->devices().empty())
            capture();
        else
            connect(m_window.devicesPanel(), &DevicesPanel::devicesDiscovered, this,
                    &ScreenshotMode::capture);
    } else if (m_view == QStringLiteral("profile")) {
        SliceView* slice = m_window.reconstructionView();
        const double w = slice->imageWidth(), h = slice->imageHeight();
        slice->setProfileLine(QLineF(0.05 * w, 0.5 * h, 0.95 * w, 0.45 * h));
        capture();
    } else {
        if (m_view == QStringLiteral("volume")) m_window.showPanel(m_view);
        if (m_window.session().coneDataset()) m_window.showPanel(QStringLiteral("cone"));
        capture();
    }
}

void ScreenshotMode::capture() {
    if (m_done) return;
    m_done = true;
    QWidget* target = nullptr;
    if (m_view == QStringLiteral("sinogram"))
        target = m_window.sinogramView();
    else if (m_view == QStringLiteral("slice"))
        target = m_window.reconstructionView();
    else if (m_view == QStringLiteral("truth"))
        target = m_window.truthView();
    else if (m_view == QStringLiteral("difference"))
        target = m_window.differenceView();
    else if (m_view == QStringLiteral("parameters") || m_view == QStringLiteral("preprocessing"))
        target = m_window.dock(m_view)->widget();
    else if (m_view == QStringLiteral("convergence"))
        target = m_window.convergenceDock();
    else if (m_view == QStringLiteral("lcurve"))
        target = m_window.convergenceDock()->lcurveView();
    else if (m_view == QStringLiteral("center") || m_view == QStringLiteral("sweep"))
        target = m_window.centerPanel();
    else if (m_view == QStringLiteral("devices"))
        target = m_window.devicesPanel();
    else if (m_view == QStringLiteral("teaching") || m_view == QStringLiteral("teaching-cone"))
        target = m_window.centralTabs()->currentWidget();  // the lessons in their scroll areas
    else if (m_view == QStringLiteral("cone"))
        target = m_window.dock(m_view)->widget();
    else if (m_view == QStringLiteral("open-cone"))
        target = openConeDialog();
    if (target == nullptr) {
        target = &m_window;
    } else {
        // Out of its layout, so that it gets exactly the requested size.
        target->setParent(nullptr);
        m_detached = target;
        target->show();
    }
    target->resize(m_size);
    // Let the resize, layout and pending paints run before grabbing.
    QTimer::singleShot(100, this, [this, target] {
        if (target->size() != m_size) {
            m_done = false;
            fail(4, QStringLiteral("the view cannot be %1x%2: it needs at least %3x%4")
                        .arg(m_size.width())
                        .arg(m_size.height())
                        .arg(target->minimumSizeHint().width())
                        .arg(target->minimumSizeHint().height()));
            return;
        }
        if (auto* image = qobject_cast<ImageView*>(target)) image->fitToWindow();
        QPixmap pixmap = target->grab();
        if (!pixmap.save(m_file, "PNG")) {
            std::fprintf(stderr, "tomostation: cannot write %s\n", qPrintable(m_file));
            QCoreApplication::exit(2);
            return;
        }
        QCoreApplication::exit(0);
    });
}

QWidget* ScreenshotMode::openConeDialog() const {
    auto* dialog = new ConeOpenDialog;
    if (auto cone = m_window.session().coneDataset()) dialog->setRequest(cone->request);
    return dialog;
}

void ScreenshotMode::fail(int code, const QString& message) {
    if (m_done) return;
    m_done = true;
    std::fprintf(stderr, "tomostation: --screenshot --view %s: %s\n", qPrintable(m_view),
                 qPrintable(message));
    QCoreApplication::exit(code);
}

}  // namespace tomo::ui
