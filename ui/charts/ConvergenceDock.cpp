#include "ui/charts/ConvergenceDock.h"

#include <cmath>
#include <limits>

#include <QChart>
#include <QChartView>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QLabel>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QMessageBox>
#include <QPushButton>
#include <QScatterSeries>
#include <QScrollArea>
#include <QVBoxLayout>
#include <QValueAxis>

#include "core/solvers/IterationCorner.h"
#include "ui/charts/ChartSvgExport.h"
#include "ui/charts/CostChart.h"
#include "ui/charts/LogAxis.h"

namespace tomo::ui {

namespace {

/// What the status line says before a run and after clear().
QString idleText() {
    return ConvergenceDock::tr("Run an iterative algorithm to see its convergence.");
}

QChartView* makeView(QChart* chart) {
    // The legend on the right: the height goes to the axes (a low dock keeps its labels).
    chart->legend()->setAlignment(Qt::AlignRight);
    chart->setMargins(QMargins(2, 2, 2, 2));
    auto* view = new QChartView(chart);
    view->setRenderHint(QPainter::Antialiasing);
    view->setMinimumSize(380, 180);
    return view;
}

}  // namespace

ConvergenceDock::ConvergenceDock(QWidget* parent) : QWidget(parent) {
    m_refresh = new QTimer(this);
    m_refresh->setSingleShot(true);
    m_refresh->setInterval(kRefreshMs);
    connect(m_refresh, &QTimer::timeout, this, &ConvergenceDock::refreshCharts);
    auto* norms = new QChart;
    norms->setTitle(tr("Convergence"));
    m_residual = new QLineSeries;
    m_residual->setName(tr("||Ax-b||"));
    m_solution = new QLineSeries;
    m_solution->setName(tr("||x||"));
    m_error = new QLineSeries;
    m_error->setName(tr("RMSE"));
    m_iterAxis = new QValueAxis;
    m_iterAxis->setTitleText(tr("iteration"));
    m_iterAxis->setLabelFormat(QStringLiteral("%d"));
    m_normAxis = makeLogAxis(tr("norm"));
    norms->addAxis(m_iterAxis, Qt::AlignBottom);
    norms->addAxis(m_normAxis, Qt::AlignLeft);
    for (QLineSeries* s : {m_residual, m_solution, m_error}) {
        s->setPointsVisible(true);
        norms->addSeries(s);
        s->attachAxis(m_iterAxis);
        s->attachAxis(m_normAxis);
        connect(s, &QXYSeries::clicked, this,
                [this](const QPointF& p) { onPointClicked(p, false); });
    }
    m_selectedNorm = new QScatterSeries;
    m_selectedNorm->setName(tr("shown"));
    m_selectedNorm->setMarkerShape(QScatterSeries::MarkerShapeRectangle);
    m_selectedNorm->setMarkerSize(12);
    m_selectedNorm->setColor(QColor(0, 160, 0));
    m_bestError = new QScatterSeries;
    m_bestError->setName(tr("lowest RMSE"));
    m_bestError->setMarkerSize(12);
    m_bestError->setColor(Qt::red);
    for (QScatterSeries* s : {m_selectedNorm, m_bestError}) {
        norms->addSeries(s);
        s->attachAxis(m_iterAxis);
        s->attachAxis(m_normAxis);
    }
    m_normsView = makeView(norms);
    // Markers without legend entries (the status line names them): the legend fits.
    for (QScatterSeries* s : {m_selectedNorm, m_bestError})
        for (QLegendMarker* marker : norms->legend()->markers(s))
            marker->setVisible(false);

    createLCurveChart();

    m_charts = new QWidget(this);
    auto* chartsLayout = new QHBoxLayout(m_charts);
    chartsLayout->setContentsMargins(0, 0, 0, 0);
    chartsLayout->addWidget(m_normsView, 1);
    chartsLayout->addWidget(m_lcurveView, 1);
    m_costChart = new CostChart(m_charts);
    m_costChart->setObjectName(QStringLiteral("costChart"));
    chartsLayout->addWidget(m_costChart, 1);

    m_status = new QLabel(idleText(), this);
    m_status->setObjectName(QStringLiteral("convergenceStatus"));
    m_status->setWordWrap(true);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_status, 1);
    for (const QString& kind :
         {QStringLiteral("PNG"), QStringLiteral("SVG"), QStringLiteral("CSV")}) {
        auto* b = new QPushButton(tr("Export %1...").arg(kind), this);
        connect(b, &QPushButton::clicked, this, [this, kind] { askExport(kind); });
        buttons->addWidget(b);
    }
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    // Scrolled, not squeezed: three charts (MBIR) need ~1150 px, which must not become the
    // window's minimum width; a narrower or lower dock scrolls them.
    auto* scroll = new QScrollArea(this);
    scroll->setObjectName(QStringLiteral("convergenceCharts"));
    scroll->setWidget(m_charts);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    layout->addWidget(scroll, 1);
    layout->addLayout(buttons);
    clear();
}

