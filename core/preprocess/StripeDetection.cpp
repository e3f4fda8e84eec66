#include "core/preprocess/StripeDetection.h"

#include <algorithm>
#include <cmath>

#include "core/preprocess/PreprocessSupport.h"

namespace tomo {
namespace {

/// The floor of the threshold, a fraction of the sinogram's largest magnitude.
constexpr double kRelativeFloor = 3e-3;

/// Per column of @p rows (rows x columns), the mean over the rows of its residual against the
/// running median of each row (2 @p halfWidth + 1 columns), without the quarter of largest and
/// the quarter of smallest residuals.
std::vector<float> columnShifts(View2<const float> rows, std::size_t halfWidth) {
    const std::size_t nr = rows.rows(), nc = rows.cols(), trim = nr / 4;
    const std::vector<float> smooth = rowMedians(rows, halfWidth);
    std::vector<float> shift(nc), column(nr);
    for (std::size_t j = 0; j < nc; ++j) {
        for (std::size_t k = 0; k < nr; ++k)
            column[k] = rows(k, j) - smooth[k * nc + j];
        std::sort(column.begin(), column.end());
        double sum = 0;
        for (std::size_t k = trim; k < nr - trim; ++k)
            sum += column[k];
        shift[j] = static_cast<float>(sum / static_cast<double>(nr - 2 * trim));
    }
    return shift;
}

/// Per value, its distance from the values' median where that exceeds both @p snr robust
/// standard deviations (1.4826 x the median absolute deviation) and @p floor, else 0.
std::vector<double> outliers(const std::vector<float>& values, double snr, double floor) {
    std::vector<float> work(values);
    const float median = medianInPlace(work);
    for (std::size_t j = 0; j < values.size(); ++j)
        work[j] = std::fabs(values[j] - median);
    const double limit = std::max(snr * 1.4826 * medianInPlace(work), floor);
    std::vector<double> out(values.size(), 0.0);
    for (std::size_t j = 0; j < values.size(); ++j)
        if (std::fabs(values[j] - median) > limit) out[j] = values[j] - median;
    return out;
}

}  // namespace

std::vector<std::size_t> detectStripes(View2<const float> sino, double snr, std::size_t halfWidth) {
    const std::size_t na = sino.rows(), nd = sino.cols();
    std::vector<std::size_t> stripes;
    if (na == 0 || nd < 3 || halfWidth == 0) return stripes;
    // ranked(k, j): the k-th smallest value of column j over the angles.
    std::vector<float> ranked(na * nd), column(na);
    double largest = 0;
    for (std::size_t j = 0; j < nd; ++j) {
        for (std::size_t a = 0; a < na; ++a) {
            column[a] = sino(a, j);
            largest = std::max(largest, std::fabs(static_cast<double>(sino(a, j))));
        }
        std::sort(column.begin(), column.end());
        for (std::size_t k = 0; k < na; ++k)
            ranked[k * nd + j] = column[k];
    }
    const double floor = std::max(kRelativeFloor * largest, 1e-30);
    const std::vector<double> inRows = outliers(columnShifts(sino, halfWidth), snr, floor);
    const std::vector<double> inRanks = outliers(
        columnShifts(View2<const float>(ranked.data(), na, nd, nd), halfWidth), snr, floor);
    for (std::size_t j = 0; j < nd; ++j)
        if (inRows[j] * inRanks[j] > 0) stripes.push_back(j);
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
