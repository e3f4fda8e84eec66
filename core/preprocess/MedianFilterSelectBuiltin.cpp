// medianFilter2d without ITK: the plain C++ filter (MedianFilter.h; chosen in CMakeLists.txt).
#include "core/preprocess/MedianFilter.h"

namespace tomo {

Status medianFilter2d(View2<const float> in, View2<float> out, int size) {
    return medianFilter2dBuiltin(in, out, size);
}

const char* medianFilterBackendName() {
    return "builtin";
}

}  // namespace tomo
