#pragma once
/// @file CostChart.h
/// @brief MBIR's chart in the convergence dock: the cost it minimises (data term + q-GGMRF
/// prior, IterationInfo::cost) per equit (IterationInfo::equits, voxel updates / voxel count;
/// iterations when the solver reports none) on a log axis, and, when a reference (golden)
/// image gives IterationInfo::error and mu_water is known, the RMSE in Hounsfield units,
/// RMSE_HU = 1000 RMSE / mu_water, on a second log axis with the 10 HU line of paper 004's
/// convergence criterion (A. Sabne et al., PPoPP'17, doi:10.1145/3018743.3018765).
///
/// Large costs are plotted in units of a power of ten named in the axis title ("cost / 1e5");
/// points() keeps the costs as reported.
///
/// Fed by ConvergenceDock::addIteration; iterations without a cost are ignored. Threading: GUI
/// thread only.

#include <optional>
#include <vector>

#include <QChartView>

#include "core/solvers/IterationInfo.h"

class QLineSeries;
class QLogValueAxis;
class QValueAxis;

namespace tomo::ui {

class CostChart : public QChartView {
    Q_OBJECT

  public:
    /// The HU line drawn with the RMSE curve (paper 004: converged below 10 HU).
    static constexpr double kTargetHu = 10.0;

    struct Point {
        int iteration = 0;
        double x = 0;              ///< equits, or the iteration when the solver reports no equits
        double cost = 0;           ///< IterationInfo::cost
        std::optional<double> hu;  ///< 1000 error / mu_water, with a reference and mu_water
    };

    explicit CostChart(QWidget* parent = nullptr);

    /// Forgets all points (a new run starts); keeps mu_water.
    void clear();
    /// mu_water (attenuation of water, 1/length) of the run, for the HU curve; none: no curve.
    void setMuWater(std::optional<double> muWater);
    std::optional<double> muWater() const { return m_muWater; }
    /// Appends @p info when it has a cost.
    void add(const IterationInfo& info);

    const std::vector<Point>& points() const { return m_points; }
    /// True when the x axis counts equits (every point reported them).
    bool byEquits() const { return m_byEquits; }

  private:
    void appendToSeries(const Point& p);
    /// Plots the cost in units of a power of ten (m_costScale, named in the axis title).
    void rescaleCost();
    void updateAxes();

    std::vector<Point> m_points;
    std::optional<double> m_muWater;
    bool m_byEquits = true;
    double m_costScale = 1;  ///< the plotted cost is cost / m_costScale
    QLineSeries* m_cost = nullptr;
    QLineSeries* m_hu = nullptr;
    QLineSeries* m_target = nullptr;
    QValueAxis* m_x = nullptr;
    QLogValueAxis* m_costAxis = nullptr;
    QLogValueAxis* m_huAxis = nullptr;
};

}  // namespace tomo::ui
