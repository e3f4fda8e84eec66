#include "app/jobs/FieldOfView.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace tomo::app {

std::size_t FieldOfView::pixels() const {
    std::size_t n = 0;
    for (float v : discMask(std::size_t(rows), std::size_t(cols), centerX, centerY, radius))
        n += v != 0.0f;
    return n;
}

bool FieldOfView::coversImage() const {
    for (double x : {0.0, double(cols - 1)})
        for (double y : {0.0, double(rows - 1)})
            if (std::hypot(x - centerX, y - centerY) > radius) return false;
    return true;
}

std::string FieldOfView::describe() const {
    char text[96];
    std::snprintf(text, sizeof text, "the field of view (disc of radius %.1f px about the axis)",
                  radius);
    return text;
}

FieldOfView fieldOfView(const ParallelGeometry& geometry, const VolumeGeometry& grid) {
    const double center = geometry.centerOfRotation();
    const double reach =
        std::min(center + 0.5, geometry.detectorCount() - 0.5 - center) * geometry.detectorPitch();
    FieldOfView fov;
    fov.rows = grid.ny;
    fov.cols = grid.nx;
    fov.radius = std::max(0.0, reach / grid.voxelSize);
    fov.centerX = 0.5 * (grid.nx - 1) - grid.offsetX / grid.voxelSize;
    fov.centerY = 0.5 * (grid.ny - 1) + grid.offsetY / grid.voxelSize;
    return fov;
}

Result<ImageMetrics> fieldOfViewMetrics(View2<const float> image, View2<const float> truth,
                                        const FieldOfView& fov) {
    if (image.rows() != std::size_t(fov.rows) || image.cols() != std::size_t(fov.cols))
        return invalidArgument("the image is not of the field of view's grid");
    const std::vector<float> mask =
        discMask(image.rows(), image.cols(), fov.centerX, fov.centerY, fov.radius);
    return compareImages(image, truth, 0.0,
                         Mask(mask.data(), image.rows(), image.cols(), image.cols()));
}

}  // namespace tomo::app
