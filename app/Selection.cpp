// Selection glue: cache location and key, tuning, cached defaults and the explanation text.
#include "app/Selection.h"

#include <cstdio>

#include "app/Backends.h"
#include "core/base/CacheDirectory.h"
#include "tomo/config.h"

namespace tomo::app {
namespace {

std::string format(const char* fmt, double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, fmt, v);
    return buf;
}

std::string property(const DeviceInfo& d, const std::string& key) {
    for (const auto& [k, v] : d.properties)
        if (k == key) return v;
    return {};
}

std::string staleReason(const SelectionKey& have, const SelectionKey& want) {
    if (have.driver != want.driver) return "driver changed (" + have.driver + ")";
    if (have.computeCapability != want.computeCapability) return "compute capability changed";
    if (have.build != want.build) return "made by another build (" + have.build + ")";
    return "key differs";
}

}  // namespace

std::filesystem::path selectionCachePath() {
    const std::filesystem::path root = cacheDirectory();
    return root.empty() ? root : root / "selection.json";
}

std::string buildId() {
    return std::string(TOMO_VERSION) + " " + TOMO_CXX_COMPILER + " " + TOMO_BUILD_TYPE;
}

SelectionKey selectionKeyFor(const DeviceInfo& device) {
    return {device.backend, device.name, device.driver,
            device.backend == "cuda" ? property(device, "compute capability") : std::string(),
            buildId()};
}

std::string gpuIcdRefusal(const DeviceInfo& device) {
    for (const auto& [key, value] : device.properties)
        if (key == "fp64" && value != "yes")
            return "GPU-ICD builds its tiles in double precision and " + device.backend +
                   " device '" + device.name + "' has no fp64";
    return {};
}

Result<DeviceInfo> primaryDevice(const std::string& backend) {
    if (backend == "cpu") {
        DeviceDiscovery cpu = discoverCpu();
        if (!cpu.devices.empty()) return cpu.devices.front();
        return notFound("no CPU device");
    }
    for (DeviceDiscovery& d : discoverAllDevices()) {
        if (d.backend != backend) continue;
        if (!d.available) return unsupported(backend + ": " + d.message);
        for (DeviceInfo& info : d.devices)
            if (info.note.empty()) return info;
        return notFound(backend + ": no usable device");
    }
    return invalidArgument("unknown backend '" + backend + "' (cpu, cuda, opencl)");
}

std::optional<std::string> cachedVariant(const BackProjectorRegistry& registry,
                                         const std::string& backend, Interpolation interpolation,
                                         const JobShape& shape, bool exact, std::string* warning) {
    const std::filesystem::path path = selectionCachePath();
    if (path.empty()) return std::nullopt;
    const SelectionCache cache = SelectionCache::load(path);
    if (warning) *warning = cache.warning();
    bool any = false;
    for (const SelectionRecord& r : cache.records())
        any = any || r.key.backend == backend;
    if (!any) return std::nullopt;
    auto device = primaryDevice(backend);
    if (!device) return std::nullopt;
    const SelectionKey key = selectionKeyFor(*device);
    const SelectionRecord* record = cache.find(key);
    if (!record) {
        if (const SelectionRecord* old = cache.findDevice(backend, device->name); old && warning)
            *warning = "cached selection for " + device->name +
                       " is stale: " + staleReason(old->key, key) + "; run `tomo tune --backend " +
                       backend + "`";
        return std::nullopt;
    }
    return record->choiceFor(registry, shape, interpolation, exact);
}

Result<SelectionResult> tuneBackend(const BackProjectorRegistry& registry,
                                    const std::string& backend, const SelectorOptions& options,
                                    const ExecContext& ctx, Status* saveStatus) {
    TOMO_ASSIGN_OR_RETURN(DeviceInfo device, primaryDevice(backend));
    Selector selector(registry, traitsFor(device), options);
    TOMO_ASSIGN_OR_RETURN(SelectionResult result, selector.run(backend, ctx));
    const std::filesystem::path path = selectionCachePath();
    Status saved = ioError("no cache directory: neither XDG_CACHE_HOME nor HOME is set");
    if (!path.empty()) {
        SelectionCache cache = SelectionCache::load(path);
        cache.put(makeRecord(selectionKeyFor(device), result));
        saved = cache.save();
    }
    if (saveStatus) *saveStatus = saved;
    return result;
}

