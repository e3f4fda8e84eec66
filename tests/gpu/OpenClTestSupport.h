#pragma once
// The shared harness of the OpenCL tests: one registry per test process (CPU + OpenCL variants,
// program binaries cached under the build tree so that PoCL compiles each kernel once), small
// back-projection problems and error measures against cpu.reference.*.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "core/projectors/BackProjector.h"
#include "gpu/opencl/OpenClBackProjectors.h"

namespace tomo::test {

struct OpenClTestSetup {
    BackProjectorRegistry registry;
    opencl::OpenClRegistration report;
    std::string cacheDirectory;
};

/// Built on first use: registerCpuBackProjectors + opencl::registerBackProjectors.
const OpenClTestSetup& openClSetup();

/// The ids of the registered OpenCL variants.
std::vector<BackProjectorInfo> openClVariants();

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

/// Runs variant @p id (fails the test on error).
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
double expectMatchesReference(const BackProjectorInfo& info, const Volume& out, const Volume& ref);

/// Bound on maxRelError of an exact variant against the double reference on this device class.
/// PoCL (and any CPU device) filters in full float: ~1e-6 relative; 1e-4 leaves room for the
/// summation order. NVIDIA texture units interpolate with 8-bit fractional weights (error up to
/// 2^-9 of a bin difference per sample): 4e-3 for linear variants there.
double exactTolerance(const BackProjectorInfo& info);

}  // namespace tomo::test

/// Skips the test when no OpenCL device could be opened (no platform on this machine).
#define TOMO_SKIP_WITHOUT_OPENCL()                                                              \
    do {                                                                                        \
        if (!::tomo::test::openClSetup().report.available)                                      \
            GTEST_SKIP() << "no OpenCL device: " << ::tomo::test::openClSetup().report.message; \
    } while (false)
