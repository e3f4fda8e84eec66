#pragma once
/// @file ConeOpenDialog.h
/// @brief File > Open cone-beam dataset: the projections file (any readable stack format), the
/// geometry file (RTK XML or TomoStation JSON), the detector pitch when neither file gives it,
/// an optional ground truth, and for raw projections their shape.
///
/// Whenever a path changes the files are checked (app::probeCone: the geometry file and the
/// projection file's header, no bulk read) and one line says what they hold or what is wrong
/// (a view count or detector size that does not match, a file that does not parse); Open is
/// enabled only when the check passes. The pitch boxes are enabled only when the files do not
/// give the pitch.
///
/// Threading: GUI thread only.

#include <optional>

#include <QDialog>

#include "app/jobs/ConeJob.h"

class QDialogButtonBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;

namespace tomo::ui {

class ConeOpenDialog : public QDialog {
    Q_OBJECT

  public:
    explicit ConeOpenDialog(QWidget* parent = nullptr);

    /// Fills the fields from @p request and checks the files.
    void setRequest(const app::ConeOpenRequest& request);
    /// The request from the fields.
    app::ConeOpenRequest request() const;
    /// Whether the files passed the check, and the line shown about them.
    bool isValid() const { return m_valid; }
    QString checkText() const;
    /// Whether the pitch boxes are asked (the files give no pitch).
    bool asksPitch() const;

    /// Shows the dialog modally from @p initial; the request, or nothing when cancelled.
    static std::optional<app::ConeOpenRequest> ask(QWidget* parent,
                                                   const app::ConeOpenRequest& initial = {});

  private:
    void recheck();
    QLineEdit* pathRow(const QString& label, const QString& name, const QString& filter,
                       const QString& tip);

    QLineEdit* m_projections = nullptr;
    QLineEdit* m_geometry = nullptr;
    QLineEdit* m_truth = nullptr;
    QLineEdit* m_rawShape = nullptr;
    QDoubleSpinBox* m_pitchU = nullptr;
    QDoubleSpinBox* m_pitchV = nullptr;
    QLabel* m_pitchSource = nullptr;
    QLabel* m_check = nullptr;
    QDialogButtonBox* m_buttons = nullptr;
    bool m_valid = false;
};

}  // namespace tomo::ui
