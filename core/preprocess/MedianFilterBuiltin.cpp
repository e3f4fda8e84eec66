// The plain C++ median filter (MedianFilter.h): always compiled, and medianFilter2d when ITK is
// not (MedianFilterSelectBuiltin.cpp).
#include <algorithm>
#include <vector>

#include "core/preprocess/MedianFilter.h"
#include "core/preprocess/PreprocessSupport.h"

namespace tomo {

Status checkMedianFilterArgs(View2<const float> in, View2<const float> out, int size) {
    if (size < 3 || size % 2 == 0)
        return invalidArgument("median filter size must be odd and >= 3 (got " +
                               std::to_string(size) + ")");
    if (in.rows() != out.rows() || in.cols() != out.cols())
        return invalidArgument("median filter: output " + shapeText(out) +
                               " does not match input " + shapeText(in));
    return Status::ok();
}

Status medianFilter2dBuiltin(View2<const float> in, View2<float> out, int size) {
    TOMO_RETURN_IF_ERROR(checkMedianFilterArgs(in, out, size));
    const long half = size / 2;
    const long rows = static_cast<long>(in.rows()), cols = static_cast<long>(in.cols());
    std::vector<float> window(static_cast<std::size_t>(size) * static_cast<std::size_t>(size));
    for (long r = 0; r < rows; ++r)
        for (long c = 0; c < cols; ++c) {
            std::size_t n = 0;
            for (long dr = -half; dr <= half; ++dr) {
                const auto rr = static_cast<std::size_t>(std::clamp(r + dr, 0L, rows - 1));
                for (long dc = -half; dc <= half; ++dc)
                    window[n++] =
                        in(rr, static_cast<std::size_t>(std::clamp(c + dc, 0L, cols - 1)));
            }
            out(static_cast<std::size_t>(r), static_cast<std::size_t>(c)) = medianInPlace(window);
        }
    return Status::ok();
}

}  // namespace tomo