void ConvergenceDock::createLCurveChart() {
    auto* lcurve = new QChart;
    lcurve->setTitle(tr("L-curve"));
    m_lcurve = new QLineSeries;
    m_lcurve->setName(tr("iterates"));
    m_lcurvePoints = new QScatterSeries;
    m_lcurvePoints->setMarkerSize(6);
    m_lcurvePoints->setName(tr("points"));
    m_cornerPoint = new QScatterSeries;
    m_cornerPoint->setName(tr("corner"));
    m_cornerPoint->setMarkerSize(14);
    m_cornerPoint->setColor(Qt::red);
    m_selected = new QScatterSeries;
    m_selected->setName(tr("shown"));
    m_selected->setMarkerShape(QScatterSeries::MarkerShapeRectangle);
    m_selected->setMarkerSize(12);
    m_selected->setColor(QColor(0, 160, 0));
    m_lcurveX = makeLogAxis(tr("residual ||Ax-b||"));
    m_lcurveY = makeLogAxis(tr("solution ||x||"));
    lcurve->addAxis(m_lcurveX, Qt::AlignBottom);
    lcurve->addAxis(m_lcurveY, Qt::AlignLeft);
    for (QXYSeries* s :
         std::initializer_list<QXYSeries*>{m_lcurve, m_lcurvePoints, m_cornerPoint, m_selected}) {
        lcurve->addSeries(s);
        s->attachAxis(m_lcurveX);
        s->attachAxis(m_lcurveY);
    }
    for (QXYSeries* s : std::initializer_list<QXYSeries*>{m_lcurve, m_lcurvePoints})
        connect(s, &QXYSeries::clicked, this,
                [this](const QPointF& p) { onPointClicked(p, true); });
    // The points in the line's colour, without the theme's white outline: hundreds of close
    // iterates (a SIRT run of 500) otherwise draw a white band over the curve.
    m_lcurvePoints->setColor(m_lcurve->color());
    m_lcurvePoints->setBorderColor(m_lcurve->color());
    m_lcurveView = makeView(lcurve);
    for (QXYSeries* s : std::initializer_list<QXYSeries*>{m_lcurvePoints, m_selected})
        for (QLegendMarker* marker : lcurve->legend()->markers(s))
            marker->setVisible(false);
}

void ConvergenceDock::clear() {
    m_refresh->stop();
    m_points.clear();
    m_corner.reset();
    m_lowestError.reset();
    m_shown.reset();
    m_cornerNote.clear();
    m_snapshots.clear();
    m_costChart->clear();
    m_costChart->hide();  // until an iteration reports a cost (MBIR)
    for (QXYSeries* s : std::initializer_list<QXYSeries*>{m_residual, m_solution, m_error, m_lcurve,
                                                          m_lcurvePoints, m_cornerPoint, m_selected,
                                                          m_selectedNorm, m_bestError})
        s->clear();
    fitIterationAxis(m_iterAxis, 0);
    for (QLogValueAxis* axis : {m_normAxis, m_lcurveX, m_lcurveY})
        resetLogAxis(axis);  // the base and format of the last fit go too
    // Nothing of the last run stays: its corner note would describe other data.
    m_cornerPoint->setName(tr("corner"));
    m_status->setText(idleText());
    m_status->setToolTip(QString());
}

