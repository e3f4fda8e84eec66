#pragma once
/// @file ConeGeometryPanel.h
/// @brief The Cone geometry dock: the values of a cone-beam geometry that are tuned by eye
/// (source to isocentre and source to detector distances, the detector offset u/v as RTK's
/// ProjectionOffsetX/Y, the in-plane detector tilt), what the central-plane preview last did,
/// and the notes of the scan (full or short scan, half-fan) with its warnings (insufficient
/// data).
///
/// The values are view 0's; app::tunedGeometry moves every view by the change, so per-view
/// calibrations of the file are kept. Every change emits tuningChanged() (the main window
/// previews the central plane, debounced: ConePreview.h); "Reset to file" restores the file's
/// values. The panel holds no data: ConeActions feeds it.
///
/// Threading: GUI thread only.

#include <string>
#include <vector>

#include <QWidget>

#include "app/jobs/ConeJob.h"

class QDoubleSpinBox;
class QLabel;
class QPushButton;

namespace tomo::ui {

class ConeGeometryPanel : public QWidget {
    Q_OBJECT

  public:
    explicit ConeGeometryPanel(QWidget* parent = nullptr);

    /// The file's values (@p base) shown without a signal; disabled when @p enabled is false
    /// (no cone-beam dataset).
    void setFileTuning(const app::ConeTuning& base, bool enabled = true);
    /// The values shown; a value left as the file has it is the file's exact value (the boxes
    /// show three decimals).
    app::ConeTuning tuning() const;
    /// Shows @p t and emits tuningChanged() when it differs.
    void setTuning(const app::ConeTuning& t);
    /// The file's values.
    const app::ConeTuning& fileTuning() const { return m_base; }

    /// One line on the last preview ("Central plane y = 0 mm, 48 x 48, rows 39-42 of 80:
    /// 0.05 s").
    void setPreviewText(const QString& text);
    /// The scan's notes and warnings (warnings first, marked).
    void setNotes(const std::vector<std::string>& notes, const std::vector<std::string>& warnings);
    QString notesText() const;
    QString previewText() const;

    QDoubleSpinBox* sidBox() const { return m_sid; }
    QDoubleSpinBox* sddBox() const { return m_sdd; }
    QDoubleSpinBox* offsetUBox() const { return m_offsetU; }
    QDoubleSpinBox* offsetVBox() const { return m_offsetV; }
    QDoubleSpinBox* tiltBox() const { return m_tilt; }

  signals:
    void tuningChanged();

  private:
    QDoubleSpinBox* addBox(const QString& name, double lo, double hi, double step,
                           const QString& suffix, const QString& tip);

    app::ConeTuning shown() const;

    app::ConeTuning m_base;
    app::ConeTuning m_shown;  ///< what the boxes showed for m_base
    bool m_silent = false;
    QDoubleSpinBox* m_sid = nullptr;
    QDoubleSpinBox* m_sdd = nullptr;
    QDoubleSpinBox* m_offsetU = nullptr;
    QDoubleSpinBox* m_offsetV = nullptr;
    QDoubleSpinBox* m_tilt = nullptr;
    QPushButton* m_reset = nullptr;
    QLabel* m_preview = nullptr;
    QLabel* m_notes = nullptr;
};

}  // namespace tomo::ui
