#pragma once
/// @file LocalityKernels.h
/// @brief Internal SIMD kernel of LocalityOperator's forward projector: the slice-interpolated
/// (Joseph) sums of a group of up to kRayLanes rays of one projection angle, vectorised across
/// the rays (one ray per SIMD lane; paper 001's "strip" of neighbouring rays, W. J. Palenstijn,
/// K. J. Batenburg, J. Sijbers, J. Struct. Biol. 176(2), 2011, doi:10.1016/j.jsb.2011.07.017).
/// Not part of the public API: include only from core/locality sources.
///
/// Arithmetic (float, compiled with -ffp-contract=off, see CMakeLists.txt), per lane l and line
/// k of the lane's active range [first_l, last_l) intersected with [kBegin, kEnd):
///   pos = pos0_l + d * k,  fl = floor(pos),  f = pos - fl,  i = fl (clamped to the padding),
///   sum_l += v[k][i] + f * (v[k][i + 1] - v[k][i])      (lines in increasing k, from 0.f)
/// which is exactly the scalar per-ray loop: each ray's result does not depend on which other
/// rays share its group, on the instruction set or on the thread count (bit for bit).
///
/// Image layout: line k starts at image + k * linePitch; pixel i of a line is at index
/// i + kLinePad and the kLinePad values on each side are zero (float rounding can put an active
/// sample up to one pixel beyond the line, and interpolation reads one more).
/// Instruction sets: AVX-512 and AVX2 (gathers across lanes) chosen at run time with
/// CpuBackProjectors.h's cpuIsaSupported, and a portable version; all give identical results.

#include "core/projectors/CpuBackProjectors.h"

namespace tomo::detail {

inline constexpr int kLinePad = 2;    ///< zero pixels on each side of a padded line
inline constexpr int kRayLanes = 16;  ///< rays per group

/// A group of rays of one projection angle on one padded image (see file docs).
struct RayGroup {
    const float* image = nullptr;  ///< line 0 of the padded image
    std::size_t linePitch = 0;     ///< floats from one line to the next
    int lineLength = 0;            ///< pixels per line (without padding)
    float d = 0.f;                 ///< position step per line (pixels)
    float pos0[kRayLanes] = {};    ///< position of each ray on line 0
    int first[kRayLanes] = {};     ///< active lines of each ray: [first, last); unused lanes
    int last[kRayLanes] = {};      ///< have first == last
};

/// out[l] = the sum of lane l's samples over lines [kBegin, kEnd) of its active range, from 0.f
/// (0.f for lanes with no active line there). @p isa must be supported by the CPU.
void sumRayGroup(CpuIsa isa, const RayGroup& group, int kBegin, int kEnd, float* out);

}  // namespace tomo::detail
