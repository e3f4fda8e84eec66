#pragma once
/// @file WindowLevelBar.h
/// @brief The window/level control under a slice view: the histogram of the shown image with
/// the window drawn over it, the window's low and high values as numbers, presets, and a
/// readout ("window 0.0213, level 0.0101").
///
/// The bar follows one SliceView (attach()): a new image recomputes the histogram, a window
/// changed in the view (right drag, arrow keys, `A`) moves the markers and the numbers, and
/// every change made here (a drag on the histogram, typed numbers, a preset) goes to the view.
///
/// Histogram: kBins bins over the image's finite [min, max], heights on a log scale
/// (log(1 + count)) so that a few bright pixels stay visible beside the background.
/// Mouse on the histogram: a press moves the nearer window edge to the cursor and a drag keeps
/// moving it; the numbers are image values, in the image's unit.
///
/// Presets (percentiles of the image's finite values, core's percentileWindow):
/// "Auto (0.5-99.5 %)", "1-99 %", "5-95 %", "Full range (min-max)".
///
/// Threading: GUI thread only.

#include <array>
#include <vector>

#include <QPointer>
#include <QWidget>

#include "ui/views/ColorMap.h"
#include "ui/views/SliceView.h"

class QComboBox;
class QDoubleSpinBox;
class QLabel;

namespace tomo::ui {

class WindowLevelBar : public QWidget {
    Q_OBJECT

  public:
    static constexpr int kBins = 128;

    explicit WindowLevelBar(QWidget* parent = nullptr);

    /// Follows @p view (null: empty, disabled).
    void attach(SliceView* view);
    SliceView* attachedView() const { return m_view; }

    /// The histogram (kBins counts; all zero without an image) and its value range.
    const std::array<int, kBins>& histogram() const { return m_histogram; }
    double rangeLow() const { return m_rangeLow; }
    double rangeHigh() const { return m_rangeHigh; }

    /// The readout text ("window W, level L (low .. high)").
    QString readout() const;
    /// Applies preset @p index of the preset list (0 = Auto).
    void applyPreset(int index);
    /// The histogram strip (mouse target; tests send events to it).
    QWidget* histogramWidget() const;

  private:
    class Strip;
    void onImageChanged();
    void onWindowChanged(const WindowLevel& wl);
    void onNumbersEdited();
    /// Moves the window edge nearer to @p value there (from the strip's mouse).
    void moveNearerEdge(double value, bool pressed);

    QPointer<SliceView> m_view;
    QMetaObject::Connection m_imageConnection;
    QMetaObject::Connection m_windowConnection;
    std::array<int, kBins> m_histogram{};
    double m_rangeLow = 0.0;
    double m_rangeHigh = 1.0;
    bool m_draggingHigh = false;
    bool m_syncing = false;
    Strip* m_strip = nullptr;
    QDoubleSpinBox* m_low = nullptr;
    QDoubleSpinBox* m_high = nullptr;
    QComboBox* m_presets = nullptr;
    QLabel* m_readout = nullptr;
};

}  // namespace tomo::ui
