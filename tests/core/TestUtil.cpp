#include "TestUtil.h"

#include <algorithm>
#include <cmath>

namespace tomo::test {

double dot(const Array3<float>& a, const Array3<float>& b) {
    double s = 0;
    for (std::size_t r = 0; r < a.dim(0) * a.dim(1); ++r) {
        auto ra = a.rows().row(r);
        auto rb = b.rows().row(r);
        for (std::size_t c = 0; c < ra.size(); ++c)
            s += double(ra[c]) * double(rb[c]);
    }
    return s;
}

double maxRelDiff(const Array3<float>& a, const Array3<float>& b) {
    double maxDiff = 0, maxRef = 0;
    for (std::size_t r = 0; r < a.dim(0) * a.dim(1); ++r) {
        auto ra = a.rows().row(r);
        auto rb = b.rows().row(r);
        for (std::size_t c = 0; c < ra.size(); ++c) {
            maxDiff = std::max(maxDiff, std::abs(double(ra[c]) - double(rb[c])));
            maxRef = std::max(maxRef, std::abs(double(rb[c])));
        }
    }
    return maxRef > 0 ? maxDiff / maxRef : maxDiff;
}

}  // namespace tomo::test
