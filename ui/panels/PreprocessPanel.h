#pragma once
/// @file PreprocessPanel.h
/// @brief The Preprocessing panel: flat/dark options (averaged flats or flats before and after
/// the scan, -log on or off), ring removal (with a before/after preview on the shown
/// sinogram), zingers, Paganin phase retrieval, binning, an angle subset and a crop of the
/// detector rows and columns, applied to the open acquisition by reloading it
/// (core/preprocess, the same steps and order as `tomo recon --flats-before ... --no-log
/// --rings ... --zinger ... --paganin ... --bin ... --angle-range ... --crop ...`). Flat/dark
/// normalisation is always applied to acquisitions with flats, as in `tomo recon`.
///
/// The settings reach the reconstruction request and the saved file's provenance through the
/// dataset (Dataset::preprocessing, "preprocessing" in the provenance). Defaults change nothing:
/// no ring filter, no zinger removal, no binning, all angles, no crop. Sinogram stacks (TIFF,
/// raw, ..., and a dataset folder such as the bundled demo) take the steps that act on line
/// integrals (rings, zingers; a file also binning and cropping), as `tomo recon` does
/// (core/preprocess/SinogramPreprocess.h); the others are greyed out and the panel says why.
///
/// Threading: GUI thread only; the preview runs the ring filter on one sinogram (milliseconds).

#include <optional>
#include <string>

#include <QWidget>

#include "core/preprocess/Preprocess.h"

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLayout;
class QPushButton;
class QSpinBox;

namespace tomo::ui {

class Session;
class SliceView;

class RingPreviewWindow;

class PreprocessPanel : public QWidget {
    Q_OBJECT

  public:
    explicit PreprocessPanel(Session& session, QWidget* parent = nullptr);

    /// The steps the widgets ask for (besides flat/dark and -log).
    PreprocessOptions options() const;
    /// Whether -ln is taken after flat/dark normalisation (LoadRequest::minusLog).
    bool minusLog() const;
    /// Sets Paganin phase retrieval as a user would (nullopt: off).
    void setPaganin(const std::optional<PaganinOptions>& paganin);
    /// Sets the flats taken before the scan (nullopt: all flats averaged).
    void setFlatsBefore(std::optional<int> count);
    /// Sets the ring filter (method and window) as a user would.
    void setRings(RingMethod method, int window);
    /// Sets every widget to @p options and @p minusLog (what the loaded data were read with:
    /// shown whenever the applied preprocessing changes, e.g. a session reopened).
    void showOptions(const PreprocessOptions& options, bool minusLog);
    /// Shows the ring filter's before/after on @p slice's sinogram of the dataset.
    void setPreviewSlice(int slice);

    SliceView* beforeView() const { return m_before; }
    SliceView* afterView() const { return m_after; }
    /// The before/after window of "Compare before/after..." (null until first opened).
    RingPreviewWindow* ringPreviewWindow() const { return m_compare; }

  signals:
    /// "Apply and reload": the open file is to be read again with options().
    void applyRequested();

  private:
    /// Enables the widgets of the steps that apply to the open data (a Source of the .cpp).
    void enableStepsFor(int sourceKind);
    QLayout* buildFlatRow();
    QLayout* buildRingRow();
    QLayout* buildPaganinRow();
    QLayout* buildCropRow(QSpinBox*& first, QSpinBox*& last, const QString& what,
                          const QString& name);
    void syncFromDataset();
    void updatePreview();
    void openComparison();

    Session& m_session;
    int m_slice = 0;
    std::string m_shown;  ///< the applied preprocessing the widgets were last set to
    QLabel* m_applied = nullptr;
    QComboBox* m_flats = nullptr;
    QSpinBox* m_flatsBefore = nullptr;
    QCheckBox* m_minusLog = nullptr;
    QCheckBox* m_paganin = nullptr;
    QDoubleSpinBox* m_energy = nullptr;
    QDoubleSpinBox* m_distance = nullptr;
    QDoubleSpinBox* m_pixel = nullptr;
    QDoubleSpinBox* m_deltaBeta = nullptr;
    QComboBox* m_rings = nullptr;
    QSpinBox* m_ringWindow = nullptr;
    QCheckBox* m_zingers = nullptr;
    QDoubleSpinBox* m_zingerThreshold = nullptr;
    QComboBox* m_bin = nullptr;
    QSpinBox* m_angleStep = nullptr;
    QSpinBox* m_cropFirst = nullptr;
    QSpinBox* m_cropLast = nullptr;
    QSpinBox* m_rowFirst = nullptr;
    QSpinBox* m_rowLast = nullptr;
    QPushButton* m_apply = nullptr;
    SliceView* m_before = nullptr;
    SliceView* m_after = nullptr;
    QPushButton* m_compareButton = nullptr;
    RingPreviewWindow* m_compare = nullptr;
};

}  // namespace tomo::ui
