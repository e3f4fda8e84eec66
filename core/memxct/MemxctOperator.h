#pragma once
/// @file MemxctOperator.h
/// @brief The MemXCT memory-centric projector pair as a LinearOperator (paper 000: M.
/// Hidayetoglu et al., "MemXCT: Memory-Centric X-ray CT Reconstruction with Massive
/// Parallelization", SC'19, doi:10.1145/3295500.3356220).
///
/// forward(x) = A x and adjoint(y) = A^T y for every slice of a stack, with A the Siddon system
/// matrix of one slice (MemxctSystem.h) built once in create() and reused for all slices. A is
/// stored twice (A and its scan-based transpose), so both directions are gathers; the adjoint
/// is the exact transpose (matchedAdjoint() is true: the dot-product test holds to float
/// rounding), as CGLS needs.
///
/// Vectors are the LinearOperator layout: x = volume [slice][y][x] (vol.nx * vol.ny * vol.nz
/// floats, dense), y = sinograms [slice][angle][detector] (geom.rows() * angles * detectors).
/// Per slice, the operator gathers its input into curve order, runs the SpMV, and scatters the
/// result back (O(pixels), small against O(nonzeros)). Units: A x is the line integral of the
/// piecewise-constant image in the job's length unit, the same scale as
/// forwardProjectJoseph and Phantom::project (a constant image 1 projects to the chord length).
///
/// With options.circleMask (the default) only pixels whose centre lies inside the inscribed
/// circle are unknowns: forward ignores the values of the other pixels, adjoint writes 0 there,
/// i.e. the operator is A P with P the orthogonal projection onto the circle (still exactly
/// matched).
///
/// Memory: create() estimates the footprint before building (estimateMemxctMemory) and returns
/// OutOfMemory with the estimate and the budget when it does not fit.
///
/// Threading: forward/adjoint use ctx.threads workers over row partitions; the object holds
/// per-slice scratch and must not be used from two threads at once. Results do not depend on
/// the thread count.

#include <memory>
#include <vector>

#include "core/memxct/MemxctSystem.h"
#include "core/solvers/LinearOperator.h"

namespace tomo {

class MemxctOperator final : public LinearOperator {
  public:
    /// Builds the system for @p geom (all angles, geom.rows() slices) and grid @p vol
    /// (vol.nz must equal geom.rows()). InvalidArgument for mismatched sizes or bad options,
    /// OutOfMemory when the estimate exceeds options.memoryBudgetBytes, Cancelled.
    static Result<std::unique_ptr<MemxctOperator>> create(const ParallelGeometry& geom,
                                                          const VolumeGeometry& vol,
                                                          const MemxctOptions& options,
                                                          const ExecContext& ctx);

    std::size_t domainSize() const override { return m_pixels * m_slices; }
    std::size_t rangeSize() const override { return m_samples * m_slices; }
    bool matchedAdjoint() const override { return true; }
    std::string name() const override;
    Status forward(std::span<const float> x, std::span<float> y, const ExecContext& ctx) override;
    Status adjoint(std::span<const float> y, std::span<float> x, const ExecContext& ctx) override;

    /// Kernel used by forward/adjoint; with options.keepCsr both kernels are available.
    void setKernel(MemxctKernel kernel) { m_kernel = kernel; }
    MemxctKernel kernel() const { return m_kernel; }
    const MemxctSystem& system() const { return m_system; }

  private:
    explicit MemxctOperator(MemxctSystem system) : m_system(std::move(system)) {}
    MemxctSystem m_system;
    MemxctKernel m_kernel = MemxctKernel::Buffered;
    std::size_t m_pixels = 0, m_samples = 0, m_slices = 0;
    std::vector<float> m_curveImage, m_curveSino;  ///< per-slice scratch in curve order
};

}  // namespace tomo
