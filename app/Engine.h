#pragma once
/// @file Engine.h
/// @brief The devices of a process, owned once (issue 12): one back-projector registry, and
/// behind it one device context per device, for the life of a `tomo` command or of a GUI
/// session. FBP filtering, back-projection and iterative operators of every request made through
/// the reconstruction service (app/recon/ReconService.h) share them, and with them one memory
/// budget per device.
///
/// Threading: create once; registry() is read-only afterwards and its factories may be called
/// from any thread (each makes an independent BackProjector for one job).

#include <memory>
#include <string>
#include <vector>

#include "app/Backends.h"
#include "core/iterative/IterativeReconstruction.h"
#include "core/projectors/BackProjector.h"
#include "core/selection/Selector.h"

namespace tomo::app {

class Engine {
  public:
    /// Opens every backend compiled in (those without a device register nothing): one context
    /// per device, shared by everything the engine makes on it.
    Engine();
    ~Engine();
    Engine(const Engine&) = delete;
    Engine& operator=(const Engine&) = delete;

    /// Every variant of this build that has a device.
    const BackProjectorRegistry& registry() const { return m_registry; }

    /// Every cone-beam (FDK) back-projector of this build that has a device, on the same
    /// device contexts.
    const ConeBackProjectorRegistry& coneRegistry() const { return m_coneRegistry; }
    /// The Fourier-domain (gridrec) implementations: the CPU's, and a GPU's on the same device
    /// contexts (app/Backends.h registerFourierBackends()).
    const FourierRegistry& fourierRegistry() const { return m_fourier; }
    /// The backend "auto" stands for (app/Backends.h autoBackend()).
    std::string autoBackend() const;

    /// The variant used when none is named (app/Backends.h defaultVariant()).
    std::string defaultVariant(const std::string& backend = "auto",
                               Interpolation interpolation = Interpolation::Linear,
                               const JobShape& shape = {}) const;

    /// The iterative operator factory for @p backend ("cpu": empty, the CPU projectors of
    /// core/locality), on the same device contexts as the registry's back-projectors.
    decltype(IterativeRequest::makeOperator) operatorFactory(const std::string& backend) const;

    /// MBIR's GPU-ICD device factory for @p backend (app/Backends.h icdDeviceFactory(); empty
    /// for "cpu"), on the same device contexts.
    IcdDeviceFactory icdDeviceFactory(const std::string& backend) const;

    /// FBP's row-filter stage for @p backend's back-projectors (app/Backends.h
    /// rowFilterStage(): cuFFT on CUDA; null = the CPU's), on the same device contexts.
    std::shared_ptr<RowFilterStage> rowFilter(const std::string& backend) const;

    /// MBIR system matrices kept for the life of the engine (memory) and between runs (disk,
    /// core/mbir/MbirMatrixCache.h defaultMbirCacheDirectory()).
    MbirMatrixCache& mbirCache() const { return *m_mbirCache; }

    /// The device contexts held open (one per GPU device) and how many objects share each.
    std::vector<OpenDevice> openDevices() const;

  private:
    BackProjectorRegistry m_registry;
    std::shared_ptr<const DeviceContexts> m_devices;
    ConeBackProjectorRegistry m_coneRegistry;
    FourierRegistry m_fourier;
    std::unique_ptr<MbirMatrixCache> m_mbirCache;
};

}  // namespace tomo::app
