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

}  // namespace tomo::opencl
