#pragma once
/// @file BackProjector.h
/// @brief The back-projector interface, variant metadata and the run-time variant registry.
///
/// A back-projector computes, for every slice s and pixel (ix, iy) of the volume,
///   out[s][iy][ix] = sum_p weight[p] * interp(sino[s][p], detectorIndex(p, x(ix), y(iy)))
/// where interp reads the detector row at a fractional index with linear or nearest
/// interpolation, and samples outside [0, detectorCount-1] read as zero (linear interpolation
/// fades to zero over the half pixel beyond each edge pixel centre). The output is overwritten.
/// With weight = ParallelGeometry::angularWeights() and ramp-filtered rows this is FBP; with
/// weight = voxelSize^2 / detectorPitch it approximates the adjoint of the forward projector.
///
/// Variants are registered by stable ids (`cpu.simd.lin`, later `cuda.alu.lin.2s.64x64`,
/// `opencl.texture.lin.1s`) with metadata used by `tomo bench`, `tomo devices` and the selector.

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

enum class Interpolation { Linear, Nearest };
Result<Interpolation> parseInterpolation(std::string_view name);  ///< "linear" | "nearest"
const char* interpolationName(Interpolation i);

/// Metadata of a back-projector variant.
struct BackProjectorInfo {
    std::string id;           ///< stable id, e.g. "cpu.simd.lin"
    std::string backend;      ///< "cpu", "cuda", "opencl"
    std::string family;       ///< "cpu", "texture", "alu", "hybrid", "oversampling", "reference"
    Interpolation interpolation = Interpolation::Linear;
    int slicesPerPass = 1;    ///< slices processed together
    std::string precision = "float32";  ///< storage precision of the sinogram ("float32", "half")
    bool exact = true;        ///< false for approximate variants (half, oversampling)
    std::string description;  ///< one line for `tomo devices --explain`
    std::map<std::string, std::string> parameters;  ///< tunables (tile, pixels/thread, ...)
};

/// @brief A back-projection implementation. Instances may hold scratch buffers and are not
/// thread-safe; use one per job. Long calls check ctx.stop at least every ~50 ms and advance
/// ctx.progress (they call setTotal themselves).
class BackProjector {
public:
    virtual ~BackProjector() = default;
    virtual const BackProjectorInfo& info() const = 0;

    /// @param sino    `[slice][angle][detector]`, sino.dim(0) == vol.nz, dim(1) == angleCount,
    ///                dim(2) == detectorCount
    /// @param weights one weight per projection
    /// @param out     resized to [vol.nz][vol.ny][vol.nx] if its shape differs; overwritten
    virtual Status backProject(const Sinograms& sino, const ParallelGeometry& geom,
                               const VolumeGeometry& vol, std::span<const float> weights,
                               Volume& out, const ExecContext& ctx) = 0;
};

/// Checks the shapes and weights passed to BackProjector::backProject and prepares @p out.
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
