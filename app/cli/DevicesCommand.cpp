// tomo devices: what this build can compute on, and with which back-projector variants.
#include <cstdio>

#include "app/Backends.h"
#include "app/Engine.h"
#include "app/Selection.h"
#include "app/cli/ArgParser.h"
#include "app/cli/CliSupport.h"
#include "app/cli/Commands.h"

namespace tomo::cli {
namespace {

std::string formatBytes(std::uint64_t bytes) {
    char buf[32];
    if (bytes >= (1ull << 30))
        std::snprintf(buf, sizeof buf, "%.1f GiB", double(bytes) / (1ull << 30));
    else if (bytes >= (1ull << 20))
        std::snprintf(buf, sizeof buf, "%.1f MiB", double(bytes) / (1ull << 20));
    else
        std::snprintf(buf, sizeof buf, "%.0f KiB", double(bytes) / 1024.0);
    return buf;
}

void printJson(const std::vector<DeviceDiscovery>& all, const BackProjectorRegistry& registry) {
    std::printf("{\"backends\": [");
    for (std::size_t b = 0; b < all.size(); ++b) {
        const DeviceDiscovery& d = all[b];
        std::printf("%s\n  {\"backend\": %s, \"available\": %s, \"message\": %s, \"devices\": [",
                    b ? "," : "", jsonEscape(d.backend).c_str(), d.available ? "true" : "false",
                    jsonEscape(d.message).c_str());
        for (std::size_t i = 0; i < d.devices.size(); ++i) {
            const DeviceInfo& x = d.devices[i];
            std::printf(
                "%s{\"index\": %d, \"name\": %s, \"vendor\": %s, \"driver\": %s, \"architecture\": "
                "%s, "
                "\"compute_units\": %d, \"clock_mhz\": %s, \"global_memory\": %llu, "
                "\"local_memory\": %llu, "
                "\"properties\": {",
                i ? ", " : "", x.index, jsonEscape(x.name).c_str(), jsonEscape(x.vendor).c_str(),
                jsonEscape(x.driver).c_str(), jsonEscape(x.architecture).c_str(), x.computeUnits,
                jsonNumber(x.clockMHz).c_str(),
                static_cast<unsigned long long>(x.globalMemoryBytes),
                static_cast<unsigned long long>(x.localMemoryBytes));
            for (std::size_t p = 0; p < x.properties.size(); ++p)
                std::printf("%s%s: %s", p ? ", " : "", jsonEscape(x.properties[p].first).c_str(),
                            jsonEscape(x.properties[p].second).c_str());
            std::printf("}, \"note\": %s}", jsonEscape(x.note).c_str());
        }
        std::printf("]}");
    }
    std::printf("\n], \"variants\": [");
    auto variants = registry.list();
    for (std::size_t i = 0; i < variants.size(); ++i) {
        const auto& v = variants[i];
        std::printf(
            "%s\n  {\"id\": %s, \"backend\": %s, \"family\": %s, \"interp\": %s, \"slices\": %d, "
            "\"precision\": %s, \"exact\": %s, \"description\": %s}",
            i ? "," : "", jsonEscape(v.id).c_str(), jsonEscape(v.backend).c_str(),
            jsonEscape(v.family).c_str(), jsonEscape(interpolationName(v.interpolation)).c_str(),
            v.slicesPerPass, jsonEscape(v.precision).c_str(), v.exact ? "true" : "false",
            jsonEscape(v.description).c_str());
    }
    std::printf("\n]}\n");
}

Status devicesBody(const ArgParser& args) {
    const auto all = app::discoverAllDevices();
    const app::Engine engine;  // the devices, owned once
    const BackProjectorRegistry& registry = engine.registry();
    if (args.has("json")) {
        printJson(all, registry);
        return Status::ok();
    }
    const bool explain = args.has("explain");
    for (const DeviceDiscovery& d : all) {
        std::printf("%s: %s\n", d.backend.c_str(),
                    d.available ? "" : ("unavailable - " + d.message).c_str());
        for (const DeviceInfo& x : d.devices) {
            std::printf("  [%d] %s (%s)\n      %d compute units", x.index, x.name.c_str(),
                        x.architecture.c_str(), x.computeUnits);
            if (x.clockMHz > 0) std::printf(", %.0f MHz", x.clockMHz);
            if (x.globalMemoryBytes)
                std::printf(", %s memory", formatBytes(x.globalMemoryBytes).c_str());
            if (x.localMemoryBytes)
                std::printf(", %s local", formatBytes(x.localMemoryBytes).c_str());
            if (!x.driver.empty()) std::printf(", driver %s", x.driver.c_str());
            std::printf("\n");
            if (explain)
                for (const auto& [key, value] : x.properties)
                    std::printf("      %s: %s\n", key.c_str(), value.c_str());
            if (!x.note.empty()) std::printf("      note: %s\n", x.note.c_str());
            if (explain) std::fputs(app::explainSelection(x, registry).c_str(), stdout);
        }
        auto variants = registry.list(d.backend);
        const std::string selected = app::defaultVariant(registry, d.backend);
        if (variants.empty()) {
            // Compiled but not registered: the backend has no usable device.
            variants = app::compiledVariants(d.backend, registry);
            const std::string name = d.backend == "cuda"     ? "CUDA"
                                     : d.backend == "opencl" ? "OpenCL"
                                                             : d.backend;
            if (variants.empty())
                std::printf("  back-projector variants: none in this build\n");
            else
                std::printf("  back-projector variants: %zu compiled, none usable (no %s device)\n",
                            variants.size(), name.c_str());
        } else {
            std::printf("  back-projector variants:\n");
        }
        for (const auto& v : variants) {
            std::printf("    %-22s %-10s %-8s %d slice(s)/pass %s%s\n", v.id.c_str(),
                        v.family.c_str(), interpolationName(v.interpolation), v.slicesPerPass,
                        v.exact ? "exact" : "approximate", v.id == selected ? "  [selected]" : "");
            if (explain && !v.description.empty()) std::printf("      %s\n", v.description.c_str());
            if (explain)
                for (const auto& [key, value] : v.parameters)
                    std::printf("      %s = %s\n", key.c_str(), value.c_str());
        }
    }
    return Status::ok();
}

}  // namespace

int runDevices(int argc, char** argv) {
    ArgParser args(
        "devices",
        "Lists the CPU, CUDA and OpenCL devices this build can use and the back-projector\n"
        "variants registered for each backend, marking the one selected by default.");
    args.flag("json", "print JSON");
    args.flag("explain",
              "show every device property and variant parameter, and per variant the model's\n"
              "prediction, the `tomo tune` measurement and the choice");
    return runCommand(args, argc, argv, [&] { return devicesBody(args); });
}

}  // namespace tomo::cli
