#pragma once
/// @file GatherPlan.h
/// @brief The host side of gridrec's gather (GatherMath.h), for the GPU: the grid cut into
/// square tiles and, per tile, the segments of sample lines that may reach it.
///
/// A GPU block owns a tile, a thread a grid point; each thread walks its tile's segments in order
/// and sums the samples that reach its point (gatherSegment), then writes it once: no atomics,
/// and every point's terms in one fixed order, so results are the same from run to run. The
/// segments cover whole lines (k = -L/2..L/2); half lines clip at k = 0 (GatherGeometry::kMin).
/// A segment of view p is the k range whose samples, shifted by whole grids (positions are
/// periodic), fall within W/2 + 1 of the tile; segments of a tile are in view order.
/// Built from a FourierPlan in O(views x tiles crossed per line); tested on the CPU against the
/// CPU's scatter (tests/core/fourier/GatherPlanTest.cpp).

#include <cstdint>
#include <vector>

#include "core/base/Status.h"
#include "core/fourier/FourierPlan.h"
#include "core/fourier/GatherMath.h"

namespace tomo {

struct GatherPlan {
    int tile = 16;  ///< points per tile edge
    int tilesX = 0, tilesY = 0;
    std::vector<std::uint32_t> tileStart;  ///< tilesX * tilesY + 1 offsets into segments
    std::vector<GatherSegment> segments;
    std::vector<GatherView> views;
    std::vector<float> coefficients;  ///< the kernel's (GriddingKernel::coefficients())

    /// InvalidArgument for a tile outside [4, 64].
    static Result<GatherPlan> create(const FourierPlan& plan, int tile = 16);
    /// The per-point parameters for samples stored @p stride apart starting at k = @p kFirst,
    /// sampled from k = @p kMin (whole lines: -L/2; half lines: 0).
    GatherGeometry geometry(const FourierPlan& plan, int kMin, int kFirst, int stride) const;
    /// The points of @p plan's grid summed by gatherSegment over every tile's segments, on the
    /// CPU: the GPU kernel's result, for the tests. @p grid: [My][Mx] complex as float pairs.
    void gatherAll(const FourierPlan& plan, const GatherGeometry& g, const float* samples,
                   float* grid) const;
};

}  // namespace tomo
