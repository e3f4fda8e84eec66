#pragma once
/// @file SuperVoxels.h
/// @brief PSV-ICD (paper 004, Algorithm 2): the image cut into square SuperVoxels (SVs) of
/// side `side` voxel lines; each SV's sinogram band (SVB: the channels its voxels reach at every
/// view) is copied into a buffer, its voxels are updated in a randomised order against that
/// buffer, and the change of the buffer is written back to the error sinogram.
///
/// Schedule per iteration: the first iteration visits every SV; even iterations the `fraction`
/// of SVs with the largest update in their last visit; odd ones a random `fraction`.
/// Concurrency, made deterministic: the chosen SVs are taken by the 4-colour checkerboard
/// (colour (sx mod 2) + 2 (sy mod 2), so concurrently updated SVs never touch each other's
/// voxels or neighbours) and, within a colour, in batches of `batch` SVs. A batch's SVs run in
/// parallel on snapshots of the error sinogram taken before the batch, and their changes are
/// added back in SV order after it (GPU-ICD's deferred write-back). The result depends on the
/// batch size and the seed, never on the thread count. With `sequential`, one SV covers the
/// whole image: plain sequential ICD in a random voxel order per iteration.

#include <cstdint>
#include <vector>

#include "core/base/ExecContext.h"
#include "core/base/Status.h"
#include "core/mbir/IcdUpdate.h"
#include "core/mbir/MbirModel.h"

namespace tomo {

/// The sinogram band of the SV of voxel lines [x0, x1) x [y0, y1): per view the first channel
/// (one channel of margin below the lowest run) and the width (one of margin above the highest).
struct SvBand {
    std::vector<int> base, width;
};
SvBand superVoxelBand(const MbirSliceGeometry& g, int x0, int y0, int x1, int y1);

/// The SVs a pass of the schedule visits, colour after colour (colours 0, 1, ...: the 4-colour
/// checkerboard, or GPU-ICD's 8 on a stack, icdStackColours): every SV
/// on @p iteration 1 (and with @p all), then alternately the @p fraction with the largest
/// @p lastMoved (even iterations) and a random @p fraction (odd ones, from @p seed).
std::vector<std::size_t> chooseSuperVoxels(int iteration, const std::vector<double>& lastMoved,
                                           const std::vector<int>& colour, double fraction,
                                           std::uint64_t seed, bool all);

/// @p items in a random order fixed by (@p seed, @p a, @p b) (splitmix64 Fisher-Yates: the same
/// on every platform).
void shuffleSeeded(std::vector<std::uint32_t>& items, std::uint64_t seed, std::uint64_t a,
                   std::uint64_t b);

struct PsvOptions {
    int side = 13;            ///< SV side in voxels (paper 004's CPU value)
    int batch = 16;           ///< SVs updated together before their write-back
    double fraction = 0.2;    ///< share of SVs in the partial iterations
    bool sequential = false;  ///< one SV, the whole image (plain ICD)
    std::uint64_t seed = 1;
};

/// What one iteration did.
struct PsvIterationStats {
    std::size_t updates = 0;  ///< voxel updates (zero-skipped voxels not counted)
    double moved = 0;         ///< sum of |delta|
    std::size_t superVoxels = 0;
    std::size_t visited = 0;  ///< voxels of the SVs visited (zero-skipped ones included)
};

class SuperVoxelPlan {
  public:
    SuperVoxelPlan(const MbirSliceGeometry& g, const PsvOptions& options);

    std::size_t count() const { return m_svs.size(); }
    /// Runs iteration @p iteration (1-based) of the schedule over @p x ([iy][ix][slice]) and
    /// @p sino. Cancelled when ctx.stop fires (between batches; x and the error sinogram stay
    /// consistent).
    Status iterate(int iteration, const IcdSettings& settings, std::vector<float>& x,
                   MbirSinograms& sino, const ExecContext& ctx, PsvIterationStats& stats);

  private:
    struct Sv {
        int x0 = 0, y0 = 0, x1 = 0, y1 = 0;  ///< voxel lines [x0, x1) x [y0, y1)
        std::vector<int> base;               ///< first channel of the band per view
        std::vector<std::size_t> rowStart;   ///< band offsets per view (times nz)
        std::size_t channels = 0;            ///< sum of band widths over the views
        double lastMoved = 0;
    };
    std::vector<std::size_t> choose(int iteration) const;
    void runSv(std::size_t index, int iteration, const IcdSettings& settings, std::vector<float>& x,
               const MbirSinograms& sino, std::vector<float>& buffer, PsvIterationStats& stats);

    const MbirSliceGeometry& m_g;
    PsvOptions m_options;
    std::vector<Sv> m_svs;
    std::vector<int> m_colour;
};

}  // namespace tomo
