#pragma once
/// @file CompareView.h
/// @brief Two results side by side (e.g. FBP against SIRT, or one back-projector variant
/// against another), their difference A - B, and RMSE/SSIM/PSNR/maximum error of A against B.
///
/// Metrics: core/metrics compareImages(A, B) with B as the reference and the data range of B
/// (so SSIM and PSNR use max(B) - min(B)); SSIM is NaN for images smaller than 11x11. The two
/// panes share one window/level (set from A's percentiles, changing either changes both); the
/// difference pane uses a symmetric window +- the 99.5th percentile of |A - B|, grey colour map
/// (mid-grey = equal).
///
/// Threading: GUI thread only.

#include <array>
#include <optional>
#include <vector>

#include <QWidget>

#include "core/base/Status.h"
#include "core/data/Array.h"
#include "core/metrics/Metrics.h"
#include "ui/views/ViewFactory.h"

class QLabel;

namespace tomo::ui {

class SliceView;

class CompareView : public QWidget {
    Q_OBJECT

  public:
    explicit CompareView(SliceBackend backend = SliceBackend::Auto, QWidget* parent = nullptr);

    /// Shows @p a and @p b (copied) under the given names. Images of different shapes are
    /// shown but not compared: the returned status says why and metrics() is empty.
    Status setImages(View2<const float> a, View2<const float> b,
                     const QString& nameA = QStringLiteral("A"),
                     const QString& nameB = QStringLiteral("B"));
    void clear();

    /// The metrics of the last comparison, if any.
    const std::optional<ImageMetrics>& metrics() const { return m_metrics; }
    /// A - B, rows x cols of the last comparison (empty without one).
    const std::vector<float>& difference() const { return m_difference; }

    SliceView* paneA() const { return m_panes[0]; }
    SliceView* paneB() const { return m_panes[1]; }
    SliceView* differencePane() const { return m_panes[2]; }

    /// The three panes and the metrics line at @p size.
    QImage renderToImage(QSize size);

  private:
    std::array<SliceView*, 3> m_panes{};
    QLabel* m_metricsLabel = nullptr;
    std::optional<ImageMetrics> m_metrics;
    std::vector<float> m_difference;
    bool m_syncingWindow = false;
};

}  // namespace tomo::ui
