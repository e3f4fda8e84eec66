#pragma once
/// @file LocalityOperator.h
/// @brief The projector pair of paper 001 for SIRT-type methods, on the CPU: a ray-driven
/// slice-interpolated forward projector whose rays are scheduled in blocks by one of the four
/// orderings (RayOrdering.h), vectorised across the rays of a block (LocalityKernels.h: 16 rays
/// of one angle per SIMD group, AVX-512 / AVX2 / portable, bit-identical; on AVX-512 a strip of
/// neighbouring rays reads each line through a 32-pixel window with permutes instead of
/// gathers, same values), and a voxel-driven
/// back-projector that is core/projectors' `cpu.simd.lin` (CpuBackProjectors.h); subset calls
/// pass only the subset's projections to it, as a geometry of their own.
/// W. J. Palenstijn, K. J. Batenburg, J. Sijbers, J. Struct. Biol. 176(2), 2011,
/// doi:10.1016/j.jsb.2011.07.017.
///
/// Forward: the Joseph model of RayGeometry.h evaluated in float (sample positions
/// a + b j + d k rounded to float, sums in float), on a zero-padded copy of each slice (a
/// row-major copy for rays along rows, a transposed one for rays along columns, so every ray
/// reads contiguous lines without bounds tests). It agrees with the double-precision
/// JosephOperator / forwardProjectJoseph to float rounding (~1e-5 relative), and the four
/// orderings agree with each other up to float summation order.
/// Back-projection: out(x, y) = sum_p w interp(sino_p, c_p + (x cos + y sin) / pitch) with
/// linear interpolation (zero outside the detector) and w = voxelSize^2 / pitch, the column
/// sum of the Joseph weights, so it approximates the adjoint of forward() (an unmatched pair,
/// as in paper 001 and ASTRA: dot-product ratio within about 1% of 1; matchedAdjoint() is
/// false, CGLS refuses it; SIRT converges with it).
///
/// Vectors: domain [slice][y][x], range [slice][angle][detector], dense (LinearOperator.h).
/// Threading: forward splits (slice, block) items over ctx.threads workers, each output value
/// written by one worker; the back-projector's results do not depend on the thread count
/// either. ctx.stop is checked per item; ctx.progress is not advanced. Not thread-safe (scratch
/// buffers): one instance per job.

#include <memory>
#include <vector>

#include "core/geometry/ParallelGeometry.h"
#include "core/locality/LocalityPair.h"
#include "core/locality/PaddedSlices.h"
#include "core/locality/RayGeometry.h"
#include "core/locality/RayOrdering.h"
#include "core/projectors/CpuBackProjectors.h"
#include "core/solvers/SubsetOperator.h"

namespace tomo {

class LocalityOperator final : public LocalityPair {
  public:
    /// InvalidArgument when the grid is invalid or vol.nz != geom.rows().
    static Result<std::unique_ptr<LocalityOperator>> create(
        const ParallelGeometry& geom, const VolumeGeometry& vol,
        RayOrdering ordering = RayOrdering::StripSegments);

    std::string name() const override;
    void setOrdering(RayOrdering ordering) { m_ordering = ordering; }

    Status forwardSubset(std::span<const float> x, std::span<float> y, int subset, int subsets,
                         const ExecContext& ctx) override;
    Status adjointSubset(std::span<const float> y, std::span<float> x, int subset, int subsets,
                         const ExecContext& ctx) override;

  private:
    LocalityOperator(const ParallelGeometry& geom, const VolumeGeometry& vol, RayOrdering ordering,
                     std::unique_ptr<BackProjector> backProjector);

    ParallelGeometry m_geom;
    VolumeGeometry m_vol;
    double m_pitch = 1;
    CpuIsa m_isa;                                    ///< instruction set of the forward kernel
    std::unique_ptr<BackProjector> m_backProjector;  ///< cpu.simd.lin
    PaddedSlices m_padded;  ///< scratch: padded row-major and transposed slices
    Sinograms m_sino;       ///< scratch: the (subset's) projections for the back-projector
    Volume m_volume;        ///< scratch: back-projector output (pitched rows)
};

}  // namespace tomo
