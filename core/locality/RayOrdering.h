#pragma once
/// @file RayOrdering.h
/// @brief The four ray-to-block orderings of paper 001's forward projector (W. J. Palenstijn,
/// K. J. Batenburg, J. Sijbers, "Performance improvements for iterative electron tomography
/// reconstruction using graphics processing units (GPUs)", J. Struct. Biol. 176(2), 2011,
/// doi:10.1016/j.jsb.2011.07.017, §2 and Table 1), as blocks of rays that one CPU worker
/// processes together (a GPU thread block in the paper): 16 angles x 32 detector pixels.
///
///  (a) Unordered: the block's 16 angles are spread at constant intervals over the angular
///      range and its 32 detectors at constant intervals over the detector.
///  (b) Strips: spread angles, 32 consecutive detectors (neighbouring parallel rays).
///  (c) Strips at consecutive angles: 16 consecutive angles x 32 consecutive detectors.
///  (d) Strip segments: as (c), with every ray cut into 8 segments (slabs of image lines);
///      the block sweeps segment by segment over all its 512 rays, accumulating the partial
///      sums, so its working set is the footprint of one slab (the paper's "strip segments
///      with high overlap"; ASTRA's par_fp.cu does the same with slabs of 64 lines).
/// Angles are first split into two orientation groups - rays stepping along pixel rows and
/// those stepping along columns (RayGeometry.h) - and sorted within a group, so that every
/// block steps along one axis and "consecutive" means neighbouring directions.
///
/// Every ray belongs to exactly one block and a block writes only its own rays, so the four
/// orderings compute the same sums; only the schedule (and so the cache behaviour) differs,
/// plus float summation order in (d).

#include <string>
#include <string_view>
#include <vector>

#include "core/base/Status.h"
#include "core/locality/RayGeometry.h"

namespace tomo {

enum class RayOrdering { Unordered, Strips, StripsConsecutiveAngles, StripSegments };

/// "unordered" | "strips" | "strips-consecutive" | "segments" (also "a".."d");
/// InvalidArgument naming the choices otherwise.
Result<RayOrdering> parseRayOrdering(std::string_view name);
const char* rayOrderingName(RayOrdering ordering);  ///< the first names above

inline constexpr int kBlockAngles = 16;     ///< angles per block
inline constexpr int kBlockDetectors = 32;  ///< detector pixels per block
inline constexpr int kRaySegments = 8;      ///< segments per ray in ordering (d)

/// One block: which angles (projection indices) and detector pixels it covers.
struct RayBlock {
    std::vector<int> angles;
    std::vector<int> detectors;
};

/// The projections of subset @p subset of @p subsets out of @p angles, interleaved
/// (p = subset, subset + subsets, ...), as OS-SIRT uses them.
std::vector<int> subsetAngles(int subset, int subsets, int angles);

/// A subset's projections in the order the device kernels launch them: with
/// @p byOrientation those stepping along rows first (the first @p rowsCount), each group by
/// increasing angle, as the forward kernels need; without it simply by increasing angle, as the
/// back-projection kernels need (rowsCount is still counted).
struct SubsetLaunchOrder {
    std::vector<int> angles;
    int rowsCount = 0;
};
SubsetLaunchOrder subsetLaunchOrder(const std::vector<RayAngle>& rays,
                                    const std::vector<double>& angleValues, int subset, int subsets,
                                    bool byOrientation);

/// The blocks covering every ray of the given projections (@p angleIndices into @p rays) for
/// @p detectors detector pixels.
std::vector<RayBlock> planRayBlocks(RayOrdering ordering, const std::vector<RayAngle>& rays,
                                    const std::vector<double>& angleValues,
                                    const std::vector<int>& angleIndices, int detectors);

}  // namespace tomo
