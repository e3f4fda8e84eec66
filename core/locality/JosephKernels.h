#pragma once
/// @file JosephKernels.h
/// @brief Internal kernel of JosephOperator's adjoint: the exact transpose of the float
/// slice-interpolated (Joseph) forward model of LocalityKernels.h, evaluated pixel-driven for
/// the pixels of one image line and one projection angle (a gather, no write conflicts).
/// Not part of the public API: include only from core/locality sources.
///
/// Model (RayGeometry.h, in float as LocalityKernels.h evaluates it): ray j crosses line k at
///   pos_j = fl(pos0_j + dk),  pos0_j = float(a + b j),  dk = fl(float(d) * float(k)),
/// and pixel i of the line has the weight w = max(0, 1 - |pos_j - i|), i.e. 1 - f for
/// i = floor(pos_j) and f for i = floor(pos_j) + 1 (f = pos_j - floor(pos_j)). The kernel adds
///   acc[n] += step * sum_j w_j(i) y_j,   i = iBegin + n,
/// over every ray j whose weight can be nonzero: the candidates are the `candidates`
/// consecutive rays from floor(min((i -+ 1 - base) / b)) - 1 (base ~ a + d k), which include
/// every j with |pos_j - i| < 1; extra candidates get w = 0. Because the weights are recomputed
/// from the very float positions the forward kernel uses, <A x, y> = <x, A^T y> to float
/// rounding (P. M. Joseph, IEEE TMI 1(3), 1982, doi:10.1109/TMI.1982.4307572).
///
/// Candidates: with c = (i - base) / b (base ~ a + d k), the rays j with |pos_j - i| < 1 lie
/// in (c - 1/|b|, c + 1/|b|) up to the float error of the positions; the kernel examines the
/// `candidates` = floor(2 h) + 1 consecutive rays from ceil(c - h), h = 1/|b| + margin
/// (josephHalfWidth: the margin bounds the float error), i.e. 2 rays per pixel for
/// 1 < |b| < 2 and 3 for |b| = 1. Extra candidates get w = 0.
///
/// Tables: pos0 and sino are indexed by detector j in [-pad, detectors + pad + kJosephWindow)
/// (pointer at j = 0); sino is zero outside [0, detectors); pad >= candidates.
/// AVX-512: 16 pixels per vector; when `window` is set (the candidates of 16 neighbouring
/// pixels lie within kJosephWindow consecutive rays, josephWindowFits), two loads per table
/// and permutes pick them, otherwise gathers. Generic: the same arithmetic per pixel. Both
/// are exact transposes to float rounding (they may differ in the rounding of the sums).
/// Compiled with -ffp-contract=off (CMakeLists.txt) so that pos_j rounds as in the forward.

#include <cstddef>
#include <utility>

#include "core/projectors/CpuBackProjectors.h"

namespace tomo::detail {

inline constexpr int kJosephWindow = 32;  ///< rays read per table by the window path

/// One projection angle (see file docs).
struct JosephAdjointAngle {
    const float* pos0 = nullptr;  ///< padded pos0 table, pointer at j = 0
    const float* sino = nullptr;  ///< padded sinogram row, pointer at j = 0
    int detectors = 0;            ///< detector pixels (unpadded)
    int pad = 0;                  ///< table entries before j = 0 (>= candidates)
    int candidates = 0;           ///< rays examined per pixel
    bool window = false;          ///< the window path may be used (josephWindowFits)
    double a = 0, d = 0;          ///< RayAngle's a and d (d also as the forward's float(d))
    float invB = 0.f;             ///< 1 / b
    float halfWidth = 0.f;        ///< h = 1/|b| + margin (josephHalfWidth)
    float step = 0.f;             ///< line step (length units)
};

/// Lines k in [0, lines) where the float position pos0 + fl(d * float(k)) lies in (-1, size)
/// (the forward kernel's positions; a binary search, the positions are monotonic in k);
/// returns [first, last), {0, 0} when empty. Exactly the lines where a weight can be nonzero.
std::pair<int, int> josephActiveLines(float pos0, float d, int size, int lines);

/// h = (1 + 64 ulp(maxAbsPos) + 1e-4) / |b| + 64 ulp(detectors): maxAbsPos is the largest
/// |position| (pixels) of the angle's rays; the margin covers the rounding of pos_j, of c and
/// of c - h (ulp(x) = x 2^-23).
float josephHalfWidth(double b, double maxAbsPos, int detectors);
/// floor(2 h) + 1.
int josephCandidates(float halfWidth);
/// Whether the candidates of 16 neighbouring pixels fit in kJosephWindow rays:
/// ceil(15 / |b| + 0.01) + 1 + candidates <= kJosephWindow.
bool josephWindowFits(double b, int candidates);

/// For lines k in [kBegin, kEnd): acc[(k - kBegin) * accPitch + n] +=
/// step * sum_j w_j(iBegin + n) y_j for n in [0, count) (see file docs).
/// @p isa must be supported by the CPU; Avx2 runs the generic loop.
void josephAdjointLines(CpuIsa isa, const JosephAdjointAngle& angle, int kBegin, int kEnd,
                        int iBegin, int count, float* acc, std::size_t accPitch);

}  // namespace tomo::detail
