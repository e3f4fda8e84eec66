#pragma once
/// @file ConvergenceDock.h
/// @brief Live convergence of an iterative reconstruction: residual norm ||Ax - b||, solution
/// norm ||x|| and, when the ground truth is known, the RMSE against it, per iteration (log y);
/// and the L-curve, log ||x|| against log ||Ax - b|| with its corner (core iterationCornerOf:
/// the turn into the noise branch, never the bend of the first iterations; P. C. Hansen, SIAM
/// Review 34(4), 1992, doi:10.1137/1034115) marked where the method has one, the same corner
/// as `tomo recon --lcurve`; for TV and MBIR no corner and the reason (AlgorithmSpec).
///
/// Clicking a point of either chart selects that iteration: `iterateSelected` carries the kept
/// snapshot of the preview slice (SnapshotStore: within a memory budget, thinned evenly, the
/// closest kept iteration when the clicked one was dropped). Export: the two charts as PNG or
/// SVG (Qt Svg; Unsupported when the build has no Qt6::Svg) and the numbers as CSV with
/// core's writeLCurveCsv ("parameter,residual_norm,solution_norm,error,corner").
///
/// MBIR (IterationInfo::cost set) adds a third chart, CostChart: the cost per equit and, with
/// a reference and mu_water (setMuWater), the RMSE in HU with the 10 HU line.
///
/// Fed by MainWindow from Session::iterationReported; norms that are not positive are left out
/// of the log plots (kept in the CSV). Threading: GUI thread only.

#include <filesystem>
#include <memory>
#include <optional>
#include <vector>

#include <QTimer>
#include <QWidget>

#include "app/jobs/IterativeJob.h"
#include "core/base/Status.h"
#include "core/iterative/AlgorithmSchema.h"
#include "core/solvers/LCurve.h"
#include "ui/charts/SnapshotStore.h"

class QLabel;
class QPointF;
class QChart;
class QChartView;
class QLineSeries;
class QScatterSeries;
class QValueAxis;
class QLogValueAxis;

namespace tomo::ui {

class CostChart;

class ConvergenceDock : public QWidget {
    Q_OBJECT

  public:
    explicit ConvergenceDock(QWidget* parent = nullptr);

    /// Forgets all points and snapshots (a new run starts).
    void clear();
    /// Appends one iteration (and keeps its slice as a snapshot). The point, the lowest error
    /// and the status line are updated at once; the charts, their axes and the corner at most
    /// every kRefreshMs (a solver on a tiny problem reports thousands of iterations a second:
    /// redrawing per point made each report cost O(points) and the GUI fall behind), and at
    /// finishRun().
    void addIteration(const app::IterationReport& report);
    /// The algorithm of the next run (an AlgorithmSpec id): whether and how its corner is found.
    void setAlgorithm(const std::string& id);
    /// mu_water of the next run (MBIR's parameter) for the HU curve; none: no HU curve.
    void setMuWater(std::optional<double> muWater);
    /// The cost and HU chart (hidden until an iteration reports a cost).
    CostChart* costChart() const { return m_costChart; }

    int pointCount() const { return static_cast<int>(m_points.size()); }
    const std::vector<LCurvePoint>& points() const { return m_points; }
    /// Index into points() of the L-curve corner (needs 3+ points).
    std::optional<std::size_t> corner() const { return m_corner; }
    /// Why there is no corner (core iterationCornerOf's message, as `tomo recon --lcurve` prints
    /// it); empty when there is one.
    const QString& cornerNote() const { return m_cornerNote; }
    /// Index into points() of the lowest error against the truth (none without errors).
    std::optional<std::size_t> lowestError() const { return m_lowestError; }
    /// The iteration marked as shown in both charts (none when the result is shown).
    std::optional<int> shownIteration() const { return m_shown; }
    /// Removes the "shown" marks (the result is shown again).
    void clearShown();
    /// The run ended: the status line says where the corner is, or why there is none.
    void finishRun();
    SnapshotStore& snapshots() { return m_snapshots; }

    /// Selects @p iteration as if its point had been clicked.
    void selectIteration(int iteration);

    QChartView* normsView() const { return m_normsView; }
    QChartView* lcurveView() const { return m_lcurveView; }

    /// The two charts side by side as a PNG; the same as SVG; the numbers as CSV.
    Status exportPng(const std::filesystem::path& file) const;
    Status exportSvg(const std::filesystem::path& file) const;
    Status exportCsv(const std::filesystem::path& file) const;

  signals:
    /// A point was clicked: @p iteration (the snapshot's, maybe the nearest kept) and its slice.
    void iterateSelected(int iteration, std::shared_ptr<const tomo::app::SliceImage> slice);

  private:
    /// The L-curve chart: iterates, points, corner and the shown iterate (m_lcurveView).
    void createLCurveChart();
    void onPointClicked(const QPointF& point, bool lcurve);
    void updateAxes();
    void updateCorner();
    /// The series from points() (at most kChartPoints per curve: every k-th point and the
    /// last), the corner and the axes.
    void refreshCharts();
    void askExport(const QString& kind);

    static constexpr int kRefreshMs = 100;
    static constexpr std::size_t kChartPoints = 2000;
    QTimer* m_refresh = nullptr;  ///< single shot, started by addIteration when idle
    std::vector<LCurvePoint> m_points;
    std::optional<AlgorithmSpec> m_algorithm;  ///< of the run (setAlgorithm)
    std::optional<std::size_t> m_corner;
    std::optional<std::size_t> m_lowestError;
    std::optional<int> m_shown;
    QString m_cornerNote;
    SnapshotStore m_snapshots;

    QChartView* m_normsView = nullptr;
    QChartView* m_lcurveView = nullptr;
    QLineSeries* m_residual = nullptr;
    QLineSeries* m_solution = nullptr;
    QLineSeries* m_error = nullptr;
    QLineSeries* m_lcurve = nullptr;
    QScatterSeries* m_lcurvePoints = nullptr;
    QScatterSeries* m_cornerPoint = nullptr;
    QScatterSeries* m_selected = nullptr;
    QScatterSeries* m_selectedNorm = nullptr;
    QScatterSeries* m_bestError = nullptr;
    QValueAxis* m_iterAxis = nullptr;
    QLogValueAxis* m_normAxis = nullptr;
    QLogValueAxis* m_lcurveX = nullptr;
    QLogValueAxis* m_lcurveY = nullptr;
    QLabel* m_status = nullptr;
    QWidget* m_charts = nullptr;
    CostChart* m_costChart = nullptr;
};

}  // namespace tomo::ui
