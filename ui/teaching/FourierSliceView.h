#pragma once
/// @file FourierSliceView.h
/// @brief The teaching mode's Fourier slice theorem: the phantom's 2-D Fourier transform
/// (log10 |F|, DC in the middle, u to the right and v up, +-0.5 cycles/px at the edges) with the
/// radial line at the current angle drawn in red (solid: the frequencies >= 0 that are plotted;
/// dashed: the other half, its mirror image), and a plot of |F| along that line beside the
/// magnitude of the 1-D transform of the projection at the same angle, on one frequency axis in
/// cycles/px with a log |F| axis: the curves coincide. A one-sentence caption states the
/// theorem. The numbers come from app/jobs/FourierSlice.h.
///
/// Threading: GUI thread only.

#include <QImage>
#include <QLineF>
#include <QWidget>

#include "app/jobs/FourierSlice.h"

class QChartView;
class QLabel;
class QLineSeries;
class QLogValueAxis;

namespace tomo::ui {

/// The spectrum picture, drawn square and centred, with the radial line.
class FourierSpectrumView : public QWidget {
    Q_OBJECT

  public:
    explicit FourierSpectrumView(QWidget* parent = nullptr);

    /// @p logMagnitude as app::logSpectrum makes it (square, DC at the centre).
    void setSpectrum(const app::SliceImage& logMagnitude);
    /// Marks the line at @p radians (counter-clockwise from +u).
    void setAngle(double radians);
    double markedAngle() const { return m_angle; }
    /// The solid half of the line (frequencies 0 to 0.5 cycles/px) in widget coordinates;
    /// null before a spectrum is shown.
    QLineF markedLine() const;

    QSize sizeHint() const override { return {160, 160}; }

  protected:
    void paintEvent(QPaintEvent* event) override;

  private:
    QRectF target() const;

    QImage m_image;
    double m_angle = 0;
};

class FourierSliceView : public QWidget {
    Q_OBJECT

  public:
    explicit FourierSliceView(QWidget* parent = nullptr);

    void setSpectrum(const app::SliceImage& logMagnitude);
    /// Marks @p slice's angle on the picture and plots its two sides.
    void showSlice(const app::FourierSlice& slice);

    FourierSpectrumView* spectrumView() const { return m_picture; }
    QChartView* chartView() const { return m_chartView; }
    QLineSeries* imageSeries() const { return m_image; }            ///< |F| along the line
    QLineSeries* projectionSeries() const { return m_projection; }  ///< |P| of the projection
    QLabel* caption() const { return m_caption; }

  private:
    FourierSpectrumView* m_picture = nullptr;
    QLabel* m_pictureTitle = nullptr;
    QChartView* m_chartView = nullptr;
    QLineSeries* m_image = nullptr;
    QLineSeries* m_projection = nullptr;
    QLogValueAxis* m_magnitude = nullptr;
    QLabel* m_caption = nullptr;
};

}  // namespace tomo::ui
