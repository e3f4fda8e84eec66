#pragma once
/// @file ClHandle.h
/// @brief Move-only RAII owners of OpenCL objects and the error check that turns a cl_int into a
/// Status. Internal to tomo_gpu_opencl: only gpu/opencl sources (and their tests) include it;
/// core, app and ui never see OpenCL types.
///
/// Ownership: a handle owns exactly one reference of its object (the one returned by the
/// clCreate* call it was built from) and releases it in its destructor. `retain()` makes a second
/// owner. Handles are not thread-safe themselves; the objects they own follow the OpenCL
/// thread-safety rules (all API calls except clSetKernelArg on a shared kernel are thread-safe).

#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#include <string>
#include <utility>

#include "core/base/Status.h"
#include "gpu/opencl/OpenClErrors.h"

namespace tomo::opencl {

/// OK for CL_SUCCESS; otherwise DeviceError "<what> failed: CL_NAME (code)", or OutOfMemory for
/// the allocation failures (CL_MEM_OBJECT_ALLOCATION_FAILURE, CL_OUT_OF_RESOURCES,
/// CL_OUT_OF_HOST_MEMORY, CL_INVALID_BUFFER_SIZE).
inline Status clCheck(cl_int err, const std::string& what) {
    if (err == CL_SUCCESS) return Status::ok();
    const bool memory = err == CL_MEM_OBJECT_ALLOCATION_FAILURE || err == CL_OUT_OF_RESOURCES ||
                        err == CL_OUT_OF_HOST_MEMORY || err == CL_INVALID_BUFFER_SIZE;
    return {memory ? ErrorCode::OutOfMemory : ErrorCode::DeviceError, clErrorMessage(what, err)};
}

/// Retain/release functions per OpenCL object type.
template <class T>
struct ClTraits;
template <>
struct ClTraits<cl_context> {
    static cl_int retain(cl_context h) { return clRetainContext(h); }
    static cl_int release(cl_context h) { return clReleaseContext(h); }
};
template <>
struct ClTraits<cl_command_queue> {
    static cl_int retain(cl_command_queue h) { return clRetainCommandQueue(h); }
    static cl_int release(cl_command_queue h) { return clReleaseCommandQueue(h); }
};
template <>
struct ClTraits<cl_mem> {
    static cl_int retain(cl_mem h) { return clRetainMemObject(h); }
    static cl_int release(cl_mem h) { return clReleaseMemObject(h); }
};
template <>
struct ClTraits<cl_program> {
    static cl_int retain(cl_program h) { return clRetainProgram(h); }
    static cl_int release(cl_program h) { return clReleaseProgram(h); }
};
template <>
struct ClTraits<cl_kernel> {
    static cl_int retain(cl_kernel h) { return clRetainKernel(h); }
    static cl_int release(cl_kernel h) { return clReleaseKernel(h); }
};
template <>
struct ClTraits<cl_event> {
    static cl_int retain(cl_event h) { return clRetainEvent(h); }
    static cl_int release(cl_event h) { return clReleaseEvent(h); }
};

/// @brief Owner of one reference to an OpenCL object (cl_context, cl_command_queue, cl_mem,
/// cl_program, cl_kernel, cl_event). Null when default-constructed or moved from.
template <class T>
class ClHandle {
  public:
    ClHandle() = default;
    /// Takes ownership of @p handle (a reference returned by a clCreate* call).
    explicit ClHandle(T handle) : m_handle(handle) {}
    ClHandle(ClHandle&& o) noexcept : m_handle(std::exchange(o.m_handle, nullptr)) {}
    ClHandle& operator=(ClHandle&& o) noexcept {
        if (this != &o) reset(std::exchange(o.m_handle, nullptr));
        return *this;
    }
    ClHandle(const ClHandle&) = delete;
    ClHandle& operator=(const ClHandle&) = delete;
    ~ClHandle() { reset(); }

    /// A second owner of the same object (clRetain*).
    ClHandle retain() const {
        if (m_handle) ClTraits<T>::retain(m_handle);
        return ClHandle(m_handle);
    }
    /// Releases the held object and takes @p handle.
    void reset(T handle = nullptr) {
        if (m_handle) ClTraits<T>::release(m_handle);
        m_handle = handle;
    }
    T get() const { return m_handle; }
    /// Address for out-parameters (clEnqueue*(..., &event)); releases the held object first.
    T* out() {
        reset();
        return &m_handle;
    }
    explicit operator bool() const { return m_handle != nullptr; }

  private:
    T m_handle = nullptr;
};

using ClContext = ClHandle<cl_context>;
using ClQueue = ClHandle<cl_command_queue>;
using ClMem = ClHandle<cl_mem>;  ///< a buffer or an image
using ClProgram = ClHandle<cl_program>;
using ClKernel = ClHandle<cl_kernel>;
using ClEvent = ClHandle<cl_event>;

/// Sets kernel argument @p index to @p value (a cl_mem, int, float, ...); names the kernel
/// argument in the error.
template <class V>
Status setKernelArg(const ClKernel& kernel, cl_uint index, const V& value) {
    return clCheck(clSetKernelArg(kernel.get(), index, sizeof(V), &value),
                   "clSetKernelArg(" + std::to_string(index) + ")");
}

/// Sets consecutive kernel arguments starting at 0.
template <class... V>
Status setKernelArgs(const ClKernel& kernel, const V&... values) {
    Status status;
    cl_uint index = 0;
    ((status.isOk() ? (status = setKernelArg(kernel, index++, values), 0) : 0), ...);
    return status;
}

/// Local-memory kernel argument of @p bytes (clSetKernelArg with a null pointer).
inline Status setLocalArg(const ClKernel& kernel, cl_uint index, std::size_t bytes) {
    return clCheck(
        clSetKernelArg(kernel.get(), index, bytes, nullptr),
        "clSetKernelArg(" + std::to_string(index) + ", local " + std::to_string(bytes) + " bytes)");
}

/// Waits for @p event (no-op when null); the error names the event's command.
inline Status waitFor(const ClEvent& event, const std::string& what) {
    if (!event) return Status::ok();
    cl_event e = event.get();
    return clCheck(clWaitForEvents(1, &e), "waiting for " + what);
}

}  // namespace tomo::opencl
