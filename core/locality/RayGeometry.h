#pragma once
/// @file RayGeometry.h
/// @brief The slice-interpolated (Joseph) ray model of paper 001 in one affine form shared by
/// the forward projectors and the exact transpose of this module.
///
/// For projection p and detector pixel j the ray x cos(theta) + y sin(theta) = t_j,
/// t_j = (j - c_p) * pitch (ParallelGeometry.h), is stepped along its dominant image axis:
///  - rows (|cos| >= |sin|): line k = pixel row iy, the ray crosses it at fractional column
///    pos = a + b j + d k, and the row is read there with linear interpolation;
///  - columns (otherwise): line k = pixel column ix, fractional row pos = a + b j + d k.
/// Each sample is multiplied by step = voxelSize / max(|cos|, |sin|), so the result is a line
/// integral in the job's length unit. Pixel i of line k therefore has the weight
///   a_{(p,j),(k,i)} = step * max(0, 1 - |a + b j + d k - i|),
/// which is all a matched adjoint needs (P. M. Joseph, IEEE TMI 1(3), 1982,
/// doi:10.1109/TMI.1982.4307572; W. J. Palenstijn, K. J. Batenburg, J. Sijbers, J. Struct. Biol.
/// 176(2), 2011, doi:10.1016/j.jsb.2011.07.017). This is the model of forwardProjectJoseph
/// (core/projectors/ForwardProjector.h).

#include <cmath>
#include <utility>
#include <vector>

#include "core/geometry/ParallelGeometry.h"

namespace tomo {

/// The affine ray parameters of one projection angle.
struct RayAngle {
    bool alongRows = true;       ///< lines are pixel rows (else pixel columns)
    double a = 0, b = 0, d = 0;  ///< pos = a + b j + d k (in pixels of the line)
    double step = 0;             ///< length of one line step (length units)
    int lines = 0;               ///< number of lines (ny for rows, nx for columns)
    int lineLength = 0;          ///< pixels per line (nx for rows, ny for columns)
};

/// Ray parameters of every projection of @p geom on the grid @p vol.
std::vector<RayAngle> rayAngles(const ParallelGeometry& geom, const VolumeGeometry& vol);

/// Lines k in [0, count) where pos0 + k * step lies in (-1, size), i.e. where a sample can be
/// nonzero; returns [first, last) (empty as {0, 0}).
std::pair<int, int> activeLines(double pos0, double step, int size, int count);

}  // namespace tomo
