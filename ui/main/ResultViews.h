#pragma once
/// @file ResultViews.h
/// @brief The result views placed in the main window: a Compare tab (CompareTab.h: up to three
/// results, the truth or a difference side by side, with metrics against the truth), a Volume
/// tab (three orthogonal slices and the 3-D
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

class CompareTab;
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
    CompareTab* compare() const { return m_compare; }
    OrthoSliceView* orthoView() const { return m_ortho; }
    VolumeRenderPanel* volumePanel() const { return m_volume; }
    LineProfileView* profileView() const { return m_profile; }

    /// A new result: it joins the comparison's history and becomes the volume shown.
    void onReconstruction(std::shared_ptr<const app::ReconOutcome> recon);
    /// A new dataset: forgets the earlier results (results of other data do not compare),
    /// unless @p sameScan (CompareTab::setDataset).
    void onDatasetChanged(std::shared_ptr<const app::Dataset> data, bool sameScan = false);

  private:
    SliceView* m_slice;
    std::shared_ptr<const app::ReconOutcome> m_current;
    QWidget* m_compareTab = nullptr;
    QWidget* m_volumeTab = nullptr;
    CompareTab* m_compare = nullptr;
    OrthoSliceView* m_ortho = nullptr;
    VolumeRenderPanel* m_volume = nullptr;
    LineProfileView* m_profile = nullptr;
};

}  // namespace tomo::ui
