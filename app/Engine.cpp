// The devices of a process, owned once (Engine.h).
#include "app/Engine.h"

#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include <mutex>

#include "app/Backends.h"

namespace tomo::app {

namespace {

/// Large blocks (images, sinograms, solver vectors: 256 KiB and more) are mapped pages that go
/// back to the system when freed. glibc's default raises its mmap threshold to the size of each
/// mapped block freed (up to 32 MiB), after which such blocks come from the malloc arena of the
/// thread that allocates them; a GUI session's worker thread then grew its arena by about a
/// megabyte every few CGLS runs around small blocks that outlive the job (issue 29: +7% over
/// 100 runs, scripts/soak). A fixed threshold turns that adjustment off. Process-wide and
/// idempotent: set once, by the first Engine (every command and GUI session makes one).
void keepLargeBlocksMapped() {
    static std::once_flag once;
    std::call_once(once, [] {
#if defined(__GLIBC__)
        mallopt(M_MMAP_THRESHOLD, 256 * 1024);
#endif
    });
}

}  // namespace

Engine::Engine()
    : m_devices((keepLargeBlocksMapped(), registerBackends(m_registry))),
      m_mbirCache(std::make_unique<MbirMatrixCache>(defaultMbirCacheDirectory())) {
    registerConeBackends(m_coneRegistry, *m_devices);
    registerFourierBackends(m_fourier, *m_devices);
}

Engine::~Engine() = default;

std::string Engine::autoBackend() const {
    return app::autoBackend(m_registry);
}

std::string Engine::defaultVariant(const std::string& backend, Interpolation interpolation,
                                   const JobShape& shape) const {
    return app::defaultVariant(m_registry, backend, interpolation, shape);
}

decltype(IterativeRequest::makeOperator) Engine::operatorFactory(const std::string& backend) const {
    return iterativeOperatorFactory(backend, m_devices);
}

IcdDeviceFactory Engine::icdDeviceFactory(const std::string& backend) const {
    return app::icdDeviceFactory(backend, m_devices);
}

std::shared_ptr<RowFilterStage> Engine::rowFilter(const std::string& backend) const {
    return rowFilterStage(backend, *m_devices);
}

std::vector<OpenDevice> Engine::openDevices() const {
    return app::openDevices(*m_devices);
}

}  // namespace tomo::app
