#pragma once
/// @file BackProjector.h
/// @brief The back-projector interface, variant metadata and the run-time variant registry.
///
/// A back-projector computes, for every slice s and pixel (ix, iy) of the volume,
///   out[s][iy][ix] = sum_p weight[p] * interp(sino[s][p], detectorIndex(p, x(ix), y(iy)))
/// where detectorIndex is ParallelGeometry's u = c_p + (x cos(theta_p) + y sin(theta_p)) / pitch
/// (in detector pixels, 0 = centre of pixel 0) and x(ix), y(iy) are VolumeGeometry's pixel
/// centres (row 0 = top = largest y). interp reads the detector row at the fractional index u:
///  - linear: (1 - f) s[i] + f s[i + 1] with i = floor(u), f = u - i;
///  - nearest: s[floor(u + 0.5)] (ties round up).
/// Samples outside [0, detectorCount - 1] read as zero, so linear interpolation fades to zero
/// between the edge pixel centre and the next one (over the half pixel beyond the detector
/// edge and the half pixel inside it). The output is overwritten, never accumulated into.
///
/// Units: with weight = ParallelGeometry::angularWeights() (radians) and ramp-filtered rows
/// (RampFilter.h) this is FBP and gives attenuation per length unit; with
/// weight = voxelSize^2 / detectorPitch it approximates the adjoint of the Joseph forward
/// projector (ForwardProjector.h; dot-product ratio within ~0.5% of 1, see there).
///
/// Variants are registered by stable ids (`cpu.simd.lin`, later `cuda.alu.lin.2s.64x64`,
/// `opencl.texture.lin.1s`) with metadata used by `tomo bench`, `tomo devices` and the selector.
/// The CPU variants are described in CpuBackProjectors.h. Throughput is quoted in GU/s:
/// 1e9 pixel updates (nx * ny * angles * slices) per second, as in paper 002
/// (Chilingaryan et al., J. Real-Time Image Proc. 17, 2020, doi:10.1007/s11554-019-00883-w).

#include <functional>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "core/base/ExecContext.h"
#include "core/base/Status.h"
#include "core/data/Array.h"
#include "core/geometry/ParallelGeometry.h"

namespace tomo {

class DeviceBackProjection;

enum class Interpolation { Linear, Nearest };
Result<Interpolation> parseInterpolation(std::string_view name);  ///< "linear" | "nearest"
const char* interpolationName(Interpolation i);

/// Metadata of a back-projector variant.
struct BackProjectorInfo {
    std::string id;       ///< stable id, e.g. "cpu.simd.lin"
    std::string backend;  ///< "cpu", "cuda", "opencl"
    std::string family;   ///< "cpu", "texture", "alu", "hybrid", "oversampling", "reference"
    Interpolation interpolation = Interpolation::Linear;
    int slicesPerPass = 1;              ///< slices processed together
    std::string precision = "float32";  ///< storage precision of the sinogram ("float32", "half")
    bool exact = true;                  ///< false for approximate variants (half, oversampling)
    std::string description;            ///< one line for `tomo devices --explain`
    std::map<std::string, std::string> parameters;  ///< tunables (tile, pixels/thread, ...)
};

/// @brief A back-projection implementation. Instances may hold scratch buffers and are not
/// thread-safe; use one per job. Long calls check ctx.stop at least every ~50 ms and advance
/// ctx.progress (they call setTotal themselves). Exact variants give results that do not depend
/// on ctx.threads (bit-identical).
class BackProjector {
  public:
    virtual ~BackProjector() = default;
    virtual const BackProjectorInfo& info() const = 0;

    /// @param sino    `[slice][angle][detector]`, sino.dim(0) == vol.nz, dim(1) == angleCount,
    ///                dim(2) == detectorCount
    /// @param weights one weight per projection
    /// @param out     resized to [vol.nz][vol.ny][vol.nx] if its shape differs; overwritten
    /// @return InvalidArgument for mismatched shapes, weights or grid, OutOfMemory when scratch
    ///         or output cannot be allocated, Cancelled when ctx.stop was triggered (out is
    ///         then partially written)
    virtual Status backProject(const Sinograms& sino, const ParallelGeometry& geom,
                               const VolumeGeometry& vol, std::span<const float> weights,
                               Volume& out, const ExecContext& ctx) = 0;
    /// GPU variants: their device side for core's pipeline (DeviceBackProjection.h), through
    /// which FBP keeps a chunk on the device between its stages; null on the CPU.
    virtual DeviceBackProjection* device() { return nullptr; }
};

/// Checks the shapes and weights passed to BackProjector::backProject (matching dimensions,
/// one finite weight per projection, a valid grid) and prepares @p out.
Status prepareBackProjection(const Sinograms& sino, const ParallelGeometry& geom,
                             const VolumeGeometry& vol, std::span<const float> weights,
                             Volume& out);

/// @brief Run-time registry of back-projector variants, keyed by id. Built by the application
/// (see app/Backends.h); no global instance.
class BackProjectorRegistry {
  public:
    using Factory = std::function<std::unique_ptr<BackProjector>()>;

    /// Adds a variant; a duplicate id replaces the earlier one.
    void add(BackProjectorInfo info, Factory factory);
    /// All variants in registration order.
    std::vector<BackProjectorInfo> list() const;
    /// Variants of one backend.
    std::vector<BackProjectorInfo> list(const std::string& backend) const;
    bool contains(const std::string& id) const;
    /// Instantiates a variant; NotFound lists the known ids.
    Result<std::unique_ptr<BackProjector>> make(const std::string& id) const;

  private:
    struct Entry {
        BackProjectorInfo info;
        Factory factory;
    };
    std::vector<Entry> m_entries;
};

}  // namespace tomo
