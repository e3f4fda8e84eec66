#include "OpenClTestSupport.h"

#include "core/projectors/CpuBackProjectors.h"

namespace tomo::test {

std::string openClTestCacheDirectory() {
    return testCacheDirectory("opencl-test-cache");
}

const OpenClTestSetup& openClSetup() {
    static const OpenClTestSetup setup = [] {
        OpenClTestSetup s;
        s.cacheDirectory = openClTestCacheDirectory();
        registerCpuBackProjectors(s.registry);
        opencl::OpenClRegistrationOptions options;
        options.cacheDirectory = s.cacheDirectory;
        s.report = opencl::registerBackProjectors(s.registry, options);
        return s;
    }();
    return setup;
}

std::vector<BackProjectorInfo> openClVariants() {
    return openClSetup().registry.list("opencl");
}

}  // namespace tomo::test