void ConvergenceDock::addIteration(const app::IterationReport& report) {
    const IterationInfo& info = report.info;
    LCurvePoint point;
    point.parameter = info.iteration;
    point.residualNorm = info.residualNorm;
    point.solutionNorm = info.solutionNorm;
    point.error = info.error;
    m_points.push_back(point);
    if (report.slice) m_snapshots.add(info.iteration, report.slice);
    if (info.error && *info.error > 0 &&
        (!m_lowestError || *info.error < *m_points[*m_lowestError].error)) {
        m_lowestError = m_points.size() - 1;
        m_bestError->replace(QList<QPointF>{QPointF(info.iteration, *info.error)});
        m_bestError->setName(tr("lowest RMSE (iteration %1)").arg(info.iteration));
    }
    if (!m_refresh->isActive()) m_refresh->start();
    QString text = tr("iteration %1: residual %2, ||x|| %3%4")
                       .arg(info.iteration)
                       .arg(info.residualNorm, 0, 'g', 4)
                       .arg(info.solutionNorm, 0, 'g', 4)
                       .arg(info.error ? tr(", RMSE %1").arg(*info.error, 0, 'g', 4) : QString());
    if (info.cost) {
        m_costChart->add(info);
        m_costChart->show();
        text +=
            tr(", cost %1 after %2 equits").arg(*info.cost, 0, 'g', 5).arg(info.equits, 0, 'f', 2);
        if (const auto& hu = m_costChart->points().back().hu)
            text += tr(", %1 HU").arg(*hu, 0, 'f', 1);
    }
    m_status->setText(text);
}

void ConvergenceDock::setAlgorithm(const std::string& id) {
    auto spec = findAlgorithm(id);
    m_algorithm = spec ? std::optional<AlgorithmSpec>(std::move(*spec)) : std::nullopt;
}

void ConvergenceDock::setMuWater(std::optional<double> muWater) {
    m_costChart->setMuWater(muWater);
}

void ConvergenceDock::updateCorner() {
    m_corner.reset();
    // The same function and points as `tomo recon --lcurve` (ReconService's report).
    Result<std::size_t> corner =
        m_algorithm ? iterationCornerOf(*m_algorithm, m_points) : iterationCorner(m_points);
    if (!corner) {
        // No corner: too few points, a curve without a noise branch, or a method without one.
        if (m_cornerPoint->count() > 0) m_cornerPoint->clear();
        m_cornerPoint->setName(
            m_algorithm && !m_algorithm->cornerWhyNot.empty()
                ? tr("no corner (%1)").arg(QString::fromStdString(m_algorithm->label))
                : tr("corner (none yet)"));
        m_cornerNote = QString::fromStdString(corner.status().message());
        return;
    }
    m_cornerNote.clear();
    m_corner = *corner;
    const LCurvePoint& p = m_points[*corner];
    m_cornerPoint->replace(QList<QPointF>{QPointF(p.residualNorm, p.solutionNorm)});
    m_cornerPoint->setName(tr("corner (iteration %1)").arg(p.parameter));
}

void ConvergenceDock::refreshCharts() {
    m_refresh->stop();
    const std::size_t n = m_points.size();
    const std::size_t stride = n > kChartPoints ? (n + kChartPoints - 1) / kChartPoints : 1;
    QList<QPointF> residual, solution, error, lcurve;
    for (std::size_t i = 0; i < n; ++i) {
        if (i % stride != 0 && i + 1 != n) continue;
        const LCurvePoint& p = m_points[i];
        if (p.residualNorm > 0) residual.append(QPointF(p.parameter, p.residualNorm));
        if (p.solutionNorm > 0) solution.append(QPointF(p.parameter, p.solutionNorm));
        if (p.error && *p.error > 0) error.append(QPointF(p.parameter, *p.error));
        if (p.residualNorm > 0 && p.solutionNorm > 0)
            lcurve.append(QPointF(p.residualNorm, p.solutionNorm));
    }
    m_residual->replace(residual);
    m_solution->replace(solution);
    m_error->replace(error);
    m_lcurve->replace(lcurve);
    m_lcurvePoints->replace(lcurve);
    updateCorner();
    updateAxes();
}

void ConvergenceDock::updateAxes() {
    std::vector<double> norms, residuals, solutions;
    for (const LCurvePoint& p : m_points) {
        norms.push_back(p.residualNorm);
        norms.push_back(p.solutionNorm);
        if (p.error) norms.push_back(*p.error);
        residuals.push_back(p.residualNorm);
        solutions.push_back(p.solutionNorm);
    }
    fitIterationAxis(m_iterAxis, m_points.empty() ? 0 : m_points.back().parameter);
    fitLogAxis(m_normAxis, norms);
    fitLogAxis(m_lcurveX, residuals);
    fitLogAxis(m_lcurveY, solutions);
}

