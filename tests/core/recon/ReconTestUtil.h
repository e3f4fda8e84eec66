#pragma once
// Shared set-up for the FBP tests: analytic sinograms and reconstructions with the CPU variants.
#include <atomic>
#include <optional>
#include <string>
#include <vector>

#include "core/data/Array.h"
#include "core/geometry/ParallelGeometry.h"
#include "core/phantom/Phantom.h"
#include "core/recon/Fbp.h"

namespace tomo::test {

struct FbpCase {
    int size = 128;    ///< image is size x size pixels
    int angles = 180;  ///< over [0, 180) degrees
    int detectors = 185;
    int raysPerBin = 4;
    double pitch = 1.0;                    ///< detector pitch = pixel size
    double acquiredCenter = std::nan("");  ///< axis used to make the data (NaN = centre)
    double reconCenter = std::nan("");     ///< axis given to the reconstruction
    std::vector<double> correction;        ///< per-projection axis correction of the data
    /// Correction given to the reconstruction (default: the same as the data's).
    std::optional<std::vector<double>> reconCorrection;
    std::string variant = "cpu.simd.lin";
    FilterOptions filter;
};

/// Projects @p phantom analytically with the acquisition geometry and reconstructs with the
/// reconstruction geometry. Fails the calling test through the returned Status.
Status runFbp(const Phantom& phantom, const FbpCase& c, Volume& out);

/// Centroid (column, row) in pixel indices of the values of slice 0 above @p threshold (so that
/// FBP's small background ripples do not pull it towards the image centre).
std::pair<double, double> centroid(const Volume& image, double threshold = 0.5);

/// Mean of a (2r+1)^2 patch of slice 0 centred on pixel (ix, iy).
double patchMean(const Volume& image, int ix, int iy, int r = 2);

/// Largest |value| over every slice of @p v.
double maxAbs(const Volume& v);

/// A progress sink that counts its calls and keeps the last fraction (the cancel tests).
struct CountingSink : ProgressSink {
    std::atomic<int> calls{0};
    std::atomic<double> last{0};
    void onProgress(double f, std::string_view) override {
        ++calls;
        last = f;
    }
};

}  // namespace tomo::test
