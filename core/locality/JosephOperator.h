#pragma once
/// @file JosephOperator.h
/// @brief The matched projector pair for CGLS and TV: the slice-interpolated (Joseph)
/// forward projector and its exact transpose, as a SubsetOperator over flat vectors.
///
/// forward(): ray-driven, one ray per detector pixel, samples and sums in double, stored as
/// float; the same model and numbers as forwardProjectJoseph (core/projectors/ForwardProjector.h,
/// to float rounding), weights as in RayGeometry.h.
/// adjoint(): the exact transpose computed pixel-driven (a gather, no write conflicts): pixel i
/// of line k receives sum_j step * max(0, 1 - |a + b j + d k - i|) y_j for every projection,
/// over the two or three detector pixels j whose ray passes within one pixel; in double.
/// So <A x, y> = <x, A^T y> up to float rounding of the stored values (dot-product test in
/// tests/core/locality/JosephOperatorTest.cpp), as CGLS requires (P. M. Joseph, IEEE TMI 1(3),
/// 1982, doi:10.1109/TMI.1982.4307572).
///
/// Vectors: domain [slice][y][x] (row 0 = top), range [slice][angle][detector], both dense.
/// Threading: forward splits (slice, projection) items and adjoint (slice, row) items over
/// ctx.threads workers; every output value is computed by one worker, so results do not depend
/// on the thread count. ctx.stop is checked per item; ctx.progress is not used.

#include <memory>
#include <vector>

#include "core/geometry/ParallelGeometry.h"
#include "core/locality/RayGeometry.h"
#include "core/solvers/SubsetOperator.h"

namespace tomo {

class JosephOperator final : public SubsetOperator {
  public:
    /// InvalidArgument when the grid is invalid or the slice counts differ (vol.nz must equal
    /// geom.rows()).
    static Result<std::unique_ptr<JosephOperator>> create(const ParallelGeometry& geom,
                                                          const VolumeGeometry& vol);

    std::size_t domainSize() const override { return m_domain; }
    std::size_t rangeSize() const override { return m_range; }
    bool matchedAdjoint() const override { return true; }
    std::string name() const override { return "joseph-matched"; }
    int angleCount() const override { return static_cast<int>(m_rays.size()); }
    int detectorCount() const override { return m_detectors; }

    Status forward(std::span<const float> x, std::span<float> y, const ExecContext& ctx) override;
    Status adjoint(std::span<const float> y, std::span<float> x, const ExecContext& ctx) override;
    Status forwardSubset(std::span<const float> x, std::span<float> y, int subset, int subsets,
                         const ExecContext& ctx) override;
    Status adjointSubset(std::span<const float> y, std::span<float> x, int subset, int subsets,
                         const ExecContext& ctx) override;

  private:
    JosephOperator(const VolumeGeometry& vol, std::vector<RayAngle> rays, int detectors);
    Status checkSizes(std::size_t x, std::size_t y) const;

    VolumeGeometry m_vol;
    std::vector<RayAngle> m_rays;
    int m_detectors = 0;
    std::size_t m_domain = 0;
    std::size_t m_range = 0;
};

}  // namespace tomo