void ConvergenceDock::onPointClicked(const QPointF& point, bool lcurve) {
    // The nearest stored point in the clicked chart's (log) coordinates.
    int best = -1;
    double bestDistance = std::numeric_limits<double>::max();
    for (std::size_t i = 0; i < m_points.size(); ++i) {
        const LCurvePoint& p = m_points[i];
        double d = 0;
        if (lcurve) {
            if (p.residualNorm <= 0 || p.solutionNorm <= 0) continue;
            d = std::hypot(std::log(p.residualNorm / point.x()),
                           std::log(p.solutionNorm / point.y()));
        } else {
            d = std::fabs(p.parameter - point.x());
        }
        if (d < bestDistance) {
            bestDistance = d;
            best = static_cast<int>(p.parameter);
        }
    }
    if (best >= 0) selectIteration(best);
}

void ConvergenceDock::clearShown() {
    m_shown.reset();
    m_selected->clear();
    m_selectedNorm->clear();
}

void ConvergenceDock::finishRun() {
    if (m_points.empty()) return;
    refreshCharts();
    if (!m_corner && !(m_algorithm && !m_algorithm->cornerWhyNot.empty()))
        m_cornerPoint->setName(tr("no corner"));
    QString text = m_corner ? tr("L-curve corner at iteration %1 of %2.")
                                  .arg(m_points[*m_corner].parameter)
                                  .arg(m_points.size())
                            : m_cornerNote + QLatin1Char('.');
    if (m_lowestError)
        text += tr(" Lowest RMSE against the truth at iteration %1.")
                    .arg(m_points[*m_lowestError].parameter);
    m_status->setText(text);
    m_status->setToolTip(text);
}

void ConvergenceDock::selectIteration(int iteration) {
    int found = iteration;
    std::shared_ptr<const app::SliceImage> slice = m_snapshots.nearest(iteration, &found);
    clearShown();
    for (const LCurvePoint& p : m_points)
        if (static_cast<int>(p.parameter) == found) {
            m_shown = found;
            if (p.residualNorm > 0 && p.solutionNorm > 0)
                m_selected->append(p.residualNorm, p.solutionNorm);
            if (p.residualNorm > 0) m_selectedNorm->append(p.parameter, p.residualNorm);
        }
    if (!slice) {
        m_status->setText(tr("no snapshot kept for iteration %1").arg(iteration));
        return;
    }
    m_status->setText(
        found == iteration
            ? tr("showing iteration %1").arg(found)
            : tr("showing iteration %1 (nearest kept to %2)").arg(found).arg(iteration));
    emit iterateSelected(found, slice);
}

Status ConvergenceDock::exportPng(const std::filesystem::path& file) const {
    if (!m_charts->grab().save(QString::fromStdString(file.string()), "PNG"))
        return ioError("cannot write PNG " + file.string());
    return Status::ok();
}

Status ConvergenceDock::exportSvg(const std::filesystem::path& file) const {
    return exportWidgetSvg(*m_charts, file);
}

Status ConvergenceDock::exportCsv(const std::filesystem::path& file) const {
    return writeLCurveCsv(file.string(), m_points, m_corner);
}

void ConvergenceDock::askExport(const QString& kind) {
    const QString suffix = kind.toLower();
    QString file = QFileDialog::getSaveFileName(this, tr("Export convergence as %1").arg(kind),
                                                QStringLiteral("convergence.") + suffix,
                                                QStringLiteral("%1 (*.%2)").arg(kind, suffix));
    if (file.isEmpty()) return;
    std::filesystem::path path(file.toStdString());
    Status status = kind == QStringLiteral("PNG")   ? exportPng(path)
                    : kind == QStringLiteral("SVG") ? exportSvg(path)
                                                    : exportCsv(path);
    if (!status)
        QMessageBox::warning(this, tr("Export"), QString::fromStdString(status.message()));
    else
        m_status->setText(tr("Exported %1").arg(file));
}

}  // namespace tomo::ui
