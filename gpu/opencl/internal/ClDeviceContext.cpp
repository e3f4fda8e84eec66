// ClDeviceContext: device selection, traits, allocation helpers (see ClDeviceContext.h). The
// program cache is in ClProgramCache.cpp.
#include "gpu/opencl/internal/ClDeviceContext.h"

#include <algorithm>
#include <vector>

#include "core/pipeline/DeviceMemory.h"

namespace tomo::opencl {
namespace {

constexpr cl_int kPlatformNotFoundKhr = -1001;

std::string deviceString(cl_device_id d, cl_device_info param) {
    std::size_t size = 0;
    if (clGetDeviceInfo(d, param, 0, nullptr, &size) != CL_SUCCESS || size == 0) return {};
    std::string s(size, '\0');
    if (clGetDeviceInfo(d, param, size, s.data(), nullptr) != CL_SUCCESS) return {};
    s.resize(s.find('\0') == std::string::npos ? s.size() : s.find('\0'));
    return s;
}

template <class T>
T deviceValue(cl_device_id d, cl_device_info param) {
    T value{};
    if (clGetDeviceInfo(d, param, sizeof(T), &value, nullptr) != CL_SUCCESS) return T{};
    return value;
}

std::string platformName(cl_platform_id p) {
    std::size_t size = 0;
    if (clGetPlatformInfo(p, CL_PLATFORM_NAME, 0, nullptr, &size) != CL_SUCCESS) return {};
    std::string s(size, '\0');
    if (clGetPlatformInfo(p, CL_PLATFORM_NAME, size, s.data(), nullptr) != CL_SUCCESS) return {};
    s.resize(s.find('\0') == std::string::npos ? s.size() : s.find('\0'));
    return s;
}

struct FlatDevice {
    cl_platform_id platform;
    cl_device_id device;
    cl_device_type type;
};

Result<std::vector<FlatDevice>> listDevices() {
    cl_uint platformCount = 0;
    cl_int err = clGetPlatformIDs(0, nullptr, &platformCount);
    if (err == kPlatformNotFoundKhr || (err == CL_SUCCESS && platformCount == 0))
        return notFound(
            "no OpenCL platform: the ICD loader found no installed driver (see "
            "/etc/OpenCL/vendors)");
    std::vector<cl_platform_id> platforms(platformCount);
    TOMO_RETURN_IF_ERROR(
        clCheck(clGetPlatformIDs(platformCount, platforms.data(), nullptr), "clGetPlatformIDs"));
    std::vector<FlatDevice> all;
    for (cl_platform_id p : platforms) {
        cl_uint count = 0;
        if (clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 0, nullptr, &count) != CL_SUCCESS) continue;
        std::vector<cl_device_id> devices(count);
        if (count == 0 ||
            clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, count, devices.data(), nullptr) != CL_SUCCESS)
            continue;
        for (cl_device_id d : devices)
            all.push_back({p, d, deviceValue<cl_device_type>(d, CL_DEVICE_TYPE)});
    }
    if (all.empty()) return notFound("no OpenCL device: the platforms report no devices");
    return all;
}

}  // namespace

bool ClDeviceTraits::hasExtension(std::string_view ext) const {
    std::size_t pos = 0;
    while ((pos = extensions.find(ext, pos)) != std::string::npos) {
        const std::size_t end = pos + ext.size();
        if ((pos == 0 || extensions[pos - 1] == ' ') &&
            (end == extensions.size() || extensions[end] == ' '))
            return true;
        pos = end;
    }
    return false;
}

bool ClDeviceTraits::supportsImageFormat(cl_channel_order order, cl_channel_type type) const {
    return imageSupport &&
           std::any_of(imageFormats.begin(), imageFormats.end(), [&](const cl_image_format& f) {
               return f.image_channel_order == order && f.image_channel_data_type == type;
           });
}

