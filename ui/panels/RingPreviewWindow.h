#pragma once
/// @file RingPreviewWindow.h
/// @brief The ring filter's before/after window (Preprocessing > Compare before/after...): the
/// sinogram before and after the filter and their difference (where 4 % stripes that a
/// whole-sinogram thumbnail hides show as lines), above the slice reconstructed by FBP from each
/// (at the dataset's centre) and their difference. The three panes of a row zoom and pan
/// together (wheel, +/-, drag), before and after share one window/level, the differences have
/// a window symmetric about zero. app/jobs/RingPreviewJob computes what it shows.
///
/// Threading: GUI thread only; show() runs the filter and two one-slice FBPs on it (the
/// Preprocessing panel's own preview runs the filter there too).

#include <QDialog>

#include "app/jobs/RingPreviewJob.h"

class QLabel;

namespace tomo::ui {

class ImageView;
class Session;

class RingPreviewWindow : public QDialog {
    Q_OBJECT

  public:
    explicit RingPreviewWindow(Session& session, QWidget* parent = nullptr);

    /// Shows what @p options' ring filter does to sinogram @p slice of the session's dataset
    /// (a message instead when there are no data or the filter fails).
    void showPreview(int slice, const PreprocessOptions& options);

    ImageView* sinogramBefore() const { return m_views[0]; }
    ImageView* sinogramAfter() const { return m_views[1]; }
    ImageView* sinogramDifference() const { return m_views[2]; }
    ImageView* sliceBefore() const { return m_views[3]; }
    ImageView* sliceAfter() const { return m_views[4]; }
    ImageView* sliceDifference() const { return m_views[5]; }
    QLabel* summary() const { return m_summary; }

  private:
    void showImages(const app::RingPreview& p);
    void clearAll(const QString& message);

    Session& m_session;
    ImageView* m_views[6] = {};
    QLabel* m_summary = nullptr;
};

}  // namespace tomo::ui
