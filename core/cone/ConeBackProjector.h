#pragma once
/// @file ConeBackProjector.h
/// @brief Cone-beam (FDK) back-projectors: the interface every variant implements (CPU, OpenCL,
/// CUDA), the arithmetic they share, and their registry.
///
/// What every variant computes, for each voxel (i, j, k) of a slab and each filtered view:
///   h = M (i, j, k, 1) (ConeGeometry::indexMatrix), u = h0 / h2, v = h1 / h2,
///   vol += interp(q, u, v) / h2^2,
/// in float, where interp is bilinear over the projection extended by zeros beyond its edges
/// (u, v clamped to [-1, n]: a sample outside contributes nothing). Variants differ only in how
/// they get there (paper 003): "standard" evaluates the three rows per voxel (any geometry);
/// "symmetric" evaluates u and h2 once per voxel column along y (ConeSymmetry::Column) and, where
/// the geometry is mirror-symmetric, one v per voxel pair j, ny-1-j (Theorem 1), on transposed
/// projections (v contiguous) and a y-contiguous volume. Results agree to float rounding.
///
/// Life of a run: begin(slab) once per slab, add() for every batch of filtered views (any batch
/// size; views in any order), finish() for the slab's volume [nz][ny][nx]. One object serves one
/// run at a time; distinct objects are independent.

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/base/ExecContext.h"
#include "core/base/Status.h"
#include "core/cone/ConeGeometry.h"
#include "core/data/Array.h"
#include "core/pipeline/ChunkPipeline.h"

