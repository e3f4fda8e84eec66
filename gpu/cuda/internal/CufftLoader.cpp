// cuFFT opened with dlopen (CufftLoader.h). TOMO_CUDA_TOOLKIT_LIBDIR and
// TOMO_CUDA_TOOLKIT_VERSION ("13.0") come from gpu/cuda/CMakeLists.txt.
#include "gpu/cuda/internal/CufftLoader.h"

#include "gpu/cuda/CufftAvailability.h"

#include <dlfcn.h>

#include <cstdlib>
#include <utility>

namespace tomo::cuda {
namespace {

#ifndef TOMO_CUDA_TOOLKIT_LIBDIR
#define TOMO_CUDA_TOOLKIT_LIBDIR ""
#endif
#ifndef TOMO_CUDA_TOOLKIT_VERSION
#define TOMO_CUDA_TOOLKIT_VERSION ""
#endif

/// dlsym into @p slot; false when the symbol is missing.
template <typename Fn>
bool resolve(void* handle, const char* name, Fn& slot) {
    slot = reinterpret_cast<Fn>(dlsym(handle, name));
    return slot != nullptr;
}

/// NVIDIA's apt package of the toolkit's cuFFT ("e.g. NVIDIA's libcufft-13-0 package").
std::string toolkitPackage() {
    std::string v = TOMO_CUDA_TOOLKIT_VERSION;
    if (v.empty()) return "libcufft";
    for (char& c : v)
        if (c == '.') c = '-';
    return "e.g. NVIDIA's libcufft-" + v + " package";
}

}  // namespace

void CufftLibrary::Closer::operator()(void* handle) const {
    if (handle) dlclose(handle);
}

std::string CufftLibrary::expectedName() {
    return "libcufft.so." + std::to_string(CUFFT_VER_MAJOR);
}

std::vector<std::string> CufftLibrary::defaultCandidates() {
    if (const char* env = std::getenv("TOMO_CUFFT_LIBRARY"); env && *env) return {env};
    const std::string name = expectedName();
    std::vector<std::string> out{name};
    const std::string buildDir = TOMO_CUDA_TOOLKIT_LIBDIR;
    const std::string version = TOMO_CUDA_TOOLKIT_VERSION;
    if (!buildDir.empty()) out.push_back(buildDir + "/" + name);
    out.push_back("/usr/local/cuda/lib64/" + name);
    if (!version.empty()) out.push_back("/usr/local/cuda-" + version + "/lib64/" + name);
    out.push_back("libcufft.so");
    return out;
}

Result<CufftLibrary> CufftLibrary::open(const std::vector<std::string>& candidates) {
    std::string attempts;
    for (const std::string& candidate : candidates) {
        // RTLD_LOCAL: cuFFT's symbols stay out of the global namespace, so they can never
        // interpose on the shim's entry points of the same names (and vice versa).
        // RTLD_NODELETE: dlclose drops the reference but leaves the code mapped, so that cuFFT's
        // own exit-time teardown never runs code that the process-wide handle unloaded.
        void* raw = dlopen(candidate.c_str(), RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
        if (!raw) {
            const char* why = dlerror();
            attempts += (attempts.empty() ? "" : "; ") + std::string(why ? why : candidate);
            continue;
        }
        CufftLibrary lib;
        lib.m_handle.reset(raw);
        lib.m_source = candidate;
        Api& a = lib.m_api;
        const char* missing = nullptr;
        if (!resolve(raw, "cufftPlanMany", a.planMany))
            missing = "cufftPlanMany";
        else if (!resolve(raw, "cufftExecR2C", a.execR2C))
            missing = "cufftExecR2C";
        else if (!resolve(raw, "cufftExecC2R", a.execC2R))
            missing = "cufftExecC2R";
        else if (!resolve(raw, "cufftExecC2C", a.execC2C))
            missing = "cufftExecC2C";
        else if (!resolve(raw, "cufftSetStream", a.setStream))
            missing = "cufftSetStream";
        else if (!resolve(raw, "cufftDestroy", a.destroy))
            missing = "cufftDestroy";
        else if (!resolve(raw, "cufftGetVersion", a.getVersion))
            missing = "cufftGetVersion";
        if (missing)
            return Status(ErrorCode::Unsupported,
                          candidate + " is not a usable cuFFT: it has no " + missing);
        return lib;
    }
    return notFound("cuFFT (" + expectedName() + ") not found: " +
                    (attempts.empty() ? std::string("no candidate to try") : attempts));
}

const Result<CufftLibrary>& processCufft() {
    // The one process-wide library handle: cuFFT plans created through it may live in any
    // device context until exit, so the handle must outlive all of them. A function-local
    // static is initialised exactly once and thread-safely by the language, and it is never
    // modified afterwards (no mutable global state); its dlclose at exit leaves the code mapped.
    static const Result<CufftLibrary> library = []() -> Result<CufftLibrary> {
        Result<CufftLibrary> lib = CufftLibrary::open(CufftLibrary::defaultCandidates());
        if (lib.isOk()) return lib;
        return Status(lib.status().code(),
                      lib.status().message() + "; install cuFFT from the CUDA toolkit (" +
                          toolkitPackage() + ") or set TOMO_CUFFT_LIBRARY; FBP filters on the CPU");
    }();
    return library;
}

Status cufftAvailability() {
    return processCufft().status();
}

}  // namespace tomo::cuda
