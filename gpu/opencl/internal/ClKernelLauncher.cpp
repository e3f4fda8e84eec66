// Helpers shared by the kernel launchers (see ClKernelLauncher.h).
#include "gpu/opencl/internal/ClKernelLauncher.h"

#include <cstring>

namespace tomo::opencl {
namespace {

const cl_event* waitList(const std::vector<cl_event>& wait) {
    return wait.empty() ? nullptr : wait.data();
}

}  // namespace

Status ClKernelLauncher::enqueueUpload(cl_command_queue queue, cl_mem staging, cl_mem sinogram,
                                       int angles, int detectors, const std::vector<cl_event>& wait,
                                       ClEvent& done) const {
    if (usesImage())
        return enqueueImageUpload(queue, staging, sinogram, detectors, angles, wait, done);
    return enqueueBufferUpload(queue, staging, sinogram, packedBytes(angles, detectors), wait,
                               done);
}

Status setBackProjectionArgs(const ClKernel& kernel, const ClPassShape& shape,
                             const ClLaunch& launch) {
    return setKernelArgs(kernel, launch.sinogram, launch.constants, launch.projBegin,
                         launch.projEnd, shape.detectors, launch.output, shape.nx, shape.rows,
                         shape.rowBegin, static_cast<int>(launch.accumulate));
}

Status enqueueImageUpload(cl_command_queue queue, cl_mem staging, cl_mem image, int width,
                          int height, const std::vector<cl_event>& wait, ClEvent& done) {
    const std::size_t origin[3] = {0, 0, 0};
    const std::size_t region[3] = {static_cast<std::size_t>(width),
                                   static_cast<std::size_t>(height), 1};
    return clCheck(
        clEnqueueCopyBufferToImage(queue, staging, image, 0, origin, region,
                                   static_cast<cl_uint>(wait.size()), waitList(wait), done.out()),
        "clEnqueueCopyBufferToImage(sinogram)");
}

Status enqueueBufferUpload(cl_command_queue queue, cl_mem staging, cl_mem buffer, std::size_t bytes,
                           const std::vector<cl_event>& wait, ClEvent& done) {
    return clCheck(
        clEnqueueCopyBuffer(queue, staging, buffer, 0, 0, bytes, static_cast<cl_uint>(wait.size()),
                            waitList(wait), done.out()),
        "clEnqueueCopyBuffer(sinogram)");
}

Status enqueueKernel2d(cl_command_queue queue, const ClKernel& kernel, std::size_t globalX,
                       std::size_t globalY, std::size_t localX, std::size_t localY,
                       const std::vector<cl_event>& wait, ClEvent& done, const char* name) {
    const std::size_t global[2] = {globalX, globalY};
    const std::size_t local[2] = {localX, localY};
    return clCheck(
        clEnqueueNDRangeKernel(queue, kernel.get(), 2, nullptr, global, local,
                               static_cast<cl_uint>(wait.size()), waitList(wait), done.out()),
        std::string("clEnqueueNDRangeKernel(") + name + ")");
}

void packInterleaved(const Sinograms& sino, int s0, int count, int a0, int na, int channels,
                     bool half, void* dst) {
    const std::size_t det = sino.dim(2);
    const std::size_t ch = static_cast<std::size_t>(channels);
    for (int a = 0; a < na; ++a) {
        const std::size_t rowBase = static_cast<std::size_t>(a) * det * ch;
        for (int c = 0; c < channels; ++c) {
            const float* src = c < count ? sino.row(static_cast<std::size_t>(s0 + c),
                                                    static_cast<std::size_t>(a0 + a))
                                               .data()
                                         : nullptr;
            if (half) {
                auto* out =
                    static_cast<std::uint16_t*>(dst) + rowBase + static_cast<std::size_t>(c);
                for (std::size_t d = 0; d < det; ++d)
                    out[d * ch] = src ? floatToHalf(src[d]) : std::uint16_t{0};
            } else {
                auto* out = static_cast<float*>(dst) + rowBase + static_cast<std::size_t>(c);
                for (std::size_t d = 0; d < det; ++d)
                    out[d * ch] = src ? src[d] : 0.0f;
            }
        }
    }
}

}  // namespace tomo::opencl
