#pragma once
/// @file HilbertOrdering.h
/// @brief Two-level pseudo-Hilbert ordering of a rectangular pixel domain (MemXCT, paper 000,
/// section 3.2: M. Hidayetoglu et al., "MemXCT: Memory-Centric X-ray CT Reconstruction with
/// Massive Parallelization", SC'19, doi:10.1145/3295500.3356220).
///
/// The domain of width x height pixels (pixel index = row * width + column) is covered by
/// square tiles whose side is a power of two (`tileSize`). Level 1 orders the tile grid with a
/// pseudo-Hilbert scan for arbitrary rectangles; the paper uses Zhang, Kamata & Ueshige's scan
/// ("A pseudo-Hilbert scan algorithm for arbitrarily-sized rectangle region", IWICPAS 2006,
/// Springer LNCS 4153, pp. 290-299), this implementation uses the equivalent "generalized
/// Hilbert" recursion of J. Cerveny (gilbert2d, 2019), which splits the rectangle
/// into halves/three parts with even sizes and always moves between edge-adjacent tiles (when
/// the long side of the tile grid is odd and the short side even the scan starts along the short
/// side, which is what makes a unit-step path possible). Level 2 is a Hilbert curve of order
/// log2(tileSize) inside each tile, rotated/reflected so that it enters at the corner next to
/// the previous tile's exit and leaves through the corner on the side facing the next tile: the
/// global curve is connected across tiles.
///
/// Out-of-domain pixels are skipped: pixels of clipped edge tiles beyond the rectangle and
/// pixels excluded by an optional mask (e.g. outside the reconstruction circle) get no index,
/// so the ordering is a bijection between the real pixels and [0, size()). Consecutive indices
/// are 4-neighbours in 2-D everywhere except where the curve leaves and re-enters a clipped tile
/// or a masked region.
///
/// Threading: immutable after create(); all members are thread-safe.

#include <cstdint>
#include <span>
#include <vector>

#include "core/base/Status.h"

namespace tomo {

class HilbertOrdering {
  public:
    HilbertOrdering() = default;  ///< an empty ordering (size 0)
    /// Orders a width x height domain. @p tileSize must be a power of two >= 1 (1 gives a pure
    /// generalized-Hilbert scan of the pixels). @p mask is empty (all pixels real) or holds
    /// width * height flags, non-zero = real pixel. InvalidArgument on bad sizes or a mask of the
    /// wrong length.
    static Result<HilbertOrdering> create(int width, int height, int tileSize,
                                          std::span<const std::uint8_t> mask = {});

    /// The row-major ordering of the same real pixels (pixel index order), the baseline of the
    /// paper's ordering ablation; tileSize() is 0. Same errors as create().
    static Result<HilbertOrdering> rowMajor(int width, int height,
                                            std::span<const std::uint8_t> mask = {});

    int width() const { return m_width; }
    int height() const { return m_height; }
    int tileSize() const { return m_tileSize; }
    /// Number of real (ordered) pixels.
    std::size_t size() const { return m_pixelOf.size(); }
    /// Curve index of pixel (row * width + column); -1 for a masked pixel.
    std::int32_t curveIndex(std::size_t pixel) const { return m_curveOf[pixel]; }
    /// Pixel (row * width + column) at curve position @p index.
    std::uint32_t pixelAt(std::size_t index) const { return m_pixelOf[index]; }
    const std::vector<std::uint32_t>& pixels() const { return m_pixelOf; }
    const std::vector<std::int32_t>& curveIndices() const { return m_curveOf; }

    /// Tile grid cells (column, row) in level-1 order for a tilesX x tilesY grid; exposed for
    /// tests. Consecutive cells are edge-adjacent.
    static std::vector<std::pair<int, int>> tileScan(int tilesX, int tilesY);

  private:
    int m_width = 0;
    int m_height = 0;
    int m_tileSize = 1;
    std::vector<std::int32_t> m_curveOf;   ///< per pixel: curve index or -1
    std::vector<std::uint32_t> m_pixelOf;  ///< per curve index: pixel
};

}  // namespace tomo
