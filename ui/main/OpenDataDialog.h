#pragma once
/// @file OpenDataDialog.h
/// @brief What File > Open asks before loading a file that does not describe itself: the shape
/// of a raw file (slices x angles x detectors, float32 little-endian, as `tomo recon --shape`)
/// and the angle range of a sinogram stack (first and end angle in degrees, end exclusive, as
/// `tomo recon --angles`; the count is the stack's angle dimension). Acquisitions (HDF5) carry
/// both and open without it. A raw file's size decides: the fields start at a shape that holds
/// the file exactly, the slices follow the angles and detectors typed, and Open is enabled only
/// while the shape holds the whole file (the label says what it holds).
///
/// Threading: GUI thread only.

#include <cstdint>
#include <filesystem>
#include <optional>

#include <QDialog>

#include "app/jobs/LoadJob.h"

class QDoubleSpinBox;
class QLabel;
class QPushButton;
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
    /// Raw files: the shape the file's size allows (the fields' defaults when they fit).
    void suggestShape();
    /// Says whether the shape typed holds the file exactly; Open only when it does.
    void checkSize();

    std::filesystem::path m_file;
    std::optional<std::uintmax_t> m_floats;  ///< float32 values in a raw file
    QLabel* m_sizeCheck = nullptr;
    QPushButton* m_open = nullptr;
    bool m_needsShape;
    QSpinBox* m_slices = nullptr;
    QSpinBox* m_angles = nullptr;
    QSpinBox* m_detectors = nullptr;
    QDoubleSpinBox* m_first = nullptr;
    QDoubleSpinBox* m_end = nullptr;
};

}  // namespace tomo::ui
