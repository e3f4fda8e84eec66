#include "core/preprocess/StripeDetection.h"

#include <algorithm>
#include <cmath>

#include "core/preprocess/PreprocessSupport.h"

namespace tomo {
namespace {

/// The floor of the threshold, a fraction of the sinogram's largest magnitude.
constexpr double kRelativeFloor = 3e-3;

/// The runs of consecutive angles whose mean residuals a column's shift is the median of.
constexpr std::size_t kAngleRuns = 6;

/// The mean of @p values [first, last) without the quarter of largest and the quarter of
/// smallest (reordered in place).
double interquartileMean(std::vector<float>& values, std::size_t first, std::size_t last) {
    const auto begin = values.begin();
    std::sort(begin + static_cast<long>(first), begin + static_cast<long>(last));
    const std::size_t trim = (last - first) / 4;
    double sum = 0;
    for (std::size_t k = first + trim; k < last - trim; ++k)
        sum += values[k];
    return sum / static_cast<double>(last - first - 2 * trim);
}

/// The shift of one column from its residuals over the rows (reordered): the rows are cut into
/// @p runs runs of consecutive rows, each run's residuals averaged without their largest and
/// smallest quarters, and the shift is the median of those means, so a residual present in
/// fewer than half the runs does not count.
float shiftOf(std::vector<float>& residuals, std::size_t runs) {
    const std::size_t n = residuals.size();
    runs = std::clamp<std::size_t>(runs, 1, n);
    std::vector<float> means(runs);
    for (std::size_t b = 0; b < runs; ++b)
        means[b] =
            static_cast<float>(interquartileMean(residuals, b * n / runs, (b + 1) * n / runs));
    return medianInPlace(means);
}

/// Per column of @p rows (rows x columns), its shift (shiftOf) against the running median of
/// each row (2 @p halfWidth + 1 columns).
std::vector<float> columnShifts(View2<const float> rows, std::size_t halfWidth, std::size_t runs) {
    const std::size_t nr = rows.rows(), nc = rows.cols();
    const std::vector<float> smooth = rowMedians(rows, halfWidth);
    std::vector<float> shift(nc), column(nr);
    for (std::size_t j = 0; j < nc; ++j) {
        for (std::size_t k = 0; k < nr; ++k)
            column[k] = rows(k, j) - smooth[k * nc + j];
        shift[j] = shiftOf(column, runs);
    }
    return shift;
}

/// Column @p j's shift in the rows of @p sino as columnShifts gives it, but with the columns
/// set in @p mask (j not among them) bridged (bridgeMaskedColumns) in the running median.
float shiftBesideStripes(View2<const float> sino, std::size_t j, std::size_t halfWidth,
                         const std::vector<char>& mask) {
    const std::size_t na = sino.rows(), nd = sino.cols();
    const auto h = static_cast<long>(halfWidth);
    std::vector<float> row(nd), window(2 * halfWidth + 1), residuals(na);
    for (std::size_t a = 0; a < na; ++a) {
        for (std::size_t k = 0; k < nd; ++k)
            row[k] = sino(a, k);
        bridgeMaskedColumns(row.data(), 1, mask);
        std::size_t n = 0;
        for (long d = -h; d <= h; ++d)
            window[n++] = row[mirrorIndex(static_cast<long>(j) + d, nd)];
        residuals[a] = sino(a, j) - medianInPlace(window);
    }
    return shiftOf(residuals, kAngleRuns);
}

/// Where @p values stand out: their median and the distance from it beyond which a value is an
/// outlier, @p snr robust standard deviations (1.4826 x the median absolute deviation) or
/// @p floor, whichever is larger.
struct Spread {
    double median = 0, limit = 0;
    bool outside(double value) const { return std::fabs(value - median) > limit; }
};

Spread spreadOf(const std::vector<float>& values, double snr, double floor) {
    std::vector<float> work(values);
    const float median = medianInPlace(work);
    for (std::size_t j = 0; j < values.size(); ++j)
        work[j] = std::fabs(values[j] - median);
    return {median, std::max(snr * 1.4826 * medianInPlace(work), floor)};
}

/// The k-th smallest value of each column of @p sino over the angles, [k][detector] row-major,
/// and the largest magnitude in @p sino.
std::vector<float> angleRanks(View2<const float> sino, double& largest) {
    const std::size_t na = sino.rows(), nd = sino.cols();
    std::vector<float> ranked(na * nd), column(na);
    largest = 0;
    for (std::size_t j = 0; j < nd; ++j) {
        for (std::size_t a = 0; a < na; ++a) {
            column[a] = sino(a, j);
            largest = std::max(largest, std::fabs(static_cast<double>(sino(a, j))));
        }
        std::sort(column.begin(), column.end());
        for (std::size_t k = 0; k < na; ++k)
            ranked[k * nd + j] = column[k];
    }
    return ranked;
}

}  // namespace

std::vector<std::size_t> detectStripes(View2<const float> sino, double snr, std::size_t halfWidth) {
    const std::size_t na = sino.rows(), nd = sino.cols();
    std::vector<std::size_t> stripes;
    if (na == 0 || nd < 3 || halfWidth == 0) return stripes;
    double largest = 0;
    const std::vector<float> ranked = angleRanks(sino, largest);
    const double floor = std::max(kRelativeFloor * largest, 1e-30);
    const std::vector<float> rows = columnShifts(sino, halfWidth, kAngleRuns);
    // In the angle-ranked image a run of ranks is no run of angles: one run, as Vo's sorting.
    const std::vector<float> ranks =
        columnShifts(View2<const float>(ranked.data(), na, nd, nd), halfWidth, 1);
    const Spread inRows = spreadOf(rows, snr, floor), inRanks = spreadOf(ranks, snr, floor);
    std::vector<std::size_t> candidates;
    for (std::size_t j = 0; j < nd; ++j)
        if (inRows.outside(rows[j]) && inRanks.outside(ranks[j]) &&
            (rows[j] - inRows.median) * (ranks[j] - inRanks.median) > 0)
            candidates.push_back(j);
    // A stripe shifts the running median of the columns within halfWidth of it, and so their
    // residuals the other way: strongest first, a candidate near an accepted stripe stays only
    // if it still stands out with the accepted stripes bridged.
    std::stable_sort(candidates.begin(), candidates.end(), [&](std::size_t p, std::size_t q) {
        return std::fabs(rows[p] - inRows.median) > std::fabs(rows[q] - inRows.median);
    });
    std::vector<char> accepted(nd, 0);
    for (std::size_t j : candidates) {
        const std::size_t lo = j > halfWidth ? j - halfWidth : 0;
        const std::size_t hi = std::min(nd - 1, j + halfWidth);
        const bool near = std::any_of(accepted.begin() + static_cast<long>(lo),
                                      accepted.begin() + static_cast<long>(hi) + 1,
                                      [](char c) { return c != 0; });
        if (near) {
            const double again = shiftBesideStripes(sino, j, halfWidth, accepted);
            if (!inRows.outside(again) || (again - inRows.median) * (rows[j] - inRows.median) <= 0)
                continue;
        }
        accepted[j] = 1;
        stripes.push_back(j);
    }
    std::sort(stripes.begin(), stripes.end());
    return stripes;
}

std::vector<float> rowMedians(View2<const float> sino, std::size_t halfWidth) {
    const std::size_t na = sino.rows(), nd = sino.cols();
    std::vector<float> out(na * nd), window(2 * halfWidth + 1);
    const auto h = static_cast<long>(halfWidth);
    for (std::size_t a = 0; a < na; ++a)
        for (std::size_t j = 0; j < nd; ++j) {
            std::size_t n = 0;
            for (long d = -h; d <= h; ++d)
                window[n++] = sino(a, mirrorIndex(static_cast<long>(j) + d, nd));
            out[a * nd + j] = medianInPlace(window);
        }
    return out;
}

std::vector<char> stripeMask(const std::vector<std::size_t>& stripes, std::size_t columns) {
    std::vector<char> mask(columns, 0);
    for (std::size_t j : stripes)
        if (j < columns) mask[j] = 1;
    return mask;
}

void bridgeMaskedColumns(float* row, std::size_t stride, const std::vector<char>& mask) {
    const std::size_t nd = mask.size();
    std::size_t j = 0;
    while (j < nd) {
        if (!mask[j]) {
            ++j;
            continue;
        }
        const std::size_t first = j;
        while (j < nd && mask[j])
            ++j;
        // Columns [first, j) are masked; first - 1 and j (when inside) are not.
        if (first == 0 && j == nd) return;
        const float left = first > 0 ? row[(first - 1) * stride] : row[j * stride];
        const float right = j < nd ? row[j * stride] : left;
        const auto span = static_cast<float>(j - first + 1);
        for (std::size_t k = first; k < j; ++k)
            row[k * stride] = left + (right - left) * static_cast<float>(k - first + 1) / span;
    }
}

}  // namespace tomo
