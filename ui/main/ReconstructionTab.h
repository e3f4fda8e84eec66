#pragma once
/// @file ReconstructionTab.h
/// @brief The main window's "Reconstruction" tab: sinogram, reconstruction, ground truth and
/// difference views (ui/views' createSliceView), the slice slider with its label, and the
/// window/level bar of the reconstruction.
///
/// Slices: the slider, PageUp/PageDown and Ctrl+wheel on any of the views step through the
/// dataset's slices (detector rows); every view shows the same slice, the label says which
/// ("Slice 3 / 4") and so does the reconstruction view's caption. A live preview or a chosen
/// iterate is captioned as such ("iterate 12 of slice 1").
///
/// Reset: showDataset() returns every pane to a fresh state (slice 1, fitted zoom, no profile
/// line, no reconstruction) and the next result gets an automatic window; later results of
/// the same shape keep the window the user set. Without a ground truth the truth and
/// difference panes are hidden, so the sinogram and reconstruction get the room.
///
/// Cone-beam data (showConeDataset): the slices are the axial planes (constant y) of the volume
/// grid, the sinogram pane shows the detector row that sees the current plane's centre in view
/// 0 ([view][u]), and the truth pane the truth's plane while the grid is the truth's.
///
/// Threading: GUI thread only.

#include <memory>
#include <optional>

#include <QWidget>

#include "app/jobs/ConeJob.h"
#include "app/jobs/DemoJob.h"
#include "ui/views/ColorMap.h"

class QGroupBox;
class QLabel;
class QSlider;

namespace tomo::ui {

class SliceView;
class WindowLevelBar;

class ReconstructionTab : public QWidget {
    Q_OBJECT

  public:
    explicit ReconstructionTab(QWidget* parent = nullptr);

    SliceView* sinogramView() const { return m_sinogram; }
    SliceView* reconstructionView() const { return m_recon; }
    SliceView* truthView() const { return m_truth; }
    SliceView* differenceView() const { return m_difference; }
    WindowLevelBar* windowBar() const { return m_window; }
    QSlider* sliceSlider() const { return m_slider; }
    QLabel* sliceLabel() const { return m_sliceLabel; }

    /// 0-based slice shown by every view, and the dataset's slice count (0 without data).
    int currentSlice() const { return m_slice; }
    int sliceCount() const;
    /// Shows slice @p index (clamped) in every view.
    void setSlice(int index);
    void stepSlice(int delta) { setSlice(m_slice + delta); }

    /// A new dataset (null: none): every pane is reset (see the file comment).
    void showDataset(std::shared_ptr<const app::Dataset> data);
    /// A cone-beam dataset (null: none) on @p grid: every pane is reset, plane @p plane shown.
    void showConeDataset(std::shared_ptr<const app::ConeDataset> cone, const ConeVolumeGrid& grid,
                         int plane);
    /// The cone-beam volume grid changed (the planes to step through, their sinogram rows).
    void setConeGrid(const ConeVolumeGrid& grid);
    /// The result of the dataset (null: cleared, "not reconstructed yet"); @p note (e.g. "made
    /// before the centre changed") is added to the view's caption.
    void showReconstruction(std::shared_ptr<const app::ReconOutcome> recon,
                            const QString& note = QString());
    /// A live preview or a chosen iterate of the current slice, captioned @p caption; the
    /// difference pane shows it against the truth.
    void showIterate(View2<const float> slice, const QString& caption);
    /// The truth of the current slice (empty view when unknown).
    View2<const float> currentTruth() const;

  signals:
    /// Hover readout of any view (empty when the cursor left the image).
    void hovered(const QString& text);
    /// The shown slice changed (0-based).
    void sliceChanged(int index);

  private:
    void showReconstructionSlice();
    /// The sinogram and truth panes of the current cone-beam plane.
    void showConeInputs();
    void resetPanes(bool truth);
    void showDifference(View2<const float> image);
    /// Shows @p image in the reconstruction view: automatic window on the first image of a
    /// dataset or when the shape changed, else the window stays.
    void showInRecon(View2<const float> image);

    std::shared_ptr<const app::Dataset> m_data;
    std::shared_ptr<const app::ReconOutcome> m_result;
    QString m_resultNote;
    std::shared_ptr<const app::ConeDataset> m_cone;
    ConeVolumeGrid m_coneGrid;
    int m_slice = 0;
    bool m_freshWindow = true;
    /// The automatic window an iterate took on new data (the first iterate of CGLS from zeros
    /// spans a small part of the result's range): the result takes its own automatic window
    /// unless the user changed it meanwhile.
    std::optional<WindowLevel> m_iterateWindow;
    SliceView* m_sinogram = nullptr;
    SliceView* m_recon = nullptr;
    SliceView* m_truth = nullptr;
    SliceView* m_difference = nullptr;
    QGroupBox* m_truthBox = nullptr;
    QGroupBox* m_differenceBox = nullptr;
    WindowLevelBar* m_window = nullptr;
    QSlider* m_slider = nullptr;
    QLabel* m_sliceLabel = nullptr;
};

}  // namespace tomo::ui
