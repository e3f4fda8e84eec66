#include "app/recon/ReconGrid.h"

#include <cmath>
#include <cstdio>

namespace tomo::app {

Result<VolumeGeometry> gridFor(const ParallelGeometry& geometry, int slices,
                               const GridChoice& choice) {
    const int size = choice.size == 0 ? geometry.detectorCount() : choice.size;
    if (size < 1 || size > 65536)
        return invalidArgument("image size " + std::to_string(size) +
                               " px is outside [1, 65536]");
    const double pixel = choice.pixelSize == 0 ? geometry.detectorPitch() : choice.pixelSize;
    if (!(pixel > 0) || !std::isfinite(pixel))
        return invalidArgument("pixel size " + std::to_string(pixel) + " must be positive");
    if (!std::isfinite(choice.centerX) || !std::isfinite(choice.centerY))
        return invalidArgument("the region centre must be finite");
    const double fieldRadius = 0.5 * geometry.detectorCount() * geometry.detectorPitch();
    if (std::hypot(choice.centerX, choice.centerY) > fieldRadius)
        return invalidArgument("region centre (" + std::to_string(choice.centerX) + ", " +
                               std::to_string(choice.centerY) +
                               ") is outside the field of view (radius " +
                               std::to_string(fieldRadius) + ")");
    VolumeGeometry grid;
    grid.nx = grid.ny = size;
    grid.nz = slices;
    grid.voxelSize = pixel;
    grid.offsetX = choice.centerX;
    grid.offsetY = choice.centerY;
    TOMO_RETURN_IF_ERROR(grid.validate());
    return grid;
}

std::string describe(const VolumeGeometry& grid) {
    char text[160];
    std::snprintf(text, sizeof text, "%d x %d px of %.6g, centre (%.6g, %.6g)", grid.nx, grid.ny,
                  grid.voxelSize, grid.offsetX, grid.offsetY);
    return text;
}

}  // namespace tomo::app
