#pragma once
/// @file ClDeviceContext.h
/// @brief Everything one OpenCL device needs for a job: context, two in-order queues, the
/// device's traits and memory budget, and the program cache (built once per option set in
/// memory, and as binaries on disk). Internal to tomo_gpu_opencl (see ClHandle.h).
///
/// Queue rules (STYLE.md #7; core/pipeline/DeviceQueues.h's roles): queue(0) carries uploads
/// (host to device), queue(1) kernels, queue(2) downloads (device to host). All are in-order
/// and profiled (the timeline's device spans); work that crosses queues waits on events (a
/// wait list, or a barrier with a wait list), never on queue order.
/// Scratch: device buffers and pinned host buffers (CL_MEM_ALLOC_HOST_PTR, mapped once) kept
/// by key and grown on demand, as CudaDeviceContext's, under lockScratch() for a job's run
/// (ClQueues.h: core's queue operations on this context).
/// Callers that share one ClDeviceContext between jobs must use their own buffers and events;
/// the context, the queues and the program cache are safe to share between threads.
///
/// Program cache: program(name, source, options) returns a built program. In memory it is keyed
/// by (options, source); on disk by an FNV-1a 64-bit hash of device name, driver version, options
/// and source, as `<hash>.bin` under the cache directory (ClDeviceOptions::cacheDirectory, else
/// $XDG_CACHE_HOME/tomostation/opencl, else ~/.cache/tomostation/opencl). A binary that fails to
/// load or build is ignored and replaced by a build from source. A failing build returns
/// DeviceError with the build log in the message. Kernel sources and their -D options are
/// described in gpu/opencl/README.md.

#include <atomic>
#include <cstddef>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/base/Status.h"
#include "core/mbir/GpuIcd.h"
#include "core/pipeline/DeviceMemory.h"
#include "core/pipeline/PlanCache.h"
#include "gpu/opencl/internal/ClHandle.h"

namespace tomo::opencl {

/// Properties of a device used to choose and size kernels.
struct ClDeviceTraits {
    std::string name;
    std::string vendor;
    std::string driver;        ///< CL_DRIVER_VERSION
    std::string platformName;  ///< CL_PLATFORM_NAME
    std::string openclC;       ///< CL_DEVICE_OPENCL_C_VERSION ("OpenCL C 1.2 ...")
    std::string extensions;    ///< space-separated CL_DEVICE_EXTENSIONS
    bool isGpu = false;
    bool isCpu = false;
    int computeUnits = 0;
    std::size_t globalMemBytes = 0;
    std::size_t maxAllocBytes = 0;        ///< CL_DEVICE_MAX_MEM_ALLOC_SIZE
    std::size_t localMemBytes = 0;        ///< per work-group
    std::size_t constantBufferBytes = 0;  ///< CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE
    std::size_t maxWorkGroupSize = 0;
    bool imageSupport = false;
    std::size_t image2dMaxWidth = 0;
    std::size_t image2dMaxHeight = 0;
    /// Read-only 2-D image formats of the context (clGetSupportedImageFormats).
    std::vector<cl_image_format> imageFormats;

    bool hasExtension(std::string_view ext) const;
    bool supportsImageFormat(cl_channel_order order, cl_channel_type type) const;
    bool fp16() const { return hasExtension("cl_khr_fp16"); }
};

struct ClDeviceOptions {
    /// Directory of the on-disk program cache; empty = $XDG_CACHE_HOME/tomostation/opencl or
    /// ~/.cache/tomostation/opencl.
    std::string cacheDirectory;
    bool diskCache = true;  ///< false: build from source every time (still cached in memory)
};

/// Counters of the program cache (for tests and `tomo devices --explain`).
struct ClProgramStats {
    int memoryHits = 0;
    int diskHits = 0;
    int builds = 0;
};

/// @brief One OpenCL device opened for work. Create with open(); not copyable or movable (it is
/// shared through std::shared_ptr by the back-projectors of a registry).
class ClDeviceContext {
  public:
    /// Opens device @p index, counted flat over platforms in loader order (the order of
    /// discoverDevices()); -1 picks the first GPU, else the first device.
    /// NotFound "no OpenCL platform: ..." when the ICD loader has none, NotFound for a bad index,
    /// DeviceError naming the failing call otherwise.
    static Result<std::shared_ptr<ClDeviceContext>> open(int index = -1,
                                                         ClDeviceOptions options = {});

    ClDeviceContext(const ClDeviceContext&) = delete;
    ClDeviceContext& operator=(const ClDeviceContext&) = delete;
    ~ClDeviceContext();

    const ClDeviceTraits& traits() const { return m_traits; }
    int index() const { return m_index; }
    cl_device_id device() const { return m_device; }
    cl_context context() const { return m_context.get(); }
    static constexpr int kQueues = 3;
    /// queue(0): uploads; queue(1): kernels; queue(2): downloads. In-order, profiled.
    cl_command_queue queue(int i) const { return m_queues[i % kQueues].get(); }

