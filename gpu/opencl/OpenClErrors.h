#pragma once
/// @file OpenClErrors.h
/// @brief Names of OpenCL error codes for messages ("CL_OUT_OF_RESOURCES (-5)"). No OpenCL
/// types: codes are plain ints (cl_int is a 32-bit signed integer).

#include <string>

namespace tomo::opencl {

/// The symbolic name of an OpenCL status code (OpenCL 3.0 core codes 0 to -72 and the ICD's
/// CL_PLATFORM_NOT_FOUND_KHR, -1001), or "unknown OpenCL error" for anything else.
const char* clErrorName(int code);

/// "<what> failed: CL_OUT_OF_RESOURCES (-5)".
std::string clErrorMessage(const std::string& what, int code);

}  // namespace tomo::opencl
