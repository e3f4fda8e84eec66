#pragma once
/// @file FourierMethod.h
/// @brief Fourier-domain reconstruction behind one interface, one implementation per backend:
/// the CPU's gridrec (Gridrec.h) and a GPU's (gpu/cuda/fourier), both on FourierPlan's host
/// side. The application registers them (app/Backends.h registerFourierBackends) in the
/// Engine's FourierRegistry; the reconstruction service runs `--algo gridrec` through it and
/// selection compares its predicted time with direct FBP's (core/selection/MethodChoice.h).

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/base/ExecContext.h"
#include "core/data/Array.h"
#include "core/fourier/FourierPlan.h"
#include "core/fourier/Gridrec.h"

namespace tomo {

struct FourierMethodInfo {
    std::string id;       ///< "cpu.gridrec", "cuda.gridrec"
    std::string backend;  ///< "cpu", "cuda"
    std::string description;
    FftSizeRule sizes = FftSizeRule::Smooth;  ///< the lengths its FFT library wants
    FourierCostModel cost;                    ///< its seconds per sample, row, tap, FFT point
    /// Seconds per byte of sinogram and image moved to and from the device (0 on the CPU).
    double secondsPerTransferByte = 0;
    /// The timeline parts (TimelinePart) each run reports, in order: where its stages' time
    /// goes (the CPU's host seconds, a GPU's event seconds).
    std::vector<std::string> parts;
};

/// What a run did: its stage times and the plan's parameters and error.
struct GridrecReport {
    GridrecTimings timings;
    std::string plan;  ///< FourierPlan::describe() (and the implementation's own layout)
};

/// @brief One backend's gridrec. Not thread-safe; one per job. Results do not depend on
/// ctx.threads (CPU) and equal the CPU's within the tolerance stated by the implementation.
class FourierReconstructor {
  public:
    virtual ~FourierReconstructor() = default;
    virtual const FourierMethodInfo& info() const = 0;
    /// As reconstructGridrec (Gridrec.h): @p sino [slice][angle][detector], vol.nz slices paired
    /// 0-1, 2-3, ...; @p out [vol.nz][vol.ny][vol.nx]. Errors as values (OutOfMemory on a
    /// device that cannot hold one pair; Cancelled).
    virtual Status reconstruct(const Sinograms& sino, const ParallelGeometry& geom,
                               const VolumeGeometry& vol, const GridrecOptions& options,
                               Volume& out, const ExecContext& ctx, GridrecReport& report) = 0;
};

/// The Fourier implementations of a build, one per backend, made by the application.
class FourierRegistry {
  public:
    using Factory = std::function<std::unique_ptr<FourierReconstructor>()>;
    /// Adds (or replaces) the implementation of info.backend.
    void add(FourierMethodInfo info, Factory factory);
    std::vector<FourierMethodInfo> list() const;
    /// The implementation whose backend or id is @p key, or null.
    const FourierMethodInfo* find(const std::string& key) const;
    /// NotFound naming the implementations there are.
    Result<std::unique_ptr<FourierReconstructor>> make(const std::string& key) const;

  private:
    std::vector<std::pair<FourierMethodInfo, Factory>> m_methods;
};

/// The CPU's gridrec ("cpu.gridrec"): reconstructGridrec with the CPU's size rule and cost.
FourierMethodInfo cpuGridrecInfo();
void registerCpuFourier(FourierRegistry& registry);

}  // namespace tomo
