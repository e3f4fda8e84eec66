#pragma once
/// @file ConeKernelSupport.h
/// @brief What every cone-beam back-projector's host code shares (CPU, OpenCL, CUDA): the
/// float index matrices of a batch of views, and the zero-padded projection layouts their
/// kernels read, so that the clamp-and-interpolate rule of ConeBackProjector.h needs no bounds
/// checks: a coordinate clamped to [-1, n] reads padded index floor + 1 in [0, n + 1] and its
/// neighbour, with one zero column/row before the data and two after.

#include <cstddef>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "core/base/ExecContext.h"
#include "core/cone/ConeBackProjector.h"
#include "core/cone/ConeGeometry.h"
#include "core/data/Array.h"

namespace tomo::cone {

inline constexpr int kPadBefore = 1;
inline constexpr int kPadAfter = 2;

/// Index matrices of views [first, first + count) for @p grid, as 12 floats each (row-major).
std::vector<float> batchMatrices(const ConeGeometry& g, const ConeVolumeGrid& grid, int first,
                                 int count);

/// Padded projections of a batch: views.dim(0) images of (slow + 3) x (fast + 3) floats.
/// transposed = false: slow = v (rows), fast = u (the detector's own order);
/// transposed = true: slow = u, fast = v (paper 003's transposed projections, v contiguous).
struct PaddedViews {
    std::vector<float> data;
    int views = 0;
    int slow = 0, fast = 0;  ///< unpadded sizes
    std::size_t stride() const { return static_cast<std::size_t>(fast + kPadBefore + kPadAfter); }
    std::size_t imageSize() const {
        return stride() * static_cast<std::size_t>(slow + kPadBefore + kPadAfter);
    }
};
/// Packs @p views ([view][v][u]) into @p out (reusing its storage).
void packViews(const Array3<float>& views, bool transposed, PaddedViews& out);

/// What every back-projector's begin() checks first: a valid grid, the slab inside it, and a
/// geometry with the symmetry the variant needs (InvalidArgument naming the general variant of
/// its backend otherwise). Returns the geometry's symmetry.
Result<ConeSymmetry> checkBegin(const ConeBackProjectorInfo& info, const ConeGeometry& geometry,
                                const ConeVolumeGrid& grid, int firstPlane, int planes);
/// OutOfMemory for a slab of @p planes planes that needs @p need bytes on a device whose budget
/// is @p budget (the core pipeline then halves the slab).
Status slabTooLarge(const ConeBackProjectorInfo& info, int planes, std::size_t need,
                    std::size_t budget, const std::string& device);

/// InvalidArgument unless @p out has the dims of a slab of @p planes planes of @p grid
/// (ConeBackProjector::finishInto()).
Status checkFinishInto(const ConeBackProjectorInfo& info, const Volume& out, int planes,
                       const ConeVolumeGrid& grid);
/// A device variant's finish(): its finishInto() a new, uninitialised volume of the slab's dims.
Result<Volume> finishIntoNew(ConeBackProjector& bp, int planes, const ConeVolumeGrid& grid,
                             const ExecContext& ctx);

/// A CPU slab accumulator of zeros, cleared by the call's threads a MiB at a time between checks
/// for a cancel. A memset of hundreds of MiB on one thread kept a cancel waiting (mpirun gives
/// its ranks one second after SIGTERM); calloc's lazy zero pages alone moved the page faults
/// into the back-projection's scattered first touches (its stage 1.4x slower at 256^3).
class ZeroSlab {
  public:
    /// @p count zeros; OutOfMemory naming the slab's MiB when the machine refuses, Cancelled
    /// when @p ctx's token stops the clearing.
    Status allocate(std::size_t count, const ExecContext& ctx = {});
    float* data() { return m_data.get(); }
    const float* data() const { return m_data.get(); }
    std::size_t size() const { return m_size; }
    void reset() {
        m_data.reset();
        m_size = 0;
    }

  private:
    struct Free {
        void operator()(float* p) const noexcept { std::free(p); }
    };
    std::unique_ptr<float[], Free> m_data;
    std::size_t m_size = 0;
};

/// Volume [nz][ny][nx] from a y-contiguous accumulator [nz][nx][ny] (the symmetric kernels'
/// layout), plane by plane.
void columnsToVolume(const float* columns, int nx, int ny, int nz, Volume& out);

}  // namespace tomo::cone
