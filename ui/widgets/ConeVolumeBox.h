#pragma once
/// @file ConeVolumeBox.h
/// @brief The Volume box of the Parameters dock for a cone-beam dataset: voxels along x, y (the
/// rotation axis) and z, and the voxel size in mm, a volume centred on the isocentre as
/// `tomo recon --volume --voxel-size` makes it. "Default" restores the dataset's default grid
/// (app::defaultConeGrid: the geometry file's volume, else nu x nv x nu voxels of the detector
/// pitch at the isocentre), which is also what grid() gives while the boxes show it (so a
/// JSON volume off the isocentre is kept).
///
/// Threading: GUI thread only.

#include <QGroupBox>

#include "core/cone/ConeGeometry.h"

class QDoubleSpinBox;
class QLabel;
class QPushButton;
class QSpinBox;

namespace tomo::ui {

class ConeVolumeBox : public QGroupBox {
    Q_OBJECT

  public:
    explicit ConeVolumeBox(QWidget* parent = nullptr);

    /// Shows @p grid as the default (no signal).
    void setDefaultGrid(const ConeVolumeGrid& grid);
    /// The grid the boxes describe.
    ConeVolumeGrid grid() const;
    /// Shows a centred grid of @p nx x @p ny x @p nz voxels of @p spacing mm (one gridChanged).
    void setGrid(int nx, int ny, int nz, double spacing);
    /// True while the boxes show the default grid.
    bool showsDefault() const;

  signals:
    void gridChanged();

  private:
    void showGrid(const ConeVolumeGrid& grid);

    ConeVolumeGrid m_default;
    double m_shownSpacing = 0;  ///< the spacing box's value for m_default
    bool m_silent = false;
    QSpinBox* m_nx = nullptr;
    QSpinBox* m_ny = nullptr;
    QSpinBox* m_nz = nullptr;
    QDoubleSpinBox* m_spacing = nullptr;
    QPushButton* m_reset = nullptr;
    QLabel* m_info = nullptr;
};

}  // namespace tomo::ui
