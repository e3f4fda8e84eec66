#pragma once
/// @file ConeActions.h
/// @brief Cone-beam datasets in the main window, one small class (as FileActions) so that
/// MainWindow stays a layout: File > Open cone-beam dataset (ConeOpenDialog), the Volume box of
/// the Parameters dock (ConeVolumeBox), the Cone geometry dock (ConeGeometryPanel) with its
/// central-plane preview (ConePreview), Reconstruct by FDK through the Session (app/jobs
/// ConeJob.h: the front door's ConeReconRequest), and the result: its axial planes in the
/// Reconstruction tab (the central plane first), the Volume tab's orthogonal slices and
/// rendering, the metrics of the central plane, the scan's notes in the dock and the status
/// bar, and its warnings (insufficient data) in a message box as well.
///
/// The filter window and cutoff are set in the Parameters dock's filter fields, but FDK and FBP
/// each keep their own (ramp 1.00 at first): opening cone-beam data shows FDK's, parallel-beam
/// data FBP's again, so neither inherits the other's silently; the run bar says which. A change of
/// geometry, volume or filter previews the central plane (debounced, superseded previews
/// cancelled); Reconstruct cancels a pending preview.
///
/// Threading: GUI thread only.

#include <filesystem>
#include <memory>
#include <optional>

#include <QObject>

#include "app/jobs/ConePlane.h"

namespace tomo::ui {

class ConeGeometryPanel;
class ConePreview;
class ConeVolumeBox;
class MainWindow;

class ConeActions : public QObject {
    Q_OBJECT

  public:
    /// Creates the panel and the box (placed by the window's layout); @p window outlives this.
    explicit ConeActions(MainWindow& window);

    ConeGeometryPanel* panel() const { return m_panel; }
    ConeVolumeBox* volumeBox() const { return m_volume; }
    ConePreview* preview() const { return m_preview; }

    /// Starts loading @p request (what the dialog's Open does). Errors reach the window's
    /// message box through Session::jobFinished; the previous data stay. False when busy.
    bool openCone(const app::ConeOpenRequest& request);
    /// `tomostation PROJECTIONS --geometry FILE`: the files checked (errors also reported in
    /// the window); asks the pitch in the dialog when the files give none and confirmations
    /// are on (Cancelled when the dialog is). Without a pitch: 1 mm, said in the notes.
    Result<app::ConeOpenRequest> commandLineRequest(const std::filesystem::path& projections,
                                                    const std::filesystem::path& geometry);

    /// The reconstruction's settings from the widgets.
    app::ConeJobSpec spec() const;
    /// Starts FDK of the open cone-beam dataset; false (the reason in the status bar) when
    /// nothing started.
    bool reconstruct();
    /// Asks for a central-plane preview with spec() (debounced); nothing without cone data.
    void requestPreview();

    /// MainWindow's hooks: the active data changed (cone-beam or not), a cone-beam result
    /// was published.
    void onDatasetChanged();
    void showResult();
    /// While a job runs the geometry and volume are not edited (as the parameter form).
    void setBusy(bool busy);

  public slots:
    /// File > Open cone-beam dataset...: the dialog, then openCone().
    void openDialog();

  private:
    void onPreview(std::shared_ptr<const app::ConePlane> plane, double seconds);
    /// Shows the filter of the kind of data now open (see the file comment).
    void swapFilterSettings(bool cone);

    struct FilterChoice {
        QString name = QStringLiteral("ramp");
        double cutoff = 1.0;
    };
    FilterChoice m_otherFilter;  ///< the filter of the kind of data not open
    bool m_showingCone = false;
    QString datasetText(const app::ConeDataset& data) const;

    MainWindow& m_window;
    ConeGeometryPanel* m_panel = nullptr;
    ConeVolumeBox* m_volume = nullptr;
    ConePreview* m_preview = nullptr;
};

}  // namespace tomo::ui
