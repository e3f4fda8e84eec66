// OpenCL device discovery with the C API, small RAII holders and every error named.
#define CL_TARGET_OPENCL_VERSION 120
#include "gpu/opencl/OpenClDiscovery.h"

#include <CL/cl.h>

#include <cstring>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "core/devices/CpuFeatures.h"
#include "gpu/opencl/OpenClErrors.h"

namespace tomo::opencl {
namespace {

constexpr cl_int kPlatformNotFoundKhr = -1001;

struct ContextRelease {
    void operator()(cl_context c) const { clReleaseContext(c); }
};
using ContextPtr = std::unique_ptr<std::remove_pointer_t<cl_context>, ContextRelease>;

/// A query result or the message of the failed call.
template <class T>
struct Query {
    T value{};
    std::string error;
    bool ok() const { return error.empty(); }
};

template <class Get, class Obj, class Param>
Query<std::string> queryString(Get get, Obj obj, Param param, const char* what) {
    Query<std::string> q;
    std::size_t size = 0;
    cl_int err = get(obj, param, 0, nullptr, &size);
    if (err == CL_SUCCESS && size > 0) {
        std::vector<char> buf(size);
        err = get(obj, param, size, buf.data(), nullptr);
        if (err == CL_SUCCESS) q.value.assign(buf.data(), strnlen(buf.data(), size));
    }
    if (err != CL_SUCCESS) q.error = clErrorMessage(what, err);
    return q;
}

/// A fixed-size device property; @p name is the parameter's name for the error message.
template <class T>
Query<T> deviceValue(cl_device_id d, cl_device_info param, const char* name) {
    Query<T> q;
    cl_int err = clGetDeviceInfo(d, param, sizeof(T), &q.value, nullptr);
    if (err != CL_SUCCESS)
        q.error = clErrorMessage("clGetDeviceInfo(" + std::string(name) + ")", err);
    return q;
}

Query<std::string> deviceString(cl_device_id d, cl_device_info param, const char* name) {
    return queryString(clGetDeviceInfo, d, param,
                       ("clGetDeviceInfo(" + std::string(name) + ")").c_str());
}

std::string deviceTypeName(cl_device_type t) {
    if (t & CL_DEVICE_TYPE_GPU) return "GPU";
    if (t & CL_DEVICE_TYPE_CPU) return "CPU";
    if (t & CL_DEVICE_TYPE_ACCELERATOR) return "accelerator";
    return "device";
}

bool hasExtension(const std::string& list, const std::string& ext) {
    return (" " + list + " ").find(" " + ext + " ") != std::string::npos;
}

/// "R, RG, RGBA": orders supported with CL_FLOAT for read-only 2-D images on @p device.
Query<std::string> floatImageFormats(cl_platform_id platform, cl_device_id device) {
    Query<std::string> q;
    const cl_context_properties props[] = {CL_CONTEXT_PLATFORM,
                                           reinterpret_cast<cl_context_properties>(platform), 0};
    cl_int err = CL_SUCCESS;
    ContextPtr ctx(clCreateContext(props, 1, &device, nullptr, nullptr, &err));
    if (!ctx || err != CL_SUCCESS) {
        q.error = clErrorMessage("clCreateContext", err);
        return q;
    }
    cl_uint count = 0;
    err = clGetSupportedImageFormats(ctx.get(), CL_MEM_READ_ONLY, CL_MEM_OBJECT_IMAGE2D, 0, nullptr,
                                     &count);
    std::vector<cl_image_format> formats(count);
    if (err == CL_SUCCESS && count > 0)
        err = clGetSupportedImageFormats(ctx.get(), CL_MEM_READ_ONLY, CL_MEM_OBJECT_IMAGE2D, count,
                                         formats.data(), nullptr);
    if (err != CL_SUCCESS) {
        q.error = clErrorMessage("clGetSupportedImageFormats", err);
        return q;
    }
    const std::pair<cl_channel_order, const char*> wanted[] = {
        {CL_R, "R"}, {CL_RG, "RG"}, {CL_RGBA, "RGBA"}};
    for (const auto& [order, name] : wanted)
        for (const cl_image_format& f : formats)
            if (f.image_channel_order == order && f.image_channel_data_type == CL_FLOAT) {
                q.value += (q.value.empty() ? "" : ", ") + std::string(name);
                break;
            }
    if (q.value.empty()) q.value = "none";
    return q;
}

void describeDevice(cl_platform_id platform, const std::string& platformName,
                    const std::string& platformVersion, cl_device_id d, DeviceInfo& info) {
    std::string firstError;
    auto take = [&](auto q) {
        if (!q.ok() && firstError.empty()) firstError = q.error;
        return q.value;
    };
    info.name = take(deviceString(d, CL_DEVICE_NAME, "CL_DEVICE_NAME"));
    info.vendor = take(deviceString(d, CL_DEVICE_VENDOR, "CL_DEVICE_VENDOR"));
    info.driver = take(deviceString(d, CL_DRIVER_VERSION, "CL_DRIVER_VERSION"));
    auto type = take(deviceValue<cl_device_type>(d, CL_DEVICE_TYPE, "CL_DEVICE_TYPE"));
    info.architecture = deviceTypeName(type) + " (" + platformName + ")";
    info.computeUnits = static_cast<int>(
        take(deviceValue<cl_uint>(d, CL_DEVICE_MAX_COMPUTE_UNITS, "CL_DEVICE_MAX_COMPUTE_UNITS")));
    info.clockMHz = take(
        deviceValue<cl_uint>(d, CL_DEVICE_MAX_CLOCK_FREQUENCY, "CL_DEVICE_MAX_CLOCK_FREQUENCY"));
    info.globalMemoryBytes =
        take(deviceValue<cl_ulong>(d, CL_DEVICE_GLOBAL_MEM_SIZE, "CL_DEVICE_GLOBAL_MEM_SIZE"));
    info.localMemoryBytes =
        take(deviceValue<cl_ulong>(d, CL_DEVICE_LOCAL_MEM_SIZE, "CL_DEVICE_LOCAL_MEM_SIZE"));
    auto deviceVersion = take(deviceString(d, CL_DEVICE_VERSION, "CL_DEVICE_VERSION"));
    auto cVersion = take(deviceString(d, CL_DEVICE_OPENCL_C_VERSION, "CL_DEVICE_OPENCL_C_VERSION"));
    auto maxAlloc = take(
        deviceValue<cl_ulong>(d, CL_DEVICE_MAX_MEM_ALLOC_SIZE, "CL_DEVICE_MAX_MEM_ALLOC_SIZE"));
    auto maxGroup = take(deviceValue<std::size_t>(d, CL_DEVICE_MAX_WORK_GROUP_SIZE,
                                                  "CL_DEVICE_MAX_WORK_GROUP_SIZE"));
    auto images = take(deviceValue<cl_bool>(d, CL_DEVICE_IMAGE_SUPPORT, "CL_DEVICE_IMAGE_SUPPORT"));
    auto extensions = take(deviceString(d, CL_DEVICE_EXTENSIONS, "CL_DEVICE_EXTENSIONS"));

    info.properties = {
        {"type", deviceTypeName(type)},
        {"platform", platformName + " (" + platformVersion + ")"},
        {"device version", deviceVersion},
        {"OpenCL C version", cVersion},
        {"max allocation", formatBytes(maxAlloc)},
        {"max work-group size", std::to_string(maxGroup)},
        {"image support", images ? "yes" : "no"},
        {"fp16", hasExtension(extensions, "cl_khr_fp16") ? "yes" : "no"},
        {"fp64", hasExtension(extensions, "cl_khr_fp64") ? "yes" : "no"},
    };
    if (images) {
        auto w = take(deviceValue<std::size_t>(d, CL_DEVICE_IMAGE2D_MAX_WIDTH,
                                               "CL_DEVICE_IMAGE2D_MAX_WIDTH"));
        auto h = take(deviceValue<std::size_t>(d, CL_DEVICE_IMAGE2D_MAX_HEIGHT,
                                               "CL_DEVICE_IMAGE2D_MAX_HEIGHT"));
        info.properties.emplace_back("max 2D image", std::to_string(w) + " x " + std::to_string(h));
        info.properties.emplace_back("float image formats", take(floatImageFormats(platform, d)));
    }
    info.note = firstError;
}

}  // namespace

DeviceDiscovery discoverDevices() {
    DeviceDiscovery result;
    result.backend = "opencl";
    cl_uint platformCount = 0;
    cl_int err = clGetPlatformIDs(0, nullptr, &platformCount);
    if (err == kPlatformNotFoundKhr || (err == CL_SUCCESS && platformCount == 0)) {
        result.message =
            "no OpenCL platform: the ICD loader found no installed driver "
            "(see /etc/OpenCL/vendors)";
        return result;
    }
    std::vector<cl_platform_id> platforms(platformCount);
    if (err == CL_SUCCESS) err = clGetPlatformIDs(platformCount, platforms.data(), nullptr);
    if (err != CL_SUCCESS) {
        result.message = clErrorMessage("clGetPlatformIDs", err);
        return result;
    }
    std::string skipped;
    for (cl_platform_id platform : platforms) {
        auto name = queryString(clGetPlatformInfo, platform, CL_PLATFORM_NAME,
                                "clGetPlatformInfo(CL_PLATFORM_NAME)");
        auto version = queryString(clGetPlatformInfo, platform, CL_PLATFORM_VERSION,
                                   "clGetPlatformInfo(CL_PLATFORM_VERSION)");
        cl_uint count = 0;
        err = clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 0, nullptr, &count);
        std::vector<cl_device_id> devices(count);
        if (err == CL_SUCCESS && count > 0)
            err = clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, count, devices.data(), nullptr);
        if (err != CL_SUCCESS) {
            skipped += (skipped.empty() ? "" : "; ") + name.value + ": " +
                       clErrorMessage("clGetDeviceIDs", err);
            continue;
        }
        for (cl_device_id d : devices) {
            DeviceInfo info;
            info.backend = "opencl";
            info.index = static_cast<int>(result.devices.size());
            describeDevice(platform, name.value, version.value, d, info);
            result.devices.push_back(std::move(info));
        }
    }
    result.available = !result.devices.empty();
    if (!result.available)
        result.message =
            "OpenCL platforms found but no devices" + (skipped.empty() ? "" : ": " + skipped);
    else
        result.message = skipped;
    return result;
}

}  // namespace tomo::opencl
