// The program cache of ClDeviceContext: in memory per (options, source), on disk as device
// binaries keyed by programCacheKey (see ClDeviceContext.h).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

#include "core/io/AtomicFile.h"
#include "gpu/opencl/internal/ClDeviceContext.h"

namespace tomo::opencl {
namespace {

std::string buildLog(cl_program program, cl_device_id device) {
    std::size_t size = 0;
    if (clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &size) !=
            CL_SUCCESS ||
        size == 0)
        return "(no build log)";
    std::string log(size, '\0');
    if (clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, size, log.data(), nullptr) !=
        CL_SUCCESS)
        return "(no build log)";
    while (!log.empty() && (log.back() == '\0' || log.back() == '\n'))
        log.pop_back();
    return log;
}

}  // namespace

std::string programCacheKey(std::string_view deviceName, std::string_view driver,
                            std::string_view options, std::string_view source) {
    std::uint64_t h = 14695981039346656037ull;
    auto mix = [&](std::string_view s) {
        for (unsigned char c : s) {
            h ^= c;
            h *= 1099511628211ull;
        }
        h *= 1099511628211ull;  // the zero separator byte (h ^= 0 is a no-op)
    };
    mix(deviceName);
    mix(driver);
    mix(options);
    mix(source);
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(h));
    return hex;
}

std::string defaultProgramCacheDirectory() {
    if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg)
        return std::string(xdg) + "/tomostation/opencl";
    if (const char* home = std::getenv("HOME"); home && *home)
        return std::string(home) + "/.cache/tomostation/opencl";
    return {};
}

Result<ClProgram> ClDeviceContext::program(std::string_view name, std::string_view source,
                                           const std::string& options) {
    std::string memoryKey = options;
    memoryKey.push_back('\0');
    memoryKey.append(source);
    {
        std::lock_guard lock(m_mutex);
        if (auto it = m_programs.find(memoryKey); it != m_programs.end()) {
            ++m_stats.memoryHits;
            return it->second.retain();
        }
    }
    // Built outside the lock: two threads may build the same program once each; the second
    // insertion is dropped.
    const bool disk = m_options.diskCache && !m_cacheDir.empty();
    const std::string path =
        disk ? m_cacheDir + "/" + programCacheKey(m_traits.name, m_traits.driver, options, source) +
                   ".bin"
             : std::string();
    ClProgram built;
    bool fromDisk = false;
    if (disk) {
        if (auto loaded = loadBinary(path, options); loaded.isOk()) {
            built = std::move(loaded).value();
            fromDisk = true;
        }
    }
    if (!built) {
        TOMO_ASSIGN_OR_RETURN(built, buildFromSource(name, source, options));
        if (disk) storeBinary(built, path);
    }
    std::lock_guard lock(m_mutex);
    ++(fromDisk ? m_stats.diskHits : m_stats.builds);
    auto [it, inserted] = m_programs.emplace(std::move(memoryKey), std::move(built));
    return it->second.retain();
}

Result<ClProgram> ClDeviceContext::buildFromSource(std::string_view name, std::string_view source,
                                                   const std::string& options) {
    const char* text = source.data();
    const std::size_t length = source.size();
    cl_int err = CL_SUCCESS;
    ClProgram program(clCreateProgramWithSource(m_context.get(), 1, &text, &length, &err));
    TOMO_RETURN_IF_ERROR(clCheck(err, "clCreateProgramWithSource(" + std::string(name) + ")"));
    err = clBuildProgram(program.get(), 1, &m_device, options.c_str(), nullptr, nullptr);
    if (err != CL_SUCCESS)
        return deviceError(
            clErrorMessage("clBuildProgram(" + std::string(name) + ", options '" + options + "')",
                           err) +
            "; build log:\n" + buildLog(program.get(), m_device));
    return program;
}

Result<ClProgram> ClDeviceContext::loadBinary(const std::string& path, const std::string& options) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return notFound(path);
    std::vector<unsigned char> bytes((std::istreambuf_iterator<char>(in)),
                                     std::istreambuf_iterator<char>());
    if (bytes.empty()) return invalidData(path + ": empty");
    const unsigned char* data = bytes.data();
    const std::size_t size = bytes.size();
    cl_int status = CL_SUCCESS, err = CL_SUCCESS;
    ClProgram program(
        clCreateProgramWithBinary(m_context.get(), 1, &m_device, &size, &data, &status, &err));
    if (err == CL_SUCCESS) err = status;
    TOMO_RETURN_IF_ERROR(clCheck(err, "clCreateProgramWithBinary(" + path + ")"));
    TOMO_RETURN_IF_ERROR(
        clCheck(clBuildProgram(program.get(), 1, &m_device, options.c_str(), nullptr, nullptr),
                "clBuildProgram(" + path + ")"));
    return program;
}

void ClDeviceContext::storeBinary(const ClProgram& program, const std::string& path) const {
    // Best effort: a cache that cannot be written only costs the next run a build.
    std::size_t size = 0;
    if (clGetProgramInfo(program.get(), CL_PROGRAM_BINARY_SIZES, sizeof size, &size, nullptr) !=
            CL_SUCCESS ||
        size == 0)
        return;
    std::vector<unsigned char> bytes(size);
    unsigned char* data = bytes.data();
    if (clGetProgramInfo(program.get(), CL_PROGRAM_BINARIES, sizeof data, &data, nullptr) !=
        CL_SUCCESS)
        return;
    std::error_code ec;
    std::filesystem::create_directories(m_cacheDir, ec);
    if (ec) return;
    auto file = AtomicFile::create(path);
    if (!file.isOk()) return;
    if (file->write(bytes.data(), bytes.size()).isOk()) (void)file->commit();
}

}  // namespace tomo::opencl
