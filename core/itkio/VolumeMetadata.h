#pragma once
/// @file VolumeMetadata.h
/// @brief Voxel spacing, origin and axis directions of a volume file (MetaImage, NRRD, NIfTI), and
/// their mapping to the reconstruction grid of ParallelGeometry.h.
///
/// Index axes follow ITK: axis 0 = column (x index, fastest in memory), axis 1 = row, axis 2 =
/// slice; an Array3 [z][y][x] holds element (column i, row j, slice k) at (k, j, i). The world
/// position of that voxel's centre is origin + D * diag(spacing) * (i, j, k) with D the direction
/// matrix (row-major; its column a is the world direction of index axis a). Lengths are in the
/// file's unit (VolumeGeometry uses the detector pitch's unit; MetaImage and NRRD do not store
/// one, NIfTI usually says mm).
///
/// TomoStation's convention (docs/geometry.md): x to the right, y up, row 0 at the top. So the
/// rows of a reconstruction run along -y: forGrid() writes D = diag(1, -1, 1), and toGrid()
/// accepts exactly that orientation (other tools' files with rows along +y are read as stored;
/// their geometry is reported, not converted).
///
/// Threading: plain values.

#include <array>
#include <cstddef>
#include <string>

#include "core/base/Status.h"
#include "core/geometry/ParallelGeometry.h"

namespace tomo {

struct VolumeMetadata {
    std::array<double, 3> spacing{1.0, 1.0, 1.0};  ///< x, y, z: centre-to-centre distances (> 0)
    std::array<double, 3> origin{0.0, 0.0, 0.0};   ///< world position of voxel (0, 0, 0)
    std::array<double, 9> direction{1, 0, 0, 0, -1, 0, 0, 0, 1};  ///< row-major 3x3, see above

    /// The metadata of grid @p g: spacing voxelSize on all axes (slices are voxelSize apart),
    /// origin = centre of pixel (0, 0) = (g.x(0), g.y(0), z0), direction diag(1, -1, 1).
    static VolumeMetadata forGrid(const VolumeGeometry& g, double z0 = 0.0);

    /// The grid of an nx x ny x nz volume with this metadata. InvalidData naming the cause when
    /// the x and y spacings differ (VolumeGeometry has square pixels), a spacing is not positive,
    /// or the direction is not diag(1, -1, 1) (to 1e-6).
    Result<VolumeGeometry> toGrid(std::size_t nx, std::size_t ny, std::size_t nz) const;

    /// "spacing 0.5 x 0.5 x 1, origin (-15.75, 15.75, 0)".
    std::string toString() const;
};

}  // namespace tomo
