#pragma once
/// @file ResultViews.h
/// @brief The result views of the views library (ui/views) placed in the main window: a
/// Compare tab (the latest reconstruction against the one before it, e.g. SIRT against FBP,
/// with their difference and RMSE/SSIM), a Volume tab (three orthogonal slices and the 3-D
/// rendering with transfer-function presets and editor), and a line-profile dock fed by the
/// reconstruction view's profile tool.
///
/// Data flow: MainWindow calls onReconstruction() for every newly published reconstruction;
/// the views receive the image as immutable shared data (an aliasing shared_ptr into the
/// Session's ReconOutcome, so no copy is made for the volume views).
///
/// Threading: GUI thread only (VTK objects are created and rendered there).

#include <memory>

#include <QObject>

#include "app/jobs/DemoJob.h"

namespace tomo::ui {

class CompareView;
class LineProfileView;
class OrthoSliceView;
class SliceView;
class VolumeRenderPanel;

class ResultViews : public QObject {
    Q_OBJECT

  public:
    /// @p sliceView is the reconstruction view the profile tool works on.
    ResultViews(SliceView* sliceView, QObject* parent = nullptr);

    QWidget* compareTab() const { return m_compareTab; }
    QWidget* volumeTab() const { return m_volumeTab; }
    CompareView* compareView() const { return m_compare; }
    OrthoSliceView* orthoView() const { return m_ortho; }
    VolumeRenderPanel* volumePanel() const { return m_volume; }
    LineProfileView* profileView() const { return m_profile; }

    /// A new result: it becomes A of the comparison (the previous one B) and the volume shown.
    void onReconstruction(std::shared_ptr<const app::ReconOutcome> recon);
    /// A new dataset: forgets the previous result (results of other data do not compare).
    void onDatasetChanged();

  private:
    SliceView* m_slice;
    std::shared_ptr<const app::ReconOutcome> m_current;
    std::shared_ptr<const app::ReconOutcome> m_previous;
    QWidget* m_compareTab = nullptr;
    QWidget* m_volumeTab = nullptr;
    CompareView* m_compare = nullptr;
    OrthoSliceView* m_ortho = nullptr;
    VolumeRenderPanel* m_volume = nullptr;
    LineProfileView* m_profile = nullptr;
};

}  // namespace tomo::ui
