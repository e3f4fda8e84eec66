// Range resolution of ReadRange.h.
#include "core/io/ReadRange.h"

namespace tomo {
namespace {

std::string span(std::size_t first, std::size_t count) {
    if (count == ReadRange::kAll) return std::to_string(first) + "..end";
    if (count == 0) return std::to_string(first) + " (none)";
    return std::to_string(first) + ".." + std::to_string(first + count - 1);
}

/// Resolves one axis; false when the range is empty or out of bounds.
bool resolveAxis(std::size_t& first, std::size_t& count, std::size_t size) {
    if (first >= size) return false;
    if (count == ReadRange::kAll) count = size - first;
    return count > 0 && count <= size - first;
}

}  // namespace

Result<ReadRange> ReadRange::resolve(std::size_t planes, std::size_t rows,
                                     const std::string& where) const {
    ReadRange r = *this;
    if (!resolveAxis(r.firstPlane, r.planeCount, planes) ||
        !resolveAxis(r.firstRow, r.rowCount, rows))
        return invalidArgument(where + ": requested " + toString() + " outside the " +
                               std::to_string(planes) + " planes of " + std::to_string(rows) +
                               " rows that the file holds (or empty)");
    return r;
}

std::string ReadRange::toString() const {
    return "planes " + span(firstPlane, planeCount) + ", rows " + span(firstRow, rowCount);
}

}  // namespace tomo
