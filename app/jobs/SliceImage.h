#pragma once
/// @file SliceImage.h
/// @brief A dense, owning copy of one 2-D float image (a slice of an iterate, a trial slice of
/// the centre sweep, a frame of the teaching animation), handed from jobs to the GUI as
/// `std::shared_ptr<const SliceImage>`: immutable once published, so any thread may read it.

#include <cstddef>
#include <vector>

#include "core/data/Array.h"

namespace tomo::app {

struct SliceImage {
    std::size_t rows = 0;
    std::size_t cols = 0;
    std::vector<float> values;  ///< rows x cols, row-major, row 0 = top (largest y)

    /// A dense copy of @p image (padding dropped).
    static SliceImage copyOf(View2<const float> image) {
        SliceImage s;
        s.rows = image.rows();
        s.cols = image.cols();
        s.values.resize(s.rows * s.cols);
        copyDense(image, s.values.data());
        return s;
    }
    View2<const float> view() const { return {values.data(), rows, cols, cols}; }
    bool empty() const { return values.empty(); }
    std::size_t bytes() const { return values.size() * sizeof(float); }
};

}  // namespace tomo::app