Result<std::shared_ptr<ClDeviceContext>> ClDeviceContext::open(int index, ClDeviceOptions options) {
    TOMO_ASSIGN_OR_RETURN(std::vector<FlatDevice> devices, listDevices());
    if (index < 0) {
        auto gpu = std::find_if(devices.begin(), devices.end(), [](const FlatDevice& d) {
            return (d.type & CL_DEVICE_TYPE_GPU) != 0;
        });
        index = gpu == devices.end() ? 0 : static_cast<int>(gpu - devices.begin());
    }
    if (index >= static_cast<int>(devices.size()))
        return notFound("OpenCL device " + std::to_string(index) + " does not exist (" +
                        std::to_string(devices.size()) + " devices)");
    const FlatDevice& flat = devices[static_cast<std::size_t>(index)];

    std::shared_ptr<ClDeviceContext> ctx(new ClDeviceContext());
    ctx->m_index = index;
    ctx->m_platform = flat.platform;
    ctx->m_device = flat.device;
    ctx->m_options = std::move(options);
    ClDeviceTraits& t = ctx->m_traits;
    cl_device_id d = flat.device;
    t.name = deviceString(d, CL_DEVICE_NAME);
    t.vendor = deviceString(d, CL_DEVICE_VENDOR);
    t.driver = deviceString(d, CL_DRIVER_VERSION);
    t.platformName = platformName(flat.platform);
    t.openclC = deviceString(d, CL_DEVICE_OPENCL_C_VERSION);
    t.extensions = deviceString(d, CL_DEVICE_EXTENSIONS);
    t.isGpu = (flat.type & CL_DEVICE_TYPE_GPU) != 0;
    t.isCpu = (flat.type & CL_DEVICE_TYPE_CPU) != 0;
    t.computeUnits = static_cast<int>(deviceValue<cl_uint>(d, CL_DEVICE_MAX_COMPUTE_UNITS));
    t.globalMemBytes = deviceValue<cl_ulong>(d, CL_DEVICE_GLOBAL_MEM_SIZE);
    t.maxAllocBytes = deviceValue<cl_ulong>(d, CL_DEVICE_MAX_MEM_ALLOC_SIZE);
    t.localMemBytes = deviceValue<cl_ulong>(d, CL_DEVICE_LOCAL_MEM_SIZE);
    t.constantBufferBytes = deviceValue<cl_ulong>(d, CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE);
    t.maxWorkGroupSize = deviceValue<std::size_t>(d, CL_DEVICE_MAX_WORK_GROUP_SIZE);
    t.imageSupport = deviceValue<cl_bool>(d, CL_DEVICE_IMAGE_SUPPORT) == CL_TRUE;
    t.image2dMaxWidth = deviceValue<std::size_t>(d, CL_DEVICE_IMAGE2D_MAX_WIDTH);
    t.image2dMaxHeight = deviceValue<std::size_t>(d, CL_DEVICE_IMAGE2D_MAX_HEIGHT);

    const cl_context_properties props[] = {
        CL_CONTEXT_PLATFORM, reinterpret_cast<cl_context_properties>(flat.platform), 0};
    cl_int err = CL_SUCCESS;
    ctx->m_context = ClContext(clCreateContext(props, 1, &d, nullptr, nullptr, &err));
    TOMO_RETURN_IF_ERROR(clCheck(err, "clCreateContext(" + t.name + ")"));
    for (ClQueue& q : ctx->m_queues) {
        q = ClQueue(clCreateCommandQueue(ctx->m_context.get(), d, CL_QUEUE_PROFILING_ENABLE, &err));
        TOMO_RETURN_IF_ERROR(clCheck(err, "clCreateCommandQueue(" + t.name + ")"));
    }
    if (t.imageSupport) {
        cl_uint count = 0;
        err = clGetSupportedImageFormats(ctx->m_context.get(), CL_MEM_READ_ONLY,
                                         CL_MEM_OBJECT_IMAGE2D, 0, nullptr, &count);
        t.imageFormats.resize(count);
        if (err == CL_SUCCESS && count > 0)
            err = clGetSupportedImageFormats(ctx->m_context.get(), CL_MEM_READ_ONLY,
                                             CL_MEM_OBJECT_IMAGE2D, count, t.imageFormats.data(),
                                             nullptr);
        TOMO_RETURN_IF_ERROR(clCheck(err, "clGetSupportedImageFormats(" + t.name + ")"));
    }
    ctx->m_cacheDir = ctx->m_options.cacheDirectory.empty() ? defaultProgramCacheDirectory()
                                                            : ctx->m_options.cacheDirectory;
    return ctx;
}

ClDeviceContext::~ClDeviceContext() {
    for (ClQueue& q : m_queues)
        if (q) clFinish(q.get());
    releaseScratch();
}

Result<cl_mem> ClDeviceContext::scratchBuffer(const std::string& key, std::size_t bytes) {
    ClMem& b = m_scratch[key];
    std::size_t& have = m_scratchBytes[key];
    if (!b || have < bytes) {
        b = ClMem();  // free first: the old and the new one need not fit together
        m_scratchHeld -= have;
        have = 0;
        TOMO_ASSIGN_OR_RETURN(
            b, createBuffer(CL_MEM_READ_WRITE, std::max<std::size_t>(bytes, 4), key));
        have = std::max<std::size_t>(bytes, 4);
        m_scratchHeld += have;
        ++m_scratchAllocations;
    }
    return b.get();
}

Result<void*> ClDeviceContext::pinnedScratch(const std::string& key, std::size_t bytes) {
    Pinned& p = m_pinned[key];
    if (!p.buffer || p.bytes < bytes) {
        if (p.host) clEnqueueUnmapMemObject(queue(0), p.buffer.get(), p.host, 0, nullptr, nullptr);
        clFinish(queue(0));
        p = Pinned();
        const std::size_t size = std::max<std::size_t>(bytes, 4);
        TOMO_ASSIGN_OR_RETURN(p.buffer,
                              createBuffer(CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, size, key));
        cl_int err = CL_SUCCESS;
        p.host = clEnqueueMapBuffer(queue(0), p.buffer.get(), CL_TRUE, CL_MAP_READ | CL_MAP_WRITE,
                                    0, size, 0, nullptr, nullptr, &err);
        TOMO_RETURN_IF_ERROR(clCheck(err, "clEnqueueMapBuffer(" + key + ")"));
        p.bytes = size;
        ++m_scratchAllocations;
    }
    return p.host;
}

