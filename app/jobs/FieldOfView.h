#pragma once
/// @file FieldOfView.h
/// @brief The field of view of a parallel-beam reconstruction: the disc about the rotation axis
/// that every projection covers (radius: the distance from the axis to the nearer detector
/// edge). Inside it the data determine the image; outside it (the corners of a square grid on a
/// detector no wider than the grid) they do not, and a reconstruction's values there mean
/// nothing. The GUI computes and labels its error metrics over this disc (as ASTRA's and
/// TomoPy's circle masks do), draws it on the images and sets the automatic window from the
/// values inside it.
///
/// Plain C++; pure functions.

#include <optional>
#include <string>
#include <vector>

#include "core/geometry/ParallelGeometry.h"
#include "core/metrics/Metrics.h"

namespace tomo::app {

/// A disc in pixel-index coordinates of the grid's image (x = column, y = row, row 0 on top).
struct FieldOfView {
    double centerX = 0, centerY = 0, radius = 0;
    int rows = 0, cols = 0;  ///< the image it is of
    /// Pixels of the image inside the disc.
    std::size_t pixels() const;
    /// True when it covers every pixel centre (nothing to mask).
    bool coversImage() const;
    /// "the field of view (disc of radius 128.0 px about the axis)".
    std::string describe() const;
};

/// The field of view of @p geometry on @p grid (one slice's image).
FieldOfView fieldOfView(const ParallelGeometry& geometry, const VolumeGeometry& grid);

/// Metrics of @p image against @p truth over @p fov (core compareImages with its disc mask).
/// The shapes must be fov's; InvalidArgument otherwise.
Result<ImageMetrics> fieldOfViewMetrics(View2<const float> image, View2<const float> truth,
                                        const FieldOfView& fov);

}  // namespace tomo::app
