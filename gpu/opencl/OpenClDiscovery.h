#pragma once
/// @file OpenClDiscovery.h
/// @brief Lists every OpenCL platform and device through the ICD loader. The header is free of
/// OpenCL types; only OpenClDiscovery.cpp includes CL/cl.h.

#include "core/devices/DeviceInfo.h"

namespace tomo::opencl {

/// Asks the ICD loader for all platforms and their devices (all device types). Never throws:
/// - no platform (no ICD installed, CL_PLATFORM_NOT_FOUND_KHR or zero platforms):
///   `available == false`, message "no OpenCL platform: ...";
/// - otherwise one DeviceInfo per device, indexed flat over platforms in loader order: name,
///   vendor, driver version, architecture "<type> (<platform name>)" such as
///   "CPU (Portable Computing Language)", compute units, max clock (MHz), global memory, local
///   memory per work-group (localMemoryBytes); properties give the platform, device and OpenCL C
///   versions, max allocation, max work-group size, image support and max 2-D image size, fp16 and
///   fp64 (from the extension list), and "float image formats": the channel orders among R, RG
///   and RGBA that the device supports with CL_FLOAT for read-only 2-D images. The last needs a
///   context: one is created per device and released before returning.
/// A failing query on one device leaves the device in the list with the error in `note`, naming
/// the call and the CL error ("clCreateContext failed: CL_OUT_OF_HOST_MEMORY (-6)").
/// Reentrant (the OpenCL API is thread-safe); can take tens of milliseconds per device.
DeviceDiscovery discoverDevices();

}  // namespace tomo::opencl