    /// Held by a job for its whole run (the scratch accessors below require it).
    [[nodiscard]] std::unique_lock<std::mutex> lockScratch() {
        return std::unique_lock(m_scratchMutex);
    }
    /// The device buffer @p key with at least @p bytes, kept until releaseScratch().
    Result<cl_mem> scratchBuffer(const std::string& key, std::size_t bytes);
    /// The page-locked host buffer @p key (CL_MEM_ALLOC_HOST_PTR, mapped): its host pointer.
    Result<void*> pinnedScratch(const std::string& key, std::size_t bytes);
    /// The buffer behind pinnedScratch()'s pointer @p host (for transfers), or null.
    cl_mem pinnedBufferOf(const void* host) const;
    void releaseScratch();
    /// The GPU-ICD layout whose buffers the scratch holds (lockScratch() held): kept between
    /// solves, so the slices of a stack upload their layout once (OpenClIcdDevice).
    IcdResidentLayout& icdLayout() { return m_icdLayout; }
    /// Allocations made by the scratch accessors so far (tests of reuse).
    std::size_t scratchAllocations() const { return m_scratchAllocations; }
    /// An object (an FFT application) kept under @p key and made by @p make (returning
    /// Result<std::shared_ptr<T>>) on the first call, among the kCached used last (their shapes
    /// follow the chunks, so a session's are many; core/pipeline/PlanCache.h); the caller holds
    /// its own reference while it uses it (lockScratch() held).
    static constexpr std::size_t kCached = 4;
    template <class T, class Make>
    Result<std::shared_ptr<T>> cached(const std::string& key, Make&& make) {
        TOMO_ASSIGN_OR_RETURN(std::shared_ptr<void> kept,
                              m_cached.get(key, [&]() -> Result<std::shared_ptr<void>> {
                                  Result<std::shared_ptr<T>> made = make();
                                  if (!made.isOk()) return made.status();
                                  return std::static_pointer_cast<void>(*made);
                              }));
        return std::static_pointer_cast<T>(kept);
    }
    /// Objects kept now (tests of the bound).
    std::size_t cachedCount() const { return m_cached.size(); }
    /// Objects made by cached() so far (a call that finds its key makes none).
    std::size_t cachedMade() const { return m_cached.made(); }

    /// The device's memory as core's budget policy reads it (core/pipeline/DeviceMemory.h):
    /// CL_DEVICE_GLOBAL_MEM_SIZE less the buffers and images this context holds outside the
    /// runs' scratch (counted at creation, given back by their destructor callbacks), and
    /// CL_DEVICE_MAX_MEM_ALLOC_SIZE per buffer.
    DeviceMemoryInfo memoryInfo() const;
    /// Bytes one job may allocate on the device in total: deviceMemoryBudget(memoryInfo()).
    std::size_t memoryBudget() const;
    /// The largest single allocation (CL_DEVICE_MAX_MEM_ALLOC_SIZE).
    std::size_t maxAllocation() const { return m_traits.maxAllocBytes; }

    /// A buffer of @p bytes; OutOfMemory naming @p what and the sizes when it exceeds the max
    /// allocation or the device refuses it.
    Result<ClMem> createBuffer(cl_mem_flags flags, std::size_t bytes, const std::string& what);
    /// A width x height 2-D image of one channel order/type; Unsupported when the format is not
    /// offered, InvalidArgument when the size exceeds the device's image limits.
    Result<ClMem> createImage2d(cl_channel_order order, cl_channel_type type, std::size_t width,
                                std::size_t height, const std::string& what);

    /// The built program for (@p source, @p options) (see the file comment); @p name labels
    /// messages ("texture.cl").
    Result<ClProgram> program(std::string_view name, std::string_view source,
                              const std::string& options);
    /// A new kernel object (one per user: clSetKernelArg is not thread-safe on a shared kernel).
    Result<ClKernel> kernel(const ClProgram& program, const std::string& kernelName);

    const std::string& cacheDirectory() const { return m_cacheDir; }
    ClProgramStats programStats() const;

  private:
    ClDeviceContext() = default;
    Result<ClProgram> buildFromSource(std::string_view name, std::string_view source,
                                      const std::string& options);
    Result<ClProgram> loadBinary(const std::string& path, const std::string& options);
    void storeBinary(const ClProgram& program, const std::string& path) const;
    void countHeld(cl_mem mem, std::size_t bytes);

    int m_index = -1;
    cl_platform_id m_platform = nullptr;
    cl_device_id m_device = nullptr;
    ClContext m_context;
    ClQueue m_queues[kQueues];
    struct Pinned {
        ClMem buffer;
        void* host = nullptr;
        std::size_t bytes = 0;
    };
    std::mutex m_scratchMutex;
    std::map<std::string, ClMem> m_scratch;
    std::map<std::string, std::size_t> m_scratchBytes;
    std::map<std::string, Pinned> m_pinned;
    std::size_t m_scratchAllocations = 0;
    IcdResidentLayout m_icdLayout;
    /// Device bytes of this context's live buffers and images, and of its scratch among them.
    std::shared_ptr<std::atomic<std::size_t>> m_held =
        std::make_shared<std::atomic<std::size_t>>(0);
    std::atomic<std::size_t> m_scratchHeld{0};
    PlanCache<std::string, void> m_cached{kCached};  // released before the context
    ClDeviceTraits m_traits;
    ClDeviceOptions m_options;
    std::string m_cacheDir;

    mutable std::mutex m_mutex;  ///< guards m_programs and m_stats
    std::unordered_map<std::string, ClProgram> m_programs;
    ClProgramStats m_stats;
};

/// FNV-1a 64-bit hash of the strings, separated by a zero byte, as 16 hex digits: the key of
/// the on-disk program cache.
std::string programCacheKey(std::string_view deviceName, std::string_view driver,
                            std::string_view options, std::string_view source);

/// The default cache directory: $XDG_CACHE_HOME/tomostation/opencl, else
/// $HOME/.cache/tomostation/opencl, else empty (no disk cache).
std::string defaultProgramCacheDirectory();

}  // namespace tomo::opencl
