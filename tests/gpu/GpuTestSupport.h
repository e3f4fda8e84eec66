#pragma once
// The backend-parametrised harness of the GPU tests: the same test sources (GpuVariantTest.cpp)
// run against every registered variant of one GPU backend. Which backend is decided at link
// time: each test executable links one <Backend>TestBackend.cpp defining backendSetup() (CPU
// variants + that backend's variants in one registry), makeDeviceLocalityOperator() (that
// backend's iterative projector pair, LocalityDeviceTest.cpp) and coneBackendRegistry() (its
// cone-beam variants, ConeBackProjectorTest.cpp). Small problems and error measures against
// cpu.reference.* are shared by all backends.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "DeviceSkip.h"
#include "core/cone/ConeBackProjector.h"
#include "core/locality/RayOrdering.h"
#include "core/mbir/GpuIcd.h"
#include "core/projectors/BackProjector.h"
#include "core/recon/Fbp.h"
#include "core/solvers/SubsetOperator.h"

namespace tomo::test {

/// One backend's registration, as the tests see it.
struct GpuBackendSetup {
    std::string backend;                              ///< "opencl" or "cuda"
    const BackProjectorRegistry* registry = nullptr;  ///< CPU + this backend's variants
    bool available = false;                           ///< a device was opened
    std::string device;                               ///< device the variants run on
    std::string message;                              ///< why not available
    std::vector<std::string> registered;
    std::vector<std::pair<std::string, std::string>> skipped;
};

/// Built on first use by the executable's <Backend>TestBackend.cpp.
const GpuBackendSetup& backendSetup();

/// The registered variants of the executable's backend.
std::vector<BackProjectorInfo> backendVariants();

/// The executable's backend's projector pair of paper 001 for @p geom on @p vol with the forward
/// ray ordering @p ordering, straight from the backend's factory (no registry is built). NotFound
/// when the backend has no device; InvalidArgument (before any device is opened) for an invalid
/// grid or vol.nz != geom.rows().
Result<std::unique_ptr<SubsetOperator>> makeDeviceLocalityOperator(const ParallelGeometry& geom,
                                                                   const VolumeGeometry& vol,
                                                                   RayOrdering ordering);

/// A GPU-ICD device (core/mbir/GpuIcd.h) of the executable's backend (GpuIcdTest.cpp); NotFound
/// without a device.
Result<std::unique_ptr<IcdDevice>> makeDeviceIcd();

/// The cone-beam (FDK) variants of the executable's backend only, registered on the device
/// context backendSetup()'s variants share (ConeBackProjectorTest.cpp); empty without a device.
/// Built on first use by the executable's <Backend>TestBackend.cpp.
const ConeBackProjectorRegistry& coneBackendRegistry();

/// The ramp filter on the executable's backend's device for FDK (cuFFT, VkFFT; FdkOptions::
/// rowFilter), on the device context of coneBackendRegistry(); NotFound or Unavailable without
/// a device or the FFT library.
Result<std::shared_ptr<RowFilterStage>> makeDeviceRowFilter();
/// A back-projection problem: sinograms, geometry, grid and weights.
struct BackProjectionProblem {
    Sinograms sino;
    ParallelGeometry geom;
    VolumeGeometry vol;
    std::vector<float> weights;
};

struct ProblemShape {
    int nx = 37;
    int ny = 35;
    int slices = 3;
    int angles = 24;
    int detectors = 48;
    double firstAngle = 0.1;
    double range = kPi;        ///< radians covered
    bool jitterAngles = true;  ///< non-uniform angles
    double centerShift = 1.3;  ///< pixels from the detector centre
    double voxelSize = 1.0;
};

/// Random sinogram values in [-1, 1) and random per-projection axis corrections (+-0.5 px).
BackProjectionProblem randomProblem(const ProblemShape& shape, std::uint32_t seed);

/// Runs variant @p id of backendSetup().registry (CPU variants included; fails the test on
/// error).
Volume runVariant(const std::string& id, const BackProjectionProblem& p);

/// cpu.reference.lin or cpu.reference.nn for @p interpolation.
std::string referenceFor(Interpolation interpolation);

/// max |a - b| / max |b| and ||a - b||_2 / ||b||_2 over logical elements.
double maxRelError(const Volume& a, const Volume& b);
double relL2Error(const Volume& a, const Volume& b);
/// Fraction of pixels where |a - b| > tol * max |b|.
double fractionDiffering(const Volume& a, const Volume& b, double tol);

/// Checks @p out of variant @p info against the reference @p ref: exact linear variants within
/// exactTolerance(); exact nearest variants the same except at the few pixels where float and
/// double pick different bins at a half-integer u (at most 1% of pixels, relative L2 < 1e-3);
/// approximate variants (half storage) within relative L2 2e-3 (binary16 keeps 11 bits).
/// Returns the relative L2 error for reporting.
/// A folder of the build for caches the GPU tests keep between runs (e.g. OpenCL binaries).
std::string testCacheDirectory(const std::string& name);

double expectMatchesReference(const BackProjectorInfo& info, const Volume& out, const Volume& ref);

/// Bound on maxRelError of an exact variant against the double reference on this device class.
/// PoCL (and any CPU device) filters in full float: ~1e-6 relative; 1e-4 leaves room for the
/// summation order. NVIDIA texture units interpolate with 8-bit fractional weights (error up to
/// 2^-9 of a bin difference per sample): 4e-3 for linear variants there.
double exactTolerance(const BackProjectorInfo& info);

}  // namespace tomo::test

/// Skips the test when the executable's backend found no device (the runtime's reason).
#define TOMO_SKIP_WITHOUT_BACKEND()                                                        \
    do {                                                                                   \
        if (!::tomo::test::backendSetup().available)                                       \
            TOMO_DEVICE_SKIP(::tomo::test::backendSetup().backend                          \
                             << " unavailable: " << ::tomo::test::backendSetup().message); \
    } while (false)
