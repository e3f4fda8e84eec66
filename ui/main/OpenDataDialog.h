#pragma once
/// @file OpenDataDialog.h
/// @brief What File > Open asks before loading a file that does not describe itself: the shape
/// of a raw file (slices x angles x detectors, float32 little-endian, as `tomo recon --shape`)
/// and the angle range of a sinogram stack (first and end angle in degrees, end exclusive, as
/// `tomo recon --angles`; the count is the stack's angle dimension). Acquisitions (HDF5) carry
/// both and open without it.
///
/// Threading: GUI thread only.

#include <filesystem>
#include <optional>

#include <QDialog>

#include "app/jobs/LoadJob.h"

class QDoubleSpinBox;
class QSpinBox;

namespace tomo::ui {

class OpenDataDialog : public QDialog {
    Q_OBJECT

  public:
    /// @p needsShape: show the raw shape fields (raw files).
    OpenDataDialog(const std::filesystem::path& file, bool needsShape, QWidget* parent = nullptr);

    /// The request from the fields (shape only when asked for).
    app::LoadRequest request() const;

    /// Shows the dialog modally; the request, or nothing when the user cancelled.
    static std::optional<app::LoadRequest> ask(QWidget* parent, const std::filesystem::path& file,
                                               bool needsShape);

  private:
    std::filesystem::path m_file;
    bool m_needsShape;
    QSpinBox* m_slices = nullptr;
    QSpinBox* m_angles = nullptr;
    QSpinBox* m_detectors = nullptr;
    QDoubleSpinBox* m_first = nullptr;
    QDoubleSpinBox* m_end = nullptr;
};

}  // namespace tomo::ui
