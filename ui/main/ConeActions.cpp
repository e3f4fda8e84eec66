#include "ui/main/ConeActions.h"

#include <QDockWidget>
#include <QLabel>

#include "ui/main/ConeOpenDialog.h"
#include "ui/main/ConePreview.h"
#include "ui/main/FileActions.h"
#include "ui/main/MainWindow.h"
#include "ui/main/ReconstructionTab.h"
#include "ui/main/ResultViews.h"
#include "ui/panels/AlgorithmPanel.h"
#include "ui/panels/ConeGeometryPanel.h"
#include "ui/views/OrthoSliceView.h"
#include "ui/widgets/ConeVolumeBox.h"
#include "ui/widgets/MetricsPanel.h"
#include "ui/widgets/ReconParamsPanel.h"
#include "ui/widgets/SamplingBox.h"

namespace tomo::ui {

namespace {

QString qs(const std::string& s) {
    return QString::fromStdString(s);
}

QString gridText(const ConeVolumeGrid& g) {
    return QStringLiteral("%1 x %2 x %3 voxels of %4 mm")
        .arg(g.nx)
        .arg(g.ny)
        .arg(g.nz)
        .arg(g.spacingX, 0, 'g', 4);
}

}  // namespace

ConeActions::ConeActions(MainWindow& window) : QObject(&window), m_window(window) {
    m_panel = new ConeGeometryPanel;
    m_volume = new ConeVolumeBox;
    m_volume->hide();
    m_preview = new ConePreview(window.session(), this);
    connect(m_panel, &ConeGeometryPanel::tuningChanged, this, [this] {
        m_window.metricsPanel()->markOutOfDate();
        requestPreview();
    });
    connect(m_volume, &ConeVolumeBox::gridChanged, this, [this] {
        m_window.metricsPanel()->markOutOfDate();
        m_window.reconstructionTab()->setConeGrid(m_volume->grid());
        requestPreview();
    });
    connect(m_preview, &ConePreview::ready, this, &ConeActions::onPreview);
    connect(m_preview, &ConePreview::failed, this, [this](const QString& message) {
        m_panel->setPreviewText(tr("Preview failed: %1").arg(message));
        m_window.showStatus(tr("Preview failed: %1").arg(message));
    });
}

bool ConeActions::openCone(const app::ConeOpenRequest& request) {
    const QString name = QStringLiteral("%1 with %2")
                             .arg(qs(request.projections.filename().string()),
                                  qs(request.geometry.filename().string()));
    return m_window.session().startLoadCone(request, name);
}

void ConeActions::openDialog() {
    app::ConeOpenRequest initial;
    if (auto cone = m_window.session().coneDataset()) initial = cone->request;
    auto request = ConeOpenDialog::ask(&m_window, initial);
    if (!request) return;
    if (!m_window.fileActions()->confirmReplace()) return;
    if (!openCone(*request)) m_window.showStatus(tr("Busy: wait for the running job"));
}

Result<app::ConeOpenRequest> ConeActions::commandLineRequest(
    const std::filesystem::path& projections, const std::filesystem::path& geometry) {
    app::ConeOpenRequest request;
    request.projections = projections;
    request.geometry = geometry;
    Result<app::ConeProbe> probe = app::probeCone(request);
    if (!probe) {
        m_window.report(tr("Open cone-beam dataset"), probe.status());
        return probe.status();
    }
    if (probe->pitchSource.empty() && m_window.confirmations()) {
        auto asked = ConeOpenDialog::ask(&m_window, request);
        if (!asked) return cancelled();
        return *asked;
    }
    return request;
}

app::ConeJobSpec ConeActions::spec() const {
    app::ConeJobSpec spec;
    spec.grid = m_volume->grid();
    spec.filter = m_window.paramsPanel()->options().filter;
    if (m_panel->tuning() != m_panel->fileTuning()) spec.tuning = m_panel->tuning();
    return spec;
}

bool ConeActions::reconstruct() {
    m_preview->cancel();  // the full run supersedes any preview
    if (m_window.algorithmPanel()->isIterative()) {
        m_window.showStatus(
            tr("Cone-beam data are reconstructed by FDK: choose FBP (its filter and cutoff "
               "apply); the iterative methods are for parallel beam"));
        return false;
    }
    if (m_window.session().startCone(spec())) return true;
    m_window.showStatus(m_window.session().coneDataset() ? tr("Busy: wait for the running job")
                                                         : tr("Open a dataset first"));
    return false;
}

void ConeActions::requestPreview() {
    if (!m_window.session().coneDataset() || m_window.algorithmPanel()->isIterative()) return;
    m_preview->request(spec());
}

QString ConeActions::datasetText(const app::ConeDataset& data) const {
    const DetectorGrid& d = data.geometry.detector();
    QString text = tr("%1\nCone beam: %2 views of %3 x %4 px (%5 mm), sid %6 mm, sdd %7 mm; "
                      "default volume %8")
                       .arg(m_window.session().datasetName())
                       .arg(data.geometry.viewCount())
                       .arg(d.nu)
                       .arg(d.nv)
                       .arg(d.pitchU, 0, 'g', 4)
                       .arg(data.geometry.view(0).sid, 0, 'g', 6)
                       .arg(data.geometry.view(0).sdd, 0, 'g', 6)
                       .arg(gridText(data.grid));
    for (const std::string& n : data.notes)
        text += QStringLiteral("\n") + qs(n);
    return text;
}

void ConeActions::swapFilterSettings(bool cone) {
    if (cone == m_showingCone) return;
    m_showingCone = cone;
    // FBP and FDK keep their own filter: FDK never inherits what was tuned for FBP.
    ReconParamsPanel* form = m_window.paramsPanel();
    const FilterChoice shown{form->filterName(), form->options().filter.cutoff};
    form->setFilter(m_otherFilter.name);
    form->setCutoff(m_otherFilter.cutoff);
    m_otherFilter = shown;
}

void ConeActions::onDatasetChanged() {
    m_preview->cancel();
    auto cone = m_window.session().coneDataset();
    swapFilterSettings(cone != nullptr);
    m_volume->setVisible(cone != nullptr);
    m_window.samplingBox()->setVisible(cone == nullptr);
    m_window.paramsPanel()->setFilterOnly(cone != nullptr);
    m_window.algorithmPanel()->setConeBeam(cone != nullptr);
    // The volume views' slowest axis: the rotation axis y for cone-beam results.
    m_window.resultViews()->orthoView()->setAxisNames(
        cone ? std::array<QString, 3>{QStringLiteral("y"), QStringLiteral("z"), QStringLiteral("x")}
             : std::array<QString, 3>{QStringLiteral("z"), QStringLiteral("y"),
                                      QStringLiteral("x")});
    if (!cone) {
        m_panel->setFileTuning({}, false);
        return;
    }
    m_window.datasetLabel()->setText(datasetText(*cone));
    m_volume->setDefaultGrid(cone->grid);
    m_panel->setFileTuning(app::tuningOf(cone->geometry));
    m_window.reconstructionTab()->showConeDataset(cone, cone->grid, app::centralPlane(cone->grid));
    m_window.resultViews()->onDatasetChanged(nullptr);
    m_window.showPanel(QStringLiteral("cone"));
    requestPreview();
}

void ConeActions::setBusy(bool busy) {
    m_panel->setEnabled(!busy);
    m_volume->setEnabled(!busy);
}

void ConeActions::showResult() {
    auto result = m_window.session().coneResult();
    if (!result) return;
    m_window.reconstructionTab()->setSlice(result->centralPlane);
    MetricsPanel* metrics = m_window.metricsPanel();
    metrics->showOutcome(result->recon,
                         tr("the result (central plane %1)").arg(result->centralPlane + 1));
    m_panel->setNotes(result->notes, result->warnings);
    m_panel->setPreviewText(tr("Result: %1").arg(gridText(result->grid)));
    const FilterOptions& f = m_window.paramsPanel()->options().filter;
    QString line =
        tr("FDK %1, %2 %3: %4 in %5 s")
            .arg(qs(result->recon.variant), QString::fromLatin1(filterWindowName(f.window)))
            .arg(f.cutoff, 0, 'f', 2)
            .arg(gridText(result->grid))
            .arg(result->recon.timings.total, 0, 'f', 2);
    if (!result->notes.empty()) line += QStringLiteral("; ") + qs(result->notes.back());
    if (result->recon.hasMetrics)
        line += tr("   RMSE %1 (central plane)").arg(result->recon.metrics.rmse, 0, 'g', 4);
    if (!result->warnings.empty()) {
        m_window.report(tr("Check the data"), invalidData(result->warnings.front()));
        line += tr("   Warning: %1").arg(qs(result->warnings.front()));
    }
    m_window.showStatus(line);
}

void ConeActions::onPreview(std::shared_ptr<const app::ConePlane> plane, double seconds) {
    if (!m_window.session().coneDataset() || m_window.session().isBusy()) return;
    ReconstructionTab* tab = m_window.reconstructionTab();
    if (plane->plane < tab->sliceCount()) tab->setSlice(plane->plane);
    const app::ConeJobSpec& spec = m_preview->shownSpec();
    const double y = spec.grid.originY + plane->plane * spec.grid.spacingY;
    tab->showIterate(plane->image.view(),
                     tr("Preview: central plane (y = %1 mm), %2 s. Reconstruct runs every plane")
                         .arg(y, 0, 'f', 2)
                         .arg(seconds, 0, 'f', 2));
    std::optional<ImageMetrics> metrics;
    if (View2<const float> truth = tab->currentTruth();
        truth.rows() == plane->image.rows && truth.cols() == plane->image.cols)
        if (auto m = compareImages(plane->image.view(), truth)) metrics = *m;
    m_window.metricsPanel()->showImage(tr("preview of the central plane (not the result)"),
                                       metrics);
    m_panel->setPreviewText(tr("Central plane y = %1 mm, %2 x %3 voxels from detector rows "
                               "%4-%5 of %6: %7 s (%8)")
                                .arg(y, 0, 'f', 2)
                                .arg(plane->image.cols)
                                .arg(plane->image.rows)
                                .arg(plane->firstRow + 1)
                                .arg(plane->firstRow + plane->rows)
                                .arg(m_window.session().coneDataset()->geometry.detector().nv)
                                .arg(seconds, 0, 'f', 2)
                                .arg(qs(plane->variant)));
    m_panel->setNotes(plane->notes, plane->warnings);
}

}  // namespace tomo::ui
