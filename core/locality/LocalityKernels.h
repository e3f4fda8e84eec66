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
///
/// Window path (AVX-512): when rayGroupFitsWindow() holds - the rays of a strip of neighbouring
/// detectors, whose positions on a line differ by the detector step |b| (<= sqrt 2 pixels on a
/// square grid with pitch = voxel size), so all 16 samples of a line and their right neighbours
/// lie within 32 consecutive pixels - each line is read with two contiguous (masked) loads
/// from the smallest lane's pixel and the samples are picked with two permutes instead of two
/// gathers. The values picked are those the gathers would read, so the sums are unchanged bit
/// for bit; groups that do not fit (spread detectors, coarse pitch) use the gathers.

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

/// Largest spread (pixels) of the starting positions pos0 of a group's nonempty lanes for the
/// window path: samples then differ by at most 30 pixels on every line (float positions are
/// within 1/4 pixel of exact for lines shorter than kWindowMaxLine).
inline constexpr float kWindowSpread = 28.f;
inline constexpr int kWindowMaxLine = (1 << 20) - 64;  ///< longest line for the window path

/// True when the AVX-512 kernel reads @p group through the window path (see file docs): the
/// nonempty lanes' pos0 span at most kWindowSpread pixels and lineLength <= kWindowMaxLine.
bool rayGroupFitsWindow(const RayGroup& group);

/// out[l] = the sum of lane l's samples over lines [kBegin, kEnd) of its active range, from 0.f
/// (0.f for lanes with no active line there). @p isa must be supported by the CPU.
/// @p allowWindow = false forces the gathers on AVX-512 (for tests; the result is the same).
void sumRayGroup(CpuIsa isa, const RayGroup& group, int kBegin, int kEnd, float* out,
                 bool allowWindow = true);

}  // namespace tomo::detail
