// The devices of a process, owned once (Engine.h).
#include "app/Engine.h"

#include "app/Backends.h"

namespace tomo::app {

Engine::Engine()
    : m_devices(registerBackends(m_registry)),
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