namespace tomo {

/// Seconds a device back-projector spent in each of its own stages since begin() (paper 003's
/// T_H2D, T_bp, T_trans, T_D2H); zeros on the CPU.
struct ConeDeviceTimes {
    double upload = 0, kernel = 0, transpose = 0, download = 0;
};

struct ConeBackProjectorInfo {
    std::string id;       ///< "cpu.fdk.symmetric", "opencl.fdk.standard", "cuda.fdk.shfl.ldg"
    std::string backend;  ///< "cpu", "opencl", "cuda"
    std::string family;   ///< "standard", "symmetric"
    ConeSymmetry needs = ConeSymmetry::General;  ///< least symmetry the variant handles
    std::string description;                     ///< one line for lists and --explain
    int preference = 0;  ///< higher wins the automatic choice among those that apply
};

/// @brief The device side of a GPU cone back-projector (ConeBackProjector::device()), for
/// core's pipeline (core/pipeline/ChunkPipeline.h; issue 27 item 3): the slab begun with
/// begin() stays on the device while batches of views enter it once - uploaded from pinned
/// staging, ramp-filtered on the device where the row filter has a device stage, packed on the
/// device into the kernels' padded (and transposed) layout - and the slab leaves once, at
/// finish(). runFdk composes these stages; add() runs the same stage on views in memory.
struct FdkWeightTable;  // core/cone/FdkWeights.h

/// FDK's weights (FdkWeightFormula.h) of one chunk on the device, for a backend's kernel
/// (FdkWeightStage.h enqueues them before the ramp filter).
struct FdkWeightLaunch {
    DeviceBufferRef rows;  ///< the chunk's views, [count][nv][pitch] floats, weighted in place
    std::size_t pitch = 0;
    DeviceBufferRef table;  ///< FdkWeightTable::views of every view, on the device
    int firstView = 0;      ///< the chunk's first view (its row in the table)
    int count = 0;
    const FdkWeightTable* weights = nullptr;  ///< the scan's constants
};

class ConeDeviceBackProjection {
  public:
    virtual ~ConeDeviceBackProjection() = default;
    /// The device's queues for one run; the device is held until they go (finish() after).
    virtual Result<std::unique_ptr<DeviceQueues>> openQueues() = 0;
    /// The back-projection into the begun slab of the views [firstView + chunk.first,
    /// firstView + chunk.first + chunk.count) a chunk holds in the pipeline's input buffer
    /// ([count][nv][pitch] floats, filtered), on @p queues (from openQueues()).
    virtual Result<std::unique_ptr<ChunkStage>> stage(DeviceQueues& queues, int firstView,
                                                      std::size_t pitch) = 0;
    /// Enqueues FDK's weights of @p launch on the compute queue of @p queues (from
    /// openQueues()); the views arrive raw and leave weighted for the ramp filter.
    virtual Status weigh(DeviceQueues& queues, const FdkWeightLaunch& launch) = 0;
};

class ConeBackProjector {
  public:
    virtual ~ConeBackProjector() = default;
    virtual const ConeBackProjectorInfo& info() const = 0;
    /// Starts the slab of z planes [firstPlane, firstPlane + planes) of @p grid (a zeroed
    /// accumulator). Voxels are addressed in the whole grid, so a slab's bits equal those of
    /// the same planes of a whole-volume run. InvalidArgument when the geometry lacks the
    /// symmetry the variant needs; OutOfMemory when the slab does not fit.
    virtual Status begin(const ConeGeometry& geometry, const ConeVolumeGrid& grid, int firstPlane,
                         int planes, const ExecContext& ctx) = 0;
    /// Adds the filtered views [first, first + views.dim(0)) ([view][v][u]).
    virtual Status add(int first, const Array3<float>& views, const ExecContext& ctx) = 0;
    /// The slab's volume [nz][ny][nx]; the object can begin() again afterwards.
    virtual Result<Volume> finish(const ExecContext& ctx) = 0;
    /// As finish(), into @p out of the slab's dims and any content (memory from
    /// Volume::createUninitialised, a caller's buffer): every stored float is written once,
    /// row padding zeroed. GPU variants download into it (core/pipeline/SlabDownload.h; their
    /// finish() is this into a new volume); the CPU's default copies finish()'s volume.
    /// InvalidArgument for other dims (the slab is then dropped, as after finish()).
    virtual Status finishInto(Volume& out, const ExecContext& ctx);
    /// Bytes a slab of @p planes planes of @p plane voxels and a batch of @p batchPixels
    /// projection pixels take on the variant's device (the memory inequality of paper 003:
    /// 4 (Nvol + Nproj batch), plus what the variant's download stages).
    virtual std::size_t bytesFor(std::size_t plane, std::size_t planes,
                                 std::size_t batchPixels) const {
        return 4 * (plane * planes + batchPixels);
    }
    /// Bytes the variant's device allows a run (core/pipeline/DeviceMemory.h); 0 on the CPU.
    /// runFdk sizes its slabs so that bytesFor() and the pipeline's rings fit it.
    virtual std::size_t deviceBudget() const { return 0; }
    /// Views per add() call the variant works best with (32 for the CUDA kernels).
    virtual int preferredBatch() const { return 16; }
    /// The device stages of the slab just finished (valid after finish()).
    virtual ConeDeviceTimes deviceTimes() const { return {}; }
    /// GPU variants: their device side for core's pipeline; null on the CPU.
    virtual ConeDeviceBackProjection* device() { return nullptr; }
};

/// @brief The cone-beam variants of this build (CPU always; OpenCL and CUDA as registered).
class ConeBackProjectorRegistry {
  public:
    using Factory = std::function<Result<std::unique_ptr<ConeBackProjector>>()>;
    void add(ConeBackProjectorInfo info, Factory factory);
    const std::vector<ConeBackProjectorInfo>& list() const { return m_infos; }
    bool contains(const std::string& id) const;
    Result<std::unique_ptr<ConeBackProjector>> create(const std::string& id) const;
    /// The automatic choice for @p symmetry on @p backend ("cpu", "opencl", "cuda" or "auto":
    /// a GPU when one is registered): the highest preference among the variants that handle it.
    /// NotFound when the backend has none.
    Result<std::string> choose(ConeSymmetry symmetry, const std::string& backend) const;

  private:
    std::vector<ConeBackProjectorInfo> m_infos;
    std::vector<Factory> m_factories;
};

/// Registers cpu.fdk.standard, cpu.fdk.symmetric and cpu.fdk.rows (threads from each call's
/// ExecContext).
void registerCpuConeBackProjectors(ConeBackProjectorRegistry& registry);
/// Registers cpu.fdk.rows alone (CpuConeRowBackProjector.cpp): never the automatic choice.
void registerCpuConeRowBackProjector(ConeBackProjectorRegistry& registry);

/// True when a variant needing @p needs can run a geometry of @p has.
inline bool handles(ConeSymmetry needs, ConeSymmetry has) {
    return static_cast<int>(has) >= static_cast<int>(needs);
}

}  // namespace tomo
