// The plain C++ median filter (MedianFilter.h), used when ITK is not compiled in.
#include <algorithm>
#include <vector>

#include "core/preprocess/MedianFilter.h"
#include "core/preprocess/PreprocessSupport.h"

namespace tomo {

Status medianFilter2d(View2<const float> in, View2<float> out, int size) {
    if (size < 3 || size % 2 == 0)
        return invalidArgument("median filter size must be odd and >= 3 (got " +
                               std::to_string(size) + ")");
    if (in.rows() != out.rows() || in.cols() != out.cols())
        return invalidArgument("median filter: output " + shapeText(View2<const float>(out)) +
                               " does not match input " + shapeText(in));
    const long half = size / 2;
    const long rows = static_cast<long>(in.rows()), cols = static_cast<long>(in.cols());
    std::vector<float> window(static_cast<std::size_t>(size) * static_cast<std::size_t>(size));
    for (long r = 0; r < rows; ++r)
        for (long c = 0; c < cols; ++c) {
            std::size_t n = 0;
            for (long dr = -half; dr <= half; ++dr) {
                const auto rr = static_cast<std::size_t>(std::clamp(r + dr, 0L, rows - 1));
                for (long dc = -half; dc <= half; ++dc)
                    window[n++] = in(rr, static_cast<std::size_t>(std::clamp(c + dc, 0L, cols - 1)));
            }
            out(static_cast<std::size_t>(r), static_cast<std::size_t>(c)) = medianInPlace(window);
        }
    return Status::ok();
}

const char* medianFilterBackendName() {
    return "builtin";
}

}  // namespace tomo