std::vector<VariantSpeed> variantSpeeds(const DeviceInfo& device,
                                        const BackProjectorRegistry& registry,
                                        std::string* measuredClassName, std::string* warning) {
    const SelectionCache cache = SelectionCache::load(selectionCachePath());
    if (warning) *warning = cache.warning();
    const SelectionRecord* record = cache.find(selectionKeyFor(device));
    // The measurement of the one-slice class at the medium size when there is one (the GUI's
    // main case), else a one-slice class, else any.
    const CachedClass* measuredClass = record ? record->findClass("1.medium") : nullptr;
    if (record && !measuredClass)
        for (const CachedClass& c : record->classes)
            if (!measuredClass || (c.slices == 1 && measuredClass->slices != 1)) measuredClass = &c;
    if (measuredClassName) *measuredClassName = measuredClass ? measuredClass->workloadClass : "";
    Selector selector(registry, traitsFor(device));
    std::vector<VariantSpeed> speeds;
    for (const CandidateReport& row :
         selector.rank(device.backend, measuredClass ? measuredClass->slices : 1)) {
        VariantSpeed v;
        v.id = row.info.id;
        v.hasModel = row.hasModel;
        v.predictedGups = row.prediction.gups;
        v.bottleneck = row.prediction.bottleneck;
        if (measuredClass) {
            for (const CachedCandidate& c : measuredClass->table)
                if (c.id == v.id) {
                    v.state = c.state;
                    if (c.state == "measured") v.measuredGups = c.measuredGups;
                }
            for (const auto& [k, id] : record->choices)
                if (id == v.id && k.rfind(measuredClass->workloadClass + ":", 0) == 0)
                    v.choice.append(v.choice.empty() ? "" : ",").append(k, k.find(':') + 1);
        }
        speeds.push_back(std::move(v));
    }
    return speeds;
}

std::string explainSelection(const DeviceInfo& device, const BackProjectorRegistry& registry) {
    std::string out;
    const DeviceTraits traits = traitsFor(device);
    out += "      model traits (" + traits.family + "):\n";
    for (const auto& [name, trait] : traits.units()) {
        if (trait->value <= 0 && trait->note.empty()) continue;
        const bool bytes = name == "shared" || name == "constant";
        const bool texels = name.rfind("texture", 0) == 0;
        out += "        " + name + std::string(12 - name.size(), ' ') +
               format("%10.1f ", trait->value) +
               (bytes    ? "GB/s     "
                : texels ? "Gtexel/s "
                         : "G ops/s  ") +
               "[" + traitSourceName(trait->source) + "] " + trait->note + "\n";
    }
    const std::filesystem::path path = selectionCachePath();
    const SelectionCache cache = SelectionCache::load(path);
    if (!cache.warning().empty()) out += "      warning: " + cache.warning() + "\n";
    const SelectionKey key = selectionKeyFor(device);
    const SelectionRecord* record = cache.find(key);
    if (record) {
        out += "      selection: measured ";
        out += record->created;
        out += format(" (%.1f s sweep; classes", record->seconds);
        for (const CachedClass& c : record->classes) {
            char text[96];
            std::snprintf(text, sizeof text, " %s (%d^2 x %d)", c.workloadClass.c_str(),
                          c.imageSize, c.slices);
            out += text;
        }
        out += ")\n";
        for (const auto& [k, id] : record->choices) {
            char text[160];
            std::snprintf(text, sizeof text, "        %-32s %s\n", k.c_str(), id.c_str());
            out += text;
        }
    } else if (const SelectionRecord* old = cache.findDevice(device.backend, device.name)) {
        out += "      selection: stale (" + staleReason(old->key, key) +
               "); run `tomo tune --backend " + device.backend + "`\n";
    } else {
        out +=
            "      selection: not measured yet; run `tomo tune --backend " + device.backend + "`\n";
    }
    std::string measuredClass;
    const std::vector<VariantSpeed> speeds = variantSpeeds(device, registry, &measuredClass);
    if (speeds.empty()) return out;
    out +=
        "      variant                               predicted  bottleneck     measured  state     "
        "choice\n";
    for (const VariantSpeed& row : speeds) {
        char line[256];
        std::snprintf(line, sizeof line, "      %-36s %10s  %-12s %10s  %-9s %s\n", row.id.c_str(),
                      row.hasModel ? format("%.2f", row.predictedGups).c_str() : "-",
                      row.bottleneck.c_str(),
                      row.measuredGups > 0 ? format("%.2f", row.measuredGups).c_str() : "-",
                      row.state.c_str(), row.choice.c_str());
        out += line;
    }
    if (!measuredClass.empty())
        out.append("      (measured and chosen: class ").append(measuredClass).append(")\n");
    out += "      (GU/s; prediction: paper 002's model with these traits, see docs/selection.md)\n";
    return out;
}

}  // namespace tomo::app
