#pragma once
/// @file IcdUpdate.h
/// @brief The ICD voxel update of paper 004 (Algorithm 1) on one voxel line (the voxel (ix, iy)
/// of every slice): theta1 = -sum w A e / sigma_y^2 and theta2 = sum w A^2 / sigma_y^2 over
/// the voxel's footprint (matrix entries read once for all slices), the step from the q-GGMRF
/// surrogate, positivity, and the error write-back e -= A delta. The sinogram it reads and
/// writes is a SinoBand: the whole padded sinogram (sequential ICD) or a SuperVoxel's buffer.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/mbir/MbirMatrix.h"
#include "core/mbir/Qggmrf.h"

namespace tomo {

/// Rows of an error and a weight sinogram in [view][channel][slice] order: view v holds the
/// channels from base[v] on, starting at element rowStart[v].
struct SinoBand {
    float* e = nullptr;
    const float* w = nullptr;
    const std::size_t* rowStart = nullptr;
    const int* base = nullptr;
    int nz = 1;
    /// With one slice (optional): rowStart[v] - base[v] per view, so that at(v, c) is
    /// c + shift[v] (int32: a band holds fewer than 2^31 elements).
    const std::int32_t* shift = nullptr;
    std::size_t at(int v, int c) const {
        return rowStart[v] + std::size_t(c - base[v]) * std::size_t(nz);
    }
};

/// What every voxel update of a run shares.
struct IcdSettings {
    const MbirSliceGeometry* geometry = nullptr;
    const MbirMatrix* matrix = nullptr;
    const Qggmrf* prior = nullptr;
    NeighbourWeights weights;
    double invSigmaY2 = 1;  ///< 1 / sigma_y^2
    bool positivity = true;
    bool zeroSkip = true;  ///< skip a voxel that is 0 with all its neighbours (paper 004)
    int innerSteps = 1;    ///< surrogate steps per visit (more: closer to the exact 1-D minimum)
    int nz = 1;
    /// Single slices with 8-bit entries: the theta sums and the write-back four taps of a
    /// view's run at a time, with contiguous loads (set when the CPU has AVX2 and FMA:
    /// icdAvx2Available()).
    bool avx2 = false;
};

/// Whether this CPU runs the vector theta sums and write-back (AVX2 and FMA).
bool icdAvx2Available();

/// Per-thread scratch of icdUpdateLine.
struct IcdScratch {
    std::vector<double> theta1, theta2;
    std::vector<float> delta;
    std::vector<unsigned char> active;
    std::vector<std::size_t> starts;  ///< per view: where the voxel's run begins in the band
    std::vector<std::int32_t> starts32;
};

/// The new value of a voxel at @p v minimising, over t >= 0 when @p positivity,
///   theta1 (t - v) + theta2 / 2 (t - v)^2 + sum_k weight_k rho(t - value_k)
/// by @p steps steps of the symmetric quadratic surrogate of rho (each step minimises the
/// surrogate at the current point exactly, so the cost never increases; the steps converge to
/// the exact minimiser). Returns @p v unchanged when the curvature is zero.
double icdVoxelStep(double v, double theta1, double theta2, const double* value,
                    const double* weight, int neighbours, const Qggmrf& prior, bool positivity,
                    int steps);

/// Updates voxel line (ix, iy) of @p x ([iy][ix][slice]) against @p band. Returns the sum of
/// |delta| over its slices and adds the slices it updated (not zero-skipped) to @p updates.
double icdUpdateLine(const IcdSettings& s, const SinoBand& band, std::vector<float>& x, int ix,
                     int iy, IcdScratch& scratch, std::size_t& updates);

}  // namespace tomo
