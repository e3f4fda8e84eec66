#pragma once
/// @file LineProfileView.h
/// @brief The line-profile tool's plot: the values of a SliceView's image along the line drawn
/// with the view's profile tool, as a QtCharts line chart (distance along the line in pixels
/// against value in the image's unit).
///
/// Sampling: core/metrics lineProfile(), bilinear interpolation between pixel centres at
/// max(2, ceil(length) + 1) evenly spaced points from the line's start to its end, so one
/// sample per pixel of length, endpoints included. Coordinates are pixel indices (SliceView.h).
///
/// attach() connects to the view's profileLineChanged() signal (it does not switch the
/// view's profile tool on: the main window's View > Line profile tool does); the plot follows the
/// line as it is drawn, and empties when the line is cleared (Escape in the view).
///
/// Threading: GUI thread only.

#include <vector>

#include <QLineF>
#include <QPointer>
#include <QWidget>

#include "core/base/Status.h"
#include "core/data/Array.h"

class QChart;
class QChartView;
class QLineSeries;
class QValueAxis;
class QLabel;

namespace tomo::ui {

class SliceView;

/// The samples of a profile: distances from the start (pixels) and values.
struct ProfileSamples {
    std::vector<double> distance;
    std::vector<double> value;
};

/// Samples @p image along @p pixelLine (pixel-index coordinates) as documented above.
/// InvalidArgument when an end point lies outside the image.
Result<ProfileSamples> sampleProfile(View2<const float> image, const QLineF& pixelLine);

class LineProfileView : public QWidget {
    Q_OBJECT

  public:
    explicit LineProfileView(QWidget* parent = nullptr);

    /// Follows @p view's profile line; null detaches. The view's profile tool stays as it is
    /// (View > Line profile tool switches it).
    void attach(SliceView* view);
    SliceView* attachedView() const { return m_view; }

    /// Recomputes the plot for @p pixelLine on the attached view's image (null line = clear).
    void showLine(const QLineF& pixelLine);
    const ProfileSamples& samples() const { return m_samples; }
    QChartView* chartView() const { return m_chartView; }

    /// Renders the chart at @p size (for screenshots and the PNG export).
    QImage renderToImage(QSize size);

  signals:
    /// The plotted samples changed.
    void profileChanged();

  private:
    QPointer<SliceView> m_view;
    QMetaObject::Connection m_connection;
    ProfileSamples m_samples;
    QChartView* m_chartView = nullptr;
    QLineSeries* m_series = nullptr;
    QValueAxis* m_axisX = nullptr;
    QValueAxis* m_axisY = nullptr;
    QLabel* m_status = nullptr;
};

}  // namespace tomo::ui
