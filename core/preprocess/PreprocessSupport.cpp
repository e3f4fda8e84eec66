#include "core/preprocess/PreprocessSupport.h"

#include <algorithm>
#include <cmath>

namespace tomo {

std::string shapeText(const Array3<float>& a) {
    return std::to_string(a.dim(0)) + "x" + std::to_string(a.dim(1)) + "x" + std::to_string(a.dim(2));
}

std::string shapeText(View2<const float> v) {
    return std::to_string(v.rows()) + "x" + std::to_string(v.cols());
}

Status checkAllFinite(const Array3<float>& a, const std::string& what) {
    for (std::size_t i = 0; i < a.dim(0); ++i)
        for (std::size_t r = 0; r < a.dim(1); ++r) {
            auto row = a.row(i, r);
            for (std::size_t c = 0; c < row.size(); ++c)
                if (!std::isfinite(row[c]))
                    return invalidData(what + " hold a non-finite value at [" + std::to_string(i) +
                                       "][" + std::to_string(r) + "][" + std::to_string(c) + "]");
        }
    return Status::ok();
}

Status checkAllFinite(View2<const float> v, const std::string& what) {
    for (std::size_t r = 0; r < v.rows(); ++r) {
        auto row = v.row(r);
        for (std::size_t c = 0; c < row.size(); ++c)
            if (!std::isfinite(row[c]))
                return invalidData(what + " holds a non-finite value at row " + std::to_string(r) +
                                   ", column " + std::to_string(c));
    }
    return Status::ok();
}

float medianInPlace(std::span<float> values) {
    const std::size_t n = values.size();
    if (n == 0) return 0.f;
    auto mid = values.begin() + static_cast<std::ptrdiff_t>(n / 2);
    std::nth_element(values.begin(), mid, values.end());
    const float upper = *mid;
    if (n % 2 == 1) return upper;
    const float lower = *std::max_element(values.begin(), mid);
    return 0.5f * (lower + upper);
}

}  // namespace tomo