cl_mem ClDeviceContext::pinnedBufferOf(const void* host) const {
    for (const auto& [key, p] : m_pinned)
        if (p.host == host) return p.buffer.get();
    return nullptr;
}

void ClDeviceContext::releaseScratch() {
    for (auto& [key, p] : m_pinned)
        if (p.host) clEnqueueUnmapMemObject(queue(0), p.buffer.get(), p.host, 0, nullptr, nullptr);
    if (m_queues[0]) clFinish(queue(0));
    m_pinned.clear();
    m_scratch.clear();
    m_scratchBytes.clear();
    m_scratchHeld = 0;
    m_icdLayout.forget();
}

namespace {

/// What a device buffer's destructor callback gives back to the context's count.
struct HeldBytes {
    std::shared_ptr<std::atomic<std::size_t>> counter;
    std::size_t bytes = 0;
};

void CL_CALLBACK releasedBytes(cl_mem, void* data) {
    auto* held = static_cast<HeldBytes*>(data);
    held->counter->fetch_sub(held->bytes);
    delete held;
}

}  // namespace

void ClDeviceContext::countHeld(cl_mem mem, std::size_t bytes) {
    auto* held = new HeldBytes{m_held, bytes};
    m_held->fetch_add(bytes);
    if (clSetMemObjectDestructorCallback(mem, releasedBytes, held) != CL_SUCCESS) {
        m_held->fetch_sub(bytes);  // not counted: the driver will not tell when it goes
        delete held;
    }
}

DeviceMemoryInfo ClDeviceContext::memoryInfo() const {
    const std::size_t held = m_held->load(), scratch = m_scratchHeld.load();
    const std::size_t other =
        std::min(held > scratch ? held - scratch : 0, m_traits.globalMemBytes);
    DeviceMemoryInfo m;
    m.total = m_traits.globalMemBytes;
    m.free = m.total - other;
    m.maxAllocation = m_traits.maxAllocBytes;
    m.sharesHostMemory = m_traits.isCpu;
    return m;
}

std::size_t ClDeviceContext::memoryBudget() const {
    return deviceMemoryBudget(memoryInfo());
}

Result<ClMem> ClDeviceContext::createBuffer(cl_mem_flags flags, std::size_t bytes,
                                            const std::string& what) {
    if (bytes == 0) return invalidArgument(what + ": zero-sized buffer");
    if (bytes > m_traits.maxAllocBytes)
        return outOfMemory(what + ": " + std::to_string(bytes >> 20) + " MiB exceeds the largest " +
                           "allocation of " + m_traits.name + " (" +
                           std::to_string(m_traits.maxAllocBytes >> 20) + " MiB)");
    cl_int err = CL_SUCCESS;
    ClMem mem(clCreateBuffer(m_context.get(), flags, bytes, nullptr, &err));
    TOMO_RETURN_IF_ERROR(
        clCheck(err, "clCreateBuffer(" + what + ", " + std::to_string(bytes >> 10) + " KiB)"));
    if (!(flags & CL_MEM_ALLOC_HOST_PTR)) countHeld(mem.get(), bytes);  // pinned: host memory
    return mem;
}

Result<ClMem> ClDeviceContext::createImage2d(cl_channel_order order, cl_channel_type type,
                                             std::size_t width, std::size_t height,
                                             const std::string& what) {
    if (!m_traits.supportsImageFormat(order, type))
        return unsupported(what + ": " + m_traits.name + " offers no such 2-D image format");
    if (width == 0 || height == 0 || width > m_traits.image2dMaxWidth ||
        height > m_traits.image2dMaxHeight)
        return invalidArgument(what + ": image " + std::to_string(width) + "x" +
                               std::to_string(height) + " outside the device limit " +
                               std::to_string(m_traits.image2dMaxWidth) + "x" +
                               std::to_string(m_traits.image2dMaxHeight));
    const cl_image_format format{order, type};
    cl_int err = CL_SUCCESS;
    cl_image_desc desc{};
    desc.image_type = CL_MEM_OBJECT_IMAGE2D;
    desc.image_width = width;
    desc.image_height = height;
    ClMem mem(clCreateImage(m_context.get(), CL_MEM_READ_ONLY, &format, &desc, nullptr, &err));
    TOMO_RETURN_IF_ERROR(clCheck(err, "clCreateImage(" + what + ", " + std::to_string(width) + "x" +
                                          std::to_string(height) + ")"));
    countHeld(mem.get(), width * height * sizeof(float));  // one channel of up to 4 bytes
    return mem;
}

Result<ClKernel> ClDeviceContext::kernel(const ClProgram& program, const std::string& kernelName) {
    cl_int err = CL_SUCCESS;
    ClKernel k(clCreateKernel(program.get(), kernelName.c_str(), &err));
    TOMO_RETURN_IF_ERROR(clCheck(err, "clCreateKernel(" + kernelName + ")"));
    return k;
}

ClProgramStats ClDeviceContext::programStats() const {
    std::lock_guard lock(m_mutex);
    return m_stats;
}

}  // namespace tomo::opencl
