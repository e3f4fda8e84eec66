#pragma once
/// @file CheckProblem.h
/// @brief The full-size problem of the CUDA self-check and its CPU reference (no CUDA types;
/// tested on the CPU in tests/gpu).
///
/// Problem: `size` detectors, `projections` angles over [0, pi) with an axis 0.3 px off centre,
/// `slices` slices, each the analytic sinogram of its own random-ellipse phantom (Phantom.h;
/// distinct slices, so that a kernel mixing up slices fails), on the size x size grid of the
/// detector. The CPU filters the stack once (RampFilter, Ram-Lak): `filtered`.
/// Reference: the CPU FBP (core reconstructFbp with cpu.reference.lin or .nn: filtering as above,
/// double-precision back-projection with the angular weights) evaluated only on a few windows
/// of rows (VolumeGeometry offsets: the same pixel centres as the full grid), chosen across the
/// band and tile boundaries of the device runs (first rows, rows around size/4 and size/2 and
/// the last rows). The full-size CPU FBP would take minutes; the windows take seconds.

#include <memory>
#include <vector>

#include "core/base/ExecContext.h"
#include "core/geometry/ParallelGeometry.h"
#include "core/projectors/BackProjector.h"

namespace tomo::cuda {

struct CheckShape {
    int size = 2048, projections = 2048, slices = 4;
    int windowRows = 8;  ///< rows per reference window
};

class CheckProblem {
  public:
    /// Projects the phantoms and filters the stack (all host threads of @p ctx).
    static Result<CheckProblem> create(const CheckShape& shape, const ExecContext& ctx = {});

    const CheckShape& shape() const { return m_shape; }
    const ParallelGeometry& geometry() const { return m_geom; }
    VolumeGeometry grid() const { return m_vol; }
    const Sinograms& raw() const { return m_raw; }
    const Sinograms& filtered() const { return m_filtered; }
    const std::vector<float>& weights() const { return m_weights; }
    const std::vector<int>& windowBegins() const { return m_windows; }
    /// Upper bound on |u| over every pixel and projection (for coordinateError()).
    double coordinateMagnitude() const;

    /// The CPU FBP on every window with @p reference (cpu.reference.lin or .nn): one Volume of
    /// [slices][windowRows][size] per window.
    Result<std::vector<Volume>> reference(BackProjector& reference, const ExecContext& ctx) const;

  private:
    CheckProblem(CheckShape shape, ParallelGeometry geom)
        : m_shape(shape), m_geom(std::move(geom)) {}
    CheckShape m_shape;
    ParallelGeometry m_geom;
    VolumeGeometry m_vol;
    Sinograms m_raw, m_filtered;
    std::vector<float> m_weights;
    std::vector<int> m_windows;
};

}  // namespace tomo::cuda
