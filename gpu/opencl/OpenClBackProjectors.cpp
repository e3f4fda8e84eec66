// Registration of the OpenCL variants (see OpenClBackProjectors.h).
#include "gpu/opencl/OpenClBackProjectors.h"

#include "gpu/opencl/internal/AluLauncher.h"
#include "gpu/opencl/internal/ClFamilies.h"

namespace tomo::opencl {

void addVariant(BackProjectorRegistry& registry, OpenClRegistration& report,
                const std::shared_ptr<ClDeviceContext>& device, BackProjectorInfo info,
                const std::string& skipReason, LauncherFactory makeLauncher) {
    if (!skipReason.empty()) {
        report.skipped.emplace_back(info.id, skipReason);
        return;
    }
    info.backend = "opencl";
    info.parameters["device"] = report.device;
    report.registered.push_back(info.id);
    registry.add(info, [info, device, makeLauncher = std::move(makeLauncher)] {
        return std::make_unique<ClBackProjector>(info, device, makeLauncher());
    });
}

OpenClRegistration registerBackProjectors(BackProjectorRegistry& registry,
                                          const OpenClRegistrationOptions& options) {
    OpenClRegistration report;
    ClDeviceOptions deviceOptions;
    deviceOptions.cacheDirectory = options.cacheDirectory;
    auto device = ClDeviceContext::open(options.device, deviceOptions);
    if (!device.isOk()) {
        report.message = device.status().message();
        return report;
    }
    report.available = true;
    report.context = device.value();
    report.device =
        device.value()->traits().name + " (" + device.value()->traits().platformName + ")";
    registerTextureFamily(registry, report, device.value());
    registerAluBackProjectors(registry, report, device.value(), /*withOversampling=*/true);
    return report;
}

}  // namespace tomo::opencl
