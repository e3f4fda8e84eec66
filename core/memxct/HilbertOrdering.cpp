#include "core/memxct/HilbertOrdering.h"

#include <cstdlib>
#include <string>

namespace tomo {
namespace {

int sign(int v) {
    return (v > 0) - (v < 0);
}

/// Generalized Hilbert curve (gilbert2d, J. Cerveny): fills the rectangle spanned by the major
/// axis (ax, ay) and the minor axis (bx, by) from (x, y).
void gilbert(int x, int y, int ax, int ay, int bx, int by, std::vector<std::pair<int, int>>& out) {
    const int w = std::abs(ax + ay), h = std::abs(bx + by);
    const int dax = sign(ax), day = sign(ay), dbx = sign(bx), dby = sign(by);
    if (h == 1) {
        for (int i = 0; i < w; ++i, x += dax, y += day)
            out.emplace_back(x, y);
        return;
    }
    if (w == 1) {
        for (int i = 0; i < h; ++i, x += dbx, y += dby)
            out.emplace_back(x, y);
        return;
    }
    int ax2 = ax / 2, ay2 = ay / 2, bx2 = bx / 2, by2 = by / 2;
    const int w2 = std::abs(ax2 + ay2), h2 = std::abs(bx2 + by2);
    if (2 * w > 3 * h) {
        if ((w2 % 2) != 0 && w > 2) {
            ax2 += dax;
            ay2 += day;
        }
        gilbert(x, y, ax2, ay2, bx, by, out);
        gilbert(x + ax2, y + ay2, ax - ax2, ay - ay2, bx, by, out);
    } else {
        if ((h2 % 2) != 0 && h > 2) {
            bx2 += dbx;
            by2 += dby;
        }
        gilbert(x, y, bx2, by2, ax2, ay2, out);
        gilbert(x + bx2, y + by2, ax, ay, bx - bx2, by - by2, out);
        gilbert(x + (ax - dax) + (bx2 - dbx), y + (ay - day) + (by2 - dby), -bx2, -by2, -(ax - ax2),
                -(ay - ay2), out);
    }
}

bool unitSteps(const std::vector<std::pair<int, int>>& path) {
    for (std::size_t i = 1; i < path.size(); ++i)
        if (std::abs(path[i].first - path[i - 1].first) +
                std::abs(path[i].second - path[i - 1].second) !=
            1)
            return false;
    return true;
}

/// Hilbert curve of side n (power of two): position d -> (u, v), from (0, 0) to (n - 1, 0).
void hilbertPoint(int n, int d, int& u, int& v) {
    u = v = 0;
    for (int s = 1; s < n; s *= 2) {
        const int rx = 1 & (d / 2);
        const int ry = 1 & (d ^ rx);
        if (ry == 0) {
            if (rx == 1) {
                u = s - 1 - u;
                v = s - 1 - v;
            }
            std::swap(u, v);
        }
        u += s * rx;
        v += s * ry;
        d /= 4;
    }
}

}  // namespace

std::vector<std::pair<int, int>> HilbertOrdering::tileScan(int tilesX, int tilesY) {
    std::vector<std::pair<int, int>> path;
    if (tilesX <= 0 || tilesY <= 0) return path;
    path.reserve(static_cast<std::size_t>(tilesX) * static_cast<std::size_t>(tilesY));
    // Start along the long side; if that path needs a diagonal step (long side odd, short side
    // even: both ends would have the same colour on an even-sized board), start along the short
    // side, which ends in the far corner of the other parity.
    for (bool alongShort : {false, true}) {
        path.clear();
        if ((tilesX >= tilesY) != alongShort)
            gilbert(0, 0, tilesX, 0, 0, tilesY, path);
        else
            gilbert(0, 0, 0, tilesY, tilesX, 0, path);
        if (unitSteps(path)) break;
    }
    return path;
}

Result<HilbertOrdering> HilbertOrdering::create(int width, int height, int tileSize,
                                                std::span<const std::uint8_t> mask) {
    if (width <= 0 || height <= 0)
        return invalidArgument("Hilbert ordering: domain " + std::to_string(width) + "x" +
                               std::to_string(height) + " must have positive sizes");
    if (tileSize <= 0 || (tileSize & (tileSize - 1)) != 0 || tileSize > (1 << 15))
        return invalidArgument("Hilbert ordering: tile size " + std::to_string(tileSize) +
                               " must be a power of two between 1 and 32768");
    const std::size_t pixels = static_cast<std::size_t>(width) * static_cast<std::size_t>(height);
    if (pixels > 0x7fffffffu)
        return invalidArgument("Hilbert ordering: domain of " + std::to_string(pixels) +
                               " pixels exceeds 2^31 - 1");
    if (!mask.empty() && mask.size() != pixels)
        return invalidArgument("Hilbert ordering: mask has " + std::to_string(mask.size()) +
                               " entries, the domain " + std::to_string(pixels));
    HilbertOrdering h;
    h.m_width = width;
    h.m_height = height;
    h.m_tileSize = tileSize;
    h.m_curveOf.assign(pixels, -1);
    h.m_pixelOf.reserve(pixels);

    const int n = tileSize;
    const int tilesX = (width + n - 1) / n, tilesY = (height + n - 1) / n;
    const auto scan = tileScan(tilesX, tilesY);
    int ex = 0, ey = 0;  // entry corner of the current tile, in {0, 1}^2 (u right, v down)
    for (std::size_t k = 0; k < scan.size(); ++k) {
        const auto [tx, ty] = scan[k];
        // Exit corner: on the side facing the next tile and edge-adjacent to the entry corner.
        int xx = 1 - ex, xy = ey;
        if (k + 1 < scan.size()) {
            const int dx = scan[k + 1].first - tx, dy = scan[k + 1].second - ty;
            if (dx != 0) {
                const int side = dx > 0 ? 1 : 0;
                xx = side;
                xy = ex == side ? 1 - ey : ey;
            } else {
                const int side = dy > 0 ? 1 : 0;
                xy = side;
                xx = ey == side ? 1 - ex : ex;
            }
        }
        // The standard curve runs (0,0) -> (n-1,0); transpose when the exit differs from the
        // entry in v, then reflect so that (0,0) lands on the entry corner.
        const bool transpose = xx == ex;
        for (int d = 0; d < n * n; ++d) {
            int u = 0, v = 0;
            hilbertPoint(n, d, u, v);
            if (transpose) std::swap(u, v);
            if (ex != 0) u = n - 1 - u;
            if (ey != 0) v = n - 1 - v;
            const int col = tx * n + u, row = ty * n + v;
            if (col >= width || row >= height) continue;
            const std::size_t p = static_cast<std::size_t>(row) * static_cast<std::size_t>(width) +
                                  static_cast<std::size_t>(col);
            if (!mask.empty() && mask[p] == 0) continue;
            h.m_curveOf[p] = static_cast<std::int32_t>(h.m_pixelOf.size());
            h.m_pixelOf.push_back(static_cast<std::uint32_t>(p));
        }
        if (k + 1 < scan.size()) {  // the next tile is entered at the mirror of this exit
            const int dx = scan[k + 1].first - tx;
            ex = dx != 0 ? 1 - xx : xx;
            ey = dx != 0 ? xy : 1 - xy;
        }
    }
    return h;
}

Result<HilbertOrdering> HilbertOrdering::rowMajor(int width, int height,
                                                  std::span<const std::uint8_t> mask) {
    TOMO_ASSIGN_OR_RETURN(HilbertOrdering h, create(width, height, 1, mask));
    h.m_tileSize = 0;
    h.m_pixelOf.clear();
    for (std::size_t p = 0; p < h.m_curveOf.size(); ++p)
        if (mask.empty() || mask[p] != 0) {
            h.m_curveOf[p] = static_cast<std::int32_t>(h.m_pixelOf.size());
            h.m_pixelOf.push_back(static_cast<std::uint32_t>(p));
        }
    return h;
}

}  // namespace tomo
