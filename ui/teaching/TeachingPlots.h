#pragma once
/// @file TeachingPlots.h
/// @brief The teaching mode's two plots: the 1-D projection at the current angle (one row of
/// the sinogram: what the detector recorded, in line-integral units against detector position)
/// and the filter's frequency response |f| x window(f) against frequency in cycles per pixel
/// (core filterWindowValue, the formula the filter applies; the ramp alone for comparison).
///
/// Threading: GUI thread only.

#include <QWidget>

#include "app/jobs/SliceImage.h"
#include "core/filter/RampFilter.h"

class QChartView;
class QLineSeries;
class QValueAxis;

namespace tomo::ui {

class TeachingPlots : public QWidget {
    Q_OBJECT

  public:
    static constexpr int kResponseSamples = 101;  ///< points over [0, 0.5] cycles/pixel

    explicit TeachingPlots(QWidget* parent = nullptr);

    /// Plots row @p angle of @p sinogram ([angle][detector]) titled with @p degrees.
    void showProjection(const app::SliceImage& sinogram, int angle, double degrees);
    /// Plots the response of @p options.
    void showFilter(const FilterOptions& options, const QString& name);

    QLineSeries* projectionSeries() const { return m_projection; }
    QLineSeries* responseSeries() const { return m_response; }
    QChartView* projectionView() const { return m_projectionView; }
    QChartView* responseView() const { return m_responseView; }

  private:
    QChartView* m_projectionView = nullptr;
    QChartView* m_responseView = nullptr;
    QLineSeries* m_projection = nullptr;
    QLineSeries* m_response = nullptr;
    QLineSeries* m_ramp = nullptr;
    QValueAxis* m_projectionX = nullptr;
    QValueAxis* m_projectionY = nullptr;
};

}  // namespace tomo::ui
