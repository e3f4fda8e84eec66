#include "core/cone/ConeGrid2d.h"

#include <algorithm>
#include <cstdio>
#include <string>

namespace tomo {
namespace {

int ceilDiv(int a, int b) {
    return (a + b - 1) / b;
}

/// Items [first, end) of @p parts balanced parts of @p n: part k gets [k n / parts, (k+1) n /
/// parts).
ConeRange balanced(int n, int parts, int k) {
    const auto at = [&](int i) { return static_cast<int>(static_cast<long long>(n) * i / parts); };
    return {at(k), at(k + 1) - at(k)};
}

std::string mib(std::size_t bytes) {
    char text[32];
    std::snprintf(text, sizeof text, "%.1f MiB", static_cast<double>(bytes) / (1 << 20));
    return text;
}

std::string sizes(const ConeProblem& p) {
    return std::to_string(p.nu) + " x " + std::to_string(p.nv) + " x " + std::to_string(p.np) +
           " -> " + std::to_string(p.nx) + " x " + std::to_string(p.ny) + " x " +
           std::to_string(p.nz);
}

Status checkProblem(const ConeProblem& p, const ConeGridLimits& l) {
    if (p.nx < 1 || p.ny < 1 || p.nz < 1 || p.nu < 1 || p.nv < 1 || p.np < 1)
        return invalidArgument("cone-beam grid of ranks: invalid sizes " + sizes(p));
    if (l.ranks < 1) return invalidArgument("cone-beam grid of ranks: no ranks");
    if (l.batch < 1) return invalidArgument("cone-beam grid of ranks: batch below 1");
    if (l.rows < 0 || l.columns < 0)
        return invalidArgument("cone-beam grid of ranks: negative rows or columns");
    return Status::ok();
}

/// Why @p rows x @p columns does not fit, or OK.
Status fits(const ConeProblem& p, const ConeGridLimits& l, int rows, int columns) {
    const std::string grid = std::to_string(rows) + " x " + std::to_string(columns);
    if (rows > p.nz)
        return invalidArgument("R x C = " + grid + ": more rows than the " + std::to_string(p.nz) +
                               " planes of the volume");
    if (columns > p.np)
        return invalidArgument("R x C = " + grid + ": more columns than the " +
                               std::to_string(p.np) + " views");
    const ConeRankBytes need = coneRankBytes(p, rows, columns, l.batch);
    if (need.device > l.memory)
        return invalidArgument(
            "R x C = " + grid + ": a slab of " + std::to_string(ceilDiv(p.nz, rows)) +
            " planes of " + std::to_string(p.nx) + " x " + std::to_string(p.ny) +
            " and a batch of " + std::to_string(l.batch) + " views need " + mib(need.device) +
            " (4 (Nx Ny Nz/R + Nu Nv N_batch)) but a rank has " + mib(l.memory));
    const std::size_t host = l.hostMemory > 0 ? l.hostMemory : l.memory;
    if (need.host > host)
        return invalidArgument("R x C = " + grid + ": the column's " +
                               std::to_string(need.gathered) + " filtered views of " +
                               std::to_string(p.nu) + " x " + std::to_string(p.nv) +
                               " and the slab need " + mib(need.host) +
                               " (4 (Nu Nv Np/C + Nx Ny Nz/R)) but a rank's host has " + mib(host));
    return Status::ok();
}

}  // namespace

ConeRankBytes coneRankBytes(const ConeProblem& p, int rows, int columns, int batch) {
    const std::size_t slab = static_cast<std::size_t>(p.nx) * static_cast<std::size_t>(p.ny) *
                             static_cast<std::size_t>(ceilDiv(p.nz, rows));
    const ConeRankGrid grid{rows, columns};
    int most = 0;  // the views of the largest column, as gathered
    for (int c = 0; c < columns; ++c)
        most = std::max(most, coneColumnViews(grid, p.np, batch, c).count);
    const auto views = static_cast<std::size_t>(most);
    return {4 * (slab + p.viewPixels() * static_cast<std::size_t>(batch)),
            4 * (p.viewPixels() * views + slab), static_cast<int>(views)};
}

Result<ConeRankGrid> chooseConeRankGrid(const ConeProblem& p, const ConeGridLimits& l) {
    TOMO_RETURN_IF_ERROR(checkProblem(p, l));
    const std::string of = " of " + std::to_string(l.ranks) + " ranks";
    if (l.rows > 0 && l.ranks % l.rows != 0)
        return invalidArgument("R = " + std::to_string(l.rows) + " does not divide the " +
                               std::to_string(l.ranks) + " ranks");
    if (l.columns > 0 && l.ranks % l.columns != 0)
        return invalidArgument("C = " + std::to_string(l.columns) + " does not divide the " +
                               std::to_string(l.ranks) + " ranks");
    if (l.rows > 0 && l.columns > 0 && l.rows * l.columns != l.ranks)
        return invalidArgument("R x C = " + std::to_string(l.rows) + " x " +
                               std::to_string(l.columns) + " is not the " +
                               std::to_string(l.ranks) + " ranks");
    if (l.rows > 0 || l.columns > 0) {
        const int rows = l.rows > 0 ? l.rows : l.ranks / l.columns;
        TOMO_RETURN_IF_ERROR(fits(p, l, rows, l.ranks / rows));
        return ConeRankGrid{rows, l.ranks / rows};
    }
    Status last = Status::ok();
    for (int rows = 1; rows <= l.ranks; ++rows) {
        if (l.ranks % rows != 0) continue;
        last = fits(p, l, rows, l.ranks / rows);
        if (last.isOk()) return ConeRankGrid{rows, l.ranks / rows};
    }
    return invalidArgument("no R x C grid" + of + " fits " + sizes(p) + " in " + mib(l.memory) +
                           " per rank; the last tried, " + last.message());
}

ConeRange coneRowPlanes(const ConeRankGrid& grid, int nz, int row) {
    return balanced(nz, grid.rows, row);
}

ConeRange coneColumnViews(const ConeRankGrid& grid, int np, int batch, int column) {
    const int batches = ceilDiv(np, batch);
    const ConeRange b = balanced(batches, grid.columns, column);
    const int first = std::min(np, b.first * batch);
    return {first, std::min(np, b.end() * batch) - first};
}

int coneRankViewCount(const ConeRankGrid& grid, int np, int batch, int row, int column) {
    const ConeRange col = coneColumnViews(grid, np, batch, column);
    int count = 0;
    for (int b = row; b * batch < col.count; b += grid.rows)
        count += std::min(batch, col.count - b * batch);
    return count;
}

}  // namespace tomo
