#pragma once
/// @file CudaBackProjector.h
/// @brief The CUDA implementation of core's BackProjector: host sinograms in, host volume out,
/// any kernel family (CudaLauncher) on one CudaDeviceContext. Internal (CUDA types).
///
/// Data flow of backProject() (paper 002 §4: chunks of slices, double buffering, pinned
/// memory, event-ordered asynchronous copies; doi:10.1007/s11554-019-00883-w):
///  1. per-projection constants {cx, cy, a, w} computed in double, uploaded once as floats;
///  2. items = (pass of slicesPerPass slices, band of rows, chunk of angles), run by core's
///     pass driver (core/projectors/PassDriver.h), the loop every GPU backend shares: item k+1
///     is packed on a host thread into pinned staging while the device runs item k; this
///     file supplies the queue operations: stream 0 uploads into the set's pitched device
///     sinogram (after the set's previous kernels), stream 1 runs the kernels (after the
///     upload) and the read-backs; two sinogram sets alternate per item, two output bands per
///     band;
///  3. kernels run in launches of about options.updatesPerLaunch updates, each bracketed by
///     timing events (lastKernelSeconds());
///  4. a finished band is downloaded into pinned memory and copied into the volume when its
///     read-back buffer is next needed (or at the end). Both streams are synchronised before
///     backProject returns, whatever the outcome.
/// Buffers: the context's scratch buffers (CudaDeviceContext.h), reused across calls and
/// grown on demand; the call holds the context's scratch lock throughout.
/// Memory: the plan keeps 2 x (sinogram chunk + output band) + constants under the context's
/// budget, halving the angle chunk, then the band; an allocation the device still refuses
/// frees the context's scratch buffers (other jobs' sizes) and retries the same plan once, then
/// makes the plan shrink step by step before OutOfMemory is returned naming the buffer
/// (runWithRetry, PassDriver.h).

#include <memory>

#include "core/projectors/BackProjector.h"
#include "core/projectors/PassPlan.h"
#include "gpu/cuda/internal/CudaDeviceContext.h"
#include "gpu/cuda/internal/CudaLauncher.h"

namespace tomo::cuda {

/// Sizing knobs (0 = device limits); tests shrink them to force splitting.
struct CudaBackProjectorOptions {
    int maxAngleChunk = 0;            ///< projections per device sinogram (0 = limits)
    int maxBandRows = 0;              ///< rows per output band (0 = whole image)
    double updatesPerLaunch = 2.0e9;  ///< pixel updates (x slices) per kernel launch
};

/// Per-projection constants {cx, cy, a, w} (4 floats each) of @p geom on @p vol: those of
/// every GPU backend (core/projectors/GpuProjectionConstants.h) as a float array.
std::vector<float> projectionConstants(const ParallelGeometry& geom, const VolumeGeometry& vol,
                                       std::span<const float> weights);

class CudaBackProjector final : public BackProjector {
  public:
    CudaBackProjector(BackProjectorInfo info, std::shared_ptr<CudaDeviceContext> device,
                      CudaLauncher launcher, CudaBackProjectorOptions options = {});
    ~CudaBackProjector() override;

    const BackProjectorInfo& info() const override { return m_info; }
    Status backProject(const Sinograms& sino, const ParallelGeometry& geom,
                       const VolumeGeometry& vol, std::span<const float> weights, Volume& out,
                       const ExecContext& ctx) override;

    /// Seconds the last backProject() spent in kernels (sum of launch intervals measured by
    /// events on the device), for kernel-only throughput.
    double lastKernelSeconds() const { return m_kernelSeconds; }
    /// The device context (shared with the registry's other variants and the FBP pipeline)
    /// and the kernel family this back-projector launches.
    const std::shared_ptr<CudaDeviceContext>& device() const { return m_device; }
    const CudaLauncher& launcher() const { return m_launcher; }

  private:
    Result<PassPlan> plan(const Sinograms& sino, const VolumeGeometry& vol, int shrink) const;
    Status run(const Sinograms& sino, const VolumeGeometry& vol, const std::vector<float>& consts,
               const PassPlan& plan, Volume& out, const ExecContext& ctx);

    BackProjectorInfo m_info;
    std::shared_ptr<CudaDeviceContext> m_device;
    CudaLauncher m_launcher;
    CudaBackProjectorOptions m_options;
    double m_kernelSeconds = 0;
};

}  // namespace tomo::cuda
