#pragma once
/// @file KernelSources.h
/// @brief The OpenCL C sources of gpu/opencl/kernels/*.cl, embedded into the library at build
/// time (CMake reads each file into a generated .cpp as a raw string literal; editing a .cl file
/// re-runs the generation). Kernels take their tunables as -D build options (see
/// gpu/opencl/README.md).

#include <string_view>

namespace tomo::opencl {

/// The source of kernels/@p fileName ("texture.cl"); empty when there is no such file.
std::string_view kernelSource(std::string_view fileName);

}  // namespace tomo::opencl
