#ifndef TOMO_CORE_CONE_FDK_WEIGHT_FORMULA_H
#define TOMO_CORE_CONE_FDK_WEIGHT_FORMULA_H
/// @file FdkWeightFormula.h
/// @brief FDK's per-pixel weights (FdkWeights.h derives them): the one source of the cosine,
/// Parker and half-fan formulas, read by three compilers (issue 27 item 3):
///  - C++ (FdkWeights.cpp, the CPU path): double, namespace tomo::fdk;
///  - nvcc (gpu/cuda/kernels/ConeKernels.cu): float, __device__, namespace tomo::cuda::fdk;
///  - OpenCL C (gpu/opencl/kernels/fdk_weights.cl): float; embedded with the .cl files and put
///    before that kernel's text when its program is built.
/// So it is plain C: no templates, no std::, literals through TOMO_FDK_C.
///
/// Per view k the device kernels read kFdkViewParams floats (FdkWeights::deviceTable()):
/// c_k, beta_k (scan angle from the start of the arc), u0_k, v0_k (the principal point) and
/// sdd_k. The weight of pixel (u, v) is c_k * cosine * redundancy(mode, u - u0_k, ...).

#if defined(__OPENCL_VERSION__)
#define TOMO_FDK_FN inline
#define TOMO_FDK_REAL float
#define TOMO_FDK_C(x) x##f
#elif defined(__CUDACC__)
#include <math.h>
#define TOMO_FDK_FN __device__ inline
#define TOMO_FDK_REAL float
#define TOMO_FDK_C(x) x##f
namespace tomo::cuda::fdk {
#else
#include <math.h>
#define TOMO_FDK_FN inline
#define TOMO_FDK_REAL double
#define TOMO_FDK_C(x) x
namespace tomo::fdk {
#endif

#define TOMO_FDK_PI TOMO_FDK_C(3.14159265358979323846)
#define TOMO_FDK_FULL_SCAN 0  /* r = 1 */
#define TOMO_FDK_SHORT_SCAN 1 /* r = 2 x Parker's weight */
#define TOMO_FDK_HALF_FAN 2   /* r = 2 x Wang's weight (displaced detector, full scan) */
#define TOMO_FDK_VIEW_PARAMS 5

/// The cosine pre-weight of a pixel (du, dv) from the principal point, sdd from the source.
TOMO_FDK_FN TOMO_FDK_REAL tomoFdkCosine(TOMO_FDK_REAL sdd, TOMO_FDK_REAL du, TOMO_FDK_REAL dv) {
    return sdd / sqrt(sdd * sdd + du * du + dv * dv);
}

/// 2 x Parker's weight of the ray at fan angle gamma of the view at scan angle beta in the arc
/// [0, pi + 2 delta]; 2 when delta <= 0 (less than 180 degrees: each line measured once).
TOMO_FDK_FN TOMO_FDK_REAL tomoFdkParker(TOMO_FDK_REAL beta, TOMO_FDK_REAL delta,
                                        TOMO_FDK_REAL gamma) {
    TOMO_FDK_REAL w = 0;
    if (delta <= 0) return 2;
    if (beta < 2 * (delta - gamma)) {
        const TOMO_FDK_REAL s = sin(TOMO_FDK_C(0.25) * TOMO_FDK_PI * beta / (delta - gamma));
        w = s * s;
    } else if (beta <= TOMO_FDK_PI - 2 * gamma) {
        w = 1;
    } else if (beta <= TOMO_FDK_PI + 2 * delta) {
        const TOMO_FDK_REAL s = sin(TOMO_FDK_C(0.25) * TOMO_FDK_PI *
                                    (TOMO_FDK_PI + 2 * delta - beta) / (delta + gamma));
        w = s * s;
    }
    return 2 * w;
}

/// The redundancy weight r of the column at t (mm) from the principal point, towards larger u.
/// halfWidth: the half-fan overlap D; longSide: +1 when the detector's long side is at larger u.
TOMO_FDK_FN TOMO_FDK_REAL tomoFdkRedundancy(int mode, TOMO_FDK_REAL t, TOMO_FDK_REAL sdd,
                                            TOMO_FDK_REAL beta, TOMO_FDK_REAL delta,
                                            TOMO_FDK_REAL halfWidth, TOMO_FDK_REAL longSide) {
    if (mode == TOMO_FDK_SHORT_SCAN) return tomoFdkParker(beta, delta, -atan(t / sdd));
    if (mode == TOMO_FDK_HALF_FAN) {
        const TOMO_FDK_REAL s = t * longSide;
        if (s <= -halfWidth) return 0;
        if (s >= halfWidth) return 2;
        const TOMO_FDK_REAL x = sin(TOMO_FDK_C(0.25) * TOMO_FDK_PI * (s + halfWidth) / halfWidth);
        return 2 * x * x;
    }
    return 1;
}

#if !defined(__OPENCL_VERSION__)
}  // namespace
#endif
#endif
