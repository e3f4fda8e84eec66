#pragma once
/// @file JosephOperator.h
/// @brief The matched projector pair for CGLS and TV: the slice-interpolated (Joseph)
/// forward projector and its exact transpose, as a SubsetOperator over flat vectors.
///
/// forward(): ray-driven, one ray per detector pixel, the float Joseph sums of
/// LocalityKernels.h (16 rays of a strip per AVX-512 vector, a 32-pixel window per line; the
/// same model as forwardProjectJoseph, core/projectors/ForwardProjector.h, which samples in
/// double: they agree to float rounding of the positions and sums), weights as in
/// RayGeometry.h. Each ray is summed over exactly the lines where its float position lies in
/// (-1, lineLength) (josephActiveLines), so every weight the adjoint uses is in the forward.
/// adjoint(): the exact transpose of those float weights computed pixel-driven (a gather, no
/// write conflicts, JosephKernels.h): pixel i of line k receives
/// sum_j step * max(0, 1 - |pos_j - i|) y_j for every projection, pos_j the forward's float
/// position, vectorised across 16 pixels of an image row (row-dominant angles) or of a column
/// (column-dominant angles, accumulated transposed per band of 16 rows).
/// So <A x, y> = <x, A^T y> up to float rounding (dot-product test in
/// tests/core/locality/LocalityOperatorTest.cpp, entry-wise transpose in
/// JosephOperatorTest.cpp), as CGLS requires (P. M. Joseph, IEEE TMI 1(3), 1982,
/// doi:10.1109/TMI.1982.4307572; W. J. Palenstijn, K. J. Batenburg, J. Sijbers, J. Struct.
/// Biol. 176(2), 2011, doi:10.1016/j.jsb.2011.07.017).
///
/// Vectors: domain [slice][y][x] (row 0 = top), range [slice][angle][detector], both dense.
/// Threading: forward splits (slice, projection) items and adjoint (slice, band of 16 rows)
/// items over ctx.threads workers; every output value is computed by one worker in a fixed
/// order, so results do not depend on the thread count. ctx.stop is checked per item;
/// ctx.progress is not used. The instruction set (AVX-512 or portable) is chosen at creation
/// with bestCpuIsa(); a call is not reentrant (internal padded buffers).

#include <memory>
#include <vector>

#include "core/geometry/ParallelGeometry.h"
#include "core/locality/PaddedSlices.h"
#include "core/locality/RayGeometry.h"
#include "core/projectors/CpuBackProjectors.h"
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

    Status forwardSubset(std::span<const float> x, std::span<float> y, int subset, int subsets,
                         const ExecContext& ctx) override;
    Status adjointSubset(std::span<const float> y, std::span<float> x, int subset, int subsets,
                         const ExecContext& ctx) override;

  private:
    JosephOperator(const VolumeGeometry& vol, std::vector<RayAngle> rays, int detectors);

    VolumeGeometry m_vol;
    std::vector<RayAngle> m_rays;
    int m_detectors = 0;
    std::size_t m_domain = 0;
    std::size_t m_range = 0;
    CpuIsa m_isa = CpuIsa::Generic;
    int m_pad = 0;                   ///< table entries before detector 0 (>= candidates)
    std::size_t m_tableLength = 0;   ///< entries per angle of m_pos0 and m_sino
    std::vector<float> m_pos0;       ///< [angle][j + m_pad]: float(a + b j)
    std::vector<int> m_first;        ///< [angle][j]: first active line of the ray
    std::vector<int> m_last;         ///< [angle][j]: one past its last active line
    std::vector<float> m_halfWidth;  ///< [angle]: candidate half-width of the adjoint (rays)
    std::vector<int> m_candidates;   ///< [angle]: rays examined per pixel by the adjoint
    PaddedSlices m_padded;           ///< forward: padded rows and columns of every slice
    std::vector<float> m_sino;       ///< adjoint: [slice][angle][j + m_pad], zero padded
};

}  // namespace tomo
