#pragma once
/// @file CompareTab.h
/// @brief The Compare tab: up to three images side by side, each chosen in its own box from
/// the results of this dataset (newest first, named by algorithm and parameters, e.g.
/// "FBP: filter hann, cutoff 0.8 (cpu.simd.lin)"), the ground truth when known, or the
/// difference of the first two panes. Under each pane its metrics against the truth (core
/// compareImages with the truth as reference), or against the first pane when the truth is
/// unknown.
///
/// Defaults after a new result: newest, the one before, and the truth (or the difference of
/// the first two when there is no truth). Result panes share one window/level (changing one
/// changes all); a difference pane has a symmetric window +- the 99.5th percentile of its
/// magnitude around 0. Shows slice 1 of each result; images of other shapes than the first
/// pane's are shown but not compared (the metrics line says so).
///
/// Threading: GUI thread only.

#include <array>
#include <deque>
#include <memory>
#include <optional>
#include <vector>

#include <QWidget>

#include "app/jobs/DemoJob.h"

class QComboBox;
class QLabel;

namespace tomo::ui {

class SliceView;

class CompareTab : public QWidget {
    Q_OBJECT

  public:
    static constexpr int kPanes = 3;
    static constexpr std::size_t kHistory = 8;  ///< results kept per dataset, at most

    explicit CompareTab(QWidget* parent = nullptr);

    /// A new dataset: the history is forgotten (results of other data do not compare), unless
    /// @p sameScan (the same file read again, e.g. with other preprocessing) and the results
    /// keep their shape: then they stay, to compare the preprocessing.
    void setDataset(std::shared_ptr<const app::Dataset> data, bool sameScan = false);
    /// A new result of the dataset: joins the history and the panes show the defaults.
    void addResult(std::shared_ptr<const app::ReconOutcome> result);

    /// What pane @p i shows: index into the combo's items (see choices()).
    void choose(int pane, int item);
    /// The names a pane's box offers, in order.
    QStringList choices() const;
    SliceView* pane(int i) const { return m_panes[static_cast<std::size_t>(i)]; }
    /// The metrics of pane @p i against the truth (or the first pane); none when not compared.
    const std::optional<ImageMetrics>& metrics(int i) const {
        return m_metrics[static_cast<std::size_t>(i)];
    }
    std::size_t historySize() const { return m_history.size(); }
    /// Bytes of images the results before the newest may hold together (default: an eighth of
    /// this machine's memory; 0 = no bound): older results go first, the newest always stays.
    void setHistoryBytes(std::size_t bytes);

  private:
    enum class Kind { None, Result, Truth, Difference };
    struct Choice {
        Kind kind = Kind::None;
        std::size_t result = 0;  ///< into m_history for Kind::Result
    };
    std::vector<Choice> choiceList() const;
    /// What pane @p pane's box has chosen.
    Choice choiceOf(int pane) const;
    void refillBoxes();
    void showPane(int i);
    /// The image pane @p i shows (empty for none; the difference is built in m_difference).
    View2<const float> imageOf(const Choice& c) const;
    void compareAll();
    /// Drops the oldest results beyond kHistory or beyond m_historyBytes.
    void trimHistory();

    std::shared_ptr<const app::Dataset> m_data;
    /// A result with its name (what differs from the results before it, app/jobs/ResultNames.h:
    /// fixed when it arrives) and its whole request for the tooltip.
    struct Entry {
        std::shared_ptr<const app::ReconOutcome> outcome;
        int number = 0;  ///< 1, 2, ... in the order they were made
        QString name;
        QString request;
    };
    std::deque<Entry> m_history;  ///< newest first
    int m_made = 0;               ///< results made since the dataset was opened
    std::size_t m_historyBytes = 0;
    std::array<QComboBox*, kPanes> m_boxes{};
    std::array<SliceView*, kPanes> m_panes{};
    std::array<QLabel*, kPanes> m_labels{};
    std::array<std::optional<ImageMetrics>, kPanes> m_metrics{};
    std::vector<float> m_difference;
    bool m_syncing = false;
};

}  // namespace tomo::ui
