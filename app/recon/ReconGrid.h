#pragma once
/// @file ReconGrid.h
/// @brief The reconstruction grid a user asks for: image size, pixel size and the centre of a
/// region of interest, turned into a VolumeGeometry in one place for `tomo recon` (--size,
/// --pixel-size, --roi-center) and the GUI's Region and sampling box.
///
/// The region's centre is in the same length unit as the detector pitch, relative to the
/// rotation axis (x to the right, y up, as VolumeGeometry::offsetX/offsetY). A region smaller
/// than the object is an interior (truncated-free) reconstruction of parallel-beam data: every
/// projection still sees the whole object, so FBP is exact inside it; iterative methods model
/// only the region, so mass outside it is pushed into its edge.

#include <string>

#include "core/base/Status.h"
#include "core/geometry/ParallelGeometry.h"

namespace tomo::app {

struct GridChoice {
    int size = 0;           ///< pixels per side; 0 = the detector count
    double pixelSize = 0;   ///< 0 = the detector pitch
    double centerX = 0;     ///< region centre relative to the rotation axis (pitch units)
    double centerY = 0;
    bool operator==(const GridChoice&) const = default;
};

/// The grid of @p choice for @p geometry with @p slices slices. InvalidArgument naming the value
/// for a size outside [1, 65536], a pixel size that is not positive and finite, or a centre
/// that is not finite or lies outside the detector's field of view.
Result<VolumeGeometry> gridFor(const ParallelGeometry& geometry, int slices,
                               const GridChoice& choice);

/// "256 x 256 px of 1, centre (0, 0)" for provenance and the GUI.
std::string describe(const VolumeGeometry& grid);

}  // namespace tomo::app
