// Grid mapping of VolumeMetadata.h.
#include "core/itkio/VolumeMetadata.h"

#include <cmath>
#include <sstream>

namespace tomo {

VolumeMetadata VolumeMetadata::forGrid(const VolumeGeometry& g, double z0) {
    VolumeMetadata m;
    m.spacing = {g.voxelSize, g.voxelSize, g.voxelSize};
    m.origin = {g.x(0), g.y(0), z0};
    m.direction = {1, 0, 0, 0, -1, 0, 0, 0, 1};
    return m;
}

Result<VolumeGeometry> VolumeMetadata::toGrid(std::size_t nx, std::size_t ny,
                                              std::size_t nz) const {
    for (double s : spacing)
        if (!(s > 0) || !std::isfinite(s))
            return invalidData("volume spacing must be finite and positive (" + toString() + ")");
    if (std::abs(spacing[0] - spacing[1]) > 1e-6 * spacing[0])
        return invalidData("x and y spacing differ (" + toString() +
                           "); a reconstruction grid has square pixels");
    static constexpr std::array<double, 9> kExpected{1, 0, 0, 0, -1, 0, 0, 0, 1};
    for (std::size_t k = 0; k < 9; ++k)
        if (std::abs(direction[k] - kExpected[k]) > 1e-6)
            return invalidData(
                "volume axes are not x right, rows down along -y, slices along +z "
                "(direction matrix differs from diag(1, -1, 1))");
    VolumeGeometry g;
    g.nx = static_cast<int>(nx);
    g.ny = static_cast<int>(ny);
    g.nz = static_cast<int>(nz);
    g.voxelSize = spacing[0];
    g.offsetX = origin[0] + 0.5 * static_cast<double>(nx - 1) * spacing[0];
    g.offsetY = origin[1] - 0.5 * static_cast<double>(ny - 1) * spacing[0];
    return g;
}

std::string VolumeMetadata::toString() const {
    std::ostringstream s;
    s << "spacing " << spacing[0] << " x " << spacing[1] << " x " << spacing[2] << ", origin ("
      << origin[0] << ", " << origin[1] << ", " << origin[2] << ")";
    return s.str();
}

}  // namespace tomo
