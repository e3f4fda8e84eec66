#pragma once
/// @file OpenClBackProjectors.h
/// @brief Registration of the OpenCL back-projector variants (no OpenCL types in this header).
///
/// registerBackProjectors() opens one OpenCL device (the first GPU, else the first device, or
/// the one named in the options), checks which variants it can run (image support, image
/// formats such as CL_RG/CL_RGBA float, local memory, work-group size) and adds those to the
/// registry as `opencl.<family>.<...>` ids with their BackProjectorInfo metadata. Variants the
/// device cannot run are left out, with the reason in the returned report (shown by
/// `tomo devices --explain`). The variants share one device context (queues and the program
/// cache, including the on-disk binary cache), owned by the registry's factories.
///
/// Families and ids (see gpu/opencl/README.md and docs/opencl.md):
///  - texture (paper 002 Alg. 1-3, 5; S. Chilingaryan et al., J. Real-Time Image Proc. 17,
///    2020, doi:10.1007/s11554-019-00883-w): opencl.texture.{lin,nn}.{1s,2s,4s},
///    opencl.texture.zorder.lin.1s, opencl.texture.cached.lin.1s,
///    opencl.texture.cached.lin.1s.sconst, opencl.texture.half.nn.4s (approximate: binary16
///    storage).
///
/// Threading: registration is done once on one thread; each factory call makes an independent
/// BackProjector (one per job); several may run concurrently on the shared device.

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/projectors/BackProjector.h"

namespace tomo::opencl {

class ClDeviceContext;  // gpu/opencl/internal/ClDeviceContext.h (no OpenCL types here)

struct OpenClRegistrationOptions {
    int device = -1;             ///< flat device index (discoverDevices order); -1 = first GPU
    std::string cacheDirectory;  ///< program binary cache; empty = the XDG default
};

/// What registerBackProjectors() did.
struct OpenClRegistration {
    bool available = false;  ///< a device was opened (variants may still all be skipped)
    std::string device;      ///< "<name> (<platform>)" of the device the variants run on
    std::string message;     ///< why no device was opened ("no OpenCL platform: ...")
    std::vector<std::string> registered;                       ///< ids added
    std::vector<std::pair<std::string, std::string>> skipped;  ///< (id, reason)
    /// The device context the variants share (null without a device): the owner passes it on
    /// to the operators of the same device (OpenClLocalityOptions::context), so that one
    /// context and one memory budget serve everything on the device.
    std::shared_ptr<ClDeviceContext> context;
};

/// Adds every OpenCL variant the chosen device can run to @p registry. Never fails: without a
/// platform or device nothing is added and the report says why (callers fall back to the CPU).
OpenClRegistration registerBackProjectors(BackProjectorRegistry& registry,
                                          const OpenClRegistrationOptions& options = {});

}  // namespace tomo::opencl
