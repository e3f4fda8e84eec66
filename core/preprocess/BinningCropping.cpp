#include "core/preprocess/BinningCropping.h"

#include <algorithm>
#include <string>

#include "core/base/Parallel.h"
#include "core/preprocess/PreprocessSupport.h"

namespace tomo {

Result<Array3<float>> binFrames(const Array3<float>& in, int binRows, int binCols,
                                const ExecContext& ctx) {
    if (binRows < 1 || binCols < 1)
        return invalidArgument("binning factors must be >= 1 (got " + std::to_string(binRows) +
                               "x" + std::to_string(binCols) + ")");
    if (static_cast<std::size_t>(binRows) > in.dim(1) || static_cast<std::size_t>(binCols) > in.dim(2))
        return invalidArgument("binning " + std::to_string(binRows) + "x" + std::to_string(binCols) +
                               " exceeds the frame size " + std::to_string(in.dim(1)) + "x" +
                               std::to_string(in.dim(2)));
    const std::size_t br = static_cast<std::size_t>(binRows), bc = static_cast<std::size_t>(binCols);
    const std::size_t rows = in.dim(1) / br, cols = in.dim(2) / bc;
    TOMO_ASSIGN_OR_RETURN(Array3<float> out, Array3<float>::create(in.dim(0), rows, cols));
    const double inv = 1.0 / static_cast<double>(br * bc);
    if (ctx.progress) ctx.progress->setTotal(in.dim(0));
    TOMO_RETURN_IF_ERROR(parallelFor(in.dim(0), ctx.threads, ctx.stop, [&](std::size_t f, int) {
        std::vector<double> acc(cols);
        for (std::size_t r = 0; r < rows; ++r) {
            std::fill(acc.begin(), acc.end(), 0.0);
            for (std::size_t i = 0; i < br; ++i) {
                auto src = in.row(f, r * br + i);
                for (std::size_t c = 0; c < cols; ++c)
                    for (std::size_t j = 0; j < bc; ++j)
                        acc[c] += src[c * bc + j];
            }
            auto dst = out.row(f, r);
            for (std::size_t c = 0; c < cols; ++c)
                dst[c] = static_cast<float>(acc[c] * inv);
        }
        if (ctx.progress) ctx.progress->advance();
    }));
    return out;
}

Result<Array3<float>> cropFrames(const Array3<float>& in, std::size_t firstRow, std::size_t rowCount,
                                 std::size_t firstCol, std::size_t colCount, const ExecContext& ctx) {
    if (rowCount == 0 || firstRow >= in.dim(1) || rowCount > in.dim(1) - firstRow)
        return invalidArgument("crop rows [" + std::to_string(firstRow) + ", " +
                               std::to_string(firstRow + rowCount) + ") are empty or outside the " +
                               std::to_string(in.dim(1)) + " detector rows");
    if (colCount == 0 || firstCol >= in.dim(2) || colCount > in.dim(2) - firstCol)
        return invalidArgument("crop columns [" + std::to_string(firstCol) + ", " +
                               std::to_string(firstCol + colCount) + ") are empty or outside the " +
                               std::to_string(in.dim(2)) + " detector columns");
    TOMO_ASSIGN_OR_RETURN(Array3<float> out, Array3<float>::create(in.dim(0), rowCount, colCount));
    if (ctx.progress) ctx.progress->setTotal(in.dim(0));
    TOMO_RETURN_IF_ERROR(parallelFor(in.dim(0), ctx.threads, ctx.stop, [&](std::size_t f, int) {
        for (std::size_t r = 0; r < rowCount; ++r)
            std::copy_n(in.row(f, firstRow + r).data() + firstCol, colCount, out.row(f, r).data());
        if (ctx.progress) ctx.progress->advance();
    }));
    return out;
}

Result<Array3<float>> selectFrames(const Array3<float>& in, const std::vector<double>& angles,
                                   std::size_t first, std::size_t count, std::size_t step,
                                   std::vector<double>& anglesOut) {
    const std::size_t n = in.dim(0);
    if (!angles.empty() && angles.size() != n)
        return invalidArgument(std::to_string(angles.size()) + " angles given for " +
                               std::to_string(n) + " projections");
    if (step == 0) return invalidArgument("the projection step must be >= 1");
    if (count == 0 || first >= n || count > n - first)
        return invalidArgument("projection range [" + std::to_string(first) + ", " +
                               std::to_string(first + count) + ") is empty or outside the " +
                               std::to_string(n) + " projections");
    const std::size_t kept = (count + step - 1) / step;
    TOMO_ASSIGN_OR_RETURN(Array3<float> out, Array3<float>::create(kept, in.dim(1), in.dim(2)));
    anglesOut.clear();
    for (std::size_t k = 0; k < kept; ++k) {
        const std::size_t src = first + k * step;
        for (std::size_t r = 0; r < in.dim(1); ++r)
            std::copy_n(in.row(src, r).data(), in.dim(2), out.row(k, r).data());
        if (!angles.empty()) anglesOut.push_back(angles[src]);
    }
    return out;
}

}  // namespace tomo
