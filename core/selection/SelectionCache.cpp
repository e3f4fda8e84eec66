// SelectionCache: JSON (de)serialisation, lookup and atomic saving of selection records.
#include <algorithm>
#include <ctime>
#include <fstream>
#include <sstream>
#include <system_error>

#include "core/io/ImageIO.h"
#include "core/selection/SelectionCache.h"

namespace tomo {
namespace {

constexpr const char* kFormat = "tomostation-selection-2";
constexpr const char* kFormat1 = "tomostation-selection-1";

std::string utcNow() {
    const std::time_t now = std::time(nullptr);
    std::tm tm{};
    gmtime_r(&now, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

JsonValue keyToJson(const SelectionKey& k) {
    JsonValue o = JsonValue::object();
    o.set("backend", JsonValue::string(k.backend));
    o.set("device", JsonValue::string(k.device));
    o.set("driver", JsonValue::string(k.driver));
    o.set("compute_capability", JsonValue::string(k.computeCapability));
    o.set("build", JsonValue::string(k.build));
    return o;
}

Result<SelectionRecord> recordFromJson(const JsonValue& e, std::size_t index) {
    const std::string where = "selection cache entry " + std::to_string(index);
    const JsonValue* key = e.find("key");
    if (!e.isObject() || !key || !key->isObject())
        return invalidData(where + ": missing \"key\" object");
    SelectionRecord r;
    r.key = {key->stringAt("backend"), key->stringAt("device"), key->stringAt("driver"),
             key->stringAt("compute_capability"), key->stringAt("build")};
    if (r.key.backend.empty() || r.key.device.empty())
        return invalidData(where + ": key without backend or device");
    r.created = e.stringAt("created");
    r.seconds = e.numberAt("seconds");
    if (const JsonValue* c = e.find("choices"); c && c->isObject()) {
        for (const auto& [k, v] : c->members()) {
            if (v.type() != JsonValue::Type::String)
                return invalidData(where + ": choice '" + k + "' is not a string");
            r.choices[k] = v.asString();
        }
    } else {
        return invalidData(where + ": missing \"choices\" object");
    }
    if (const JsonValue* classes = e.find("classes"); classes && classes->isArray())
        for (const JsonValue& c : classes->items()) {
            if (!c.isObject() || c.stringAt("class").empty())
                return invalidData(where + ": class without a name");
            CachedClass cls{c.stringAt("class"),
                            static_cast<int>(c.numberAt("image_size")),
                            static_cast<int>(c.numberAt("slices")),
                            {}};
            if (const JsonValue* t = c.find("table"); t && t->isArray())
                for (const JsonValue& row : t->items()) {
                    if (!row.isObject() || row.stringAt("id").empty())
                        return invalidData(where + ": table row without an id");
                    cls.table.push_back({row.stringAt("id"), row.numberAt("predicted_gups"),
                                         row.stringAt("bottleneck"), row.numberAt("measured_gups"),
                                         row.numberAt("error", -1), row.stringAt("state"),
                                         row.stringAt("note")});
                }
            r.classes.push_back(std::move(cls));
        }
    return r;
}

}  // namespace

SelectionRecord makeRecord(const SelectionKey& key, const SelectionResult& result) {
    SelectionRecord r;
    r.key = key;
    r.created = utcNow();
    r.seconds = result.seconds;
    r.choices = result.choices();
    for (const ClassSelection& c : result.classes) {
        CachedClass cls{c.workloadClass, c.shape.size, c.shape.slices, {}};
        for (const CandidateReport& row : c.table)
            cls.table.push_back({row.info.id, row.prediction.gups, row.prediction.bottleneck,
                                 row.measuredGups, row.error, candidateStateName(row.state),
                                 row.note});
        r.classes.push_back(std::move(cls));
    }
    return r;
}

const CachedClass* SelectionRecord::findClass(const std::string& workloadClass) const {
    for (const CachedClass& c : classes)
        if (c.workloadClass == workloadClass) return &c;
    return nullptr;
}

std::optional<std::string> SelectionRecord::choiceFor(const BackProjectorRegistry& registry,
                                                      const JobShape& shape,
                                                      Interpolation interpolation,
                                                      bool exact) const {
    auto it = choices.find(cacheChoiceKey(workloadClass(shape), exact, interpolation));
    if (it == choices.end()) return std::nullopt;
    for (const BackProjectorInfo& info : registry.list())
        if (info.id == it->second && info.interpolation == interpolation && info.exact == exact &&
            info.family != "reference")
            return it->second;
    return std::nullopt;  // unregistered, or of another kind (a hand-edited file)
}

SelectionCache SelectionCache::load(const std::filesystem::path& file) {
    SelectionCache cache;
    cache.m_path = file;
    std::error_code ec;
    if (!std::filesystem::exists(file, ec)) return cache;
    std::ifstream in(file, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    if (!in.good() && !in.eof()) {
        cache.m_warning = "cannot read " + file.string() + "; ignoring the selection cache";
        return cache;
    }
    auto doc = JsonValue::parse(text.str());
    if (!doc) {
        cache.m_warning = file.string() + " is corrupt (" + doc.status().message() +
                          "); ignoring it, `tomo tune` rewrites it";
        return cache;
    }
    auto records = recordsFromJson(*doc);
    if (!records) {
        cache.m_warning = file.string() + ": " + records.status().message() +
                          "; ignoring it, `tomo tune` rewrites it";
        return cache;
    }
    cache.m_records = std::move(*records);
    return cache;
}

Result<std::vector<SelectionRecord>> SelectionCache::recordsFromJson(const JsonValue& doc) {
    if (doc.isObject() && doc.stringAt("format") == kFormat1)
        return invalidData(std::string("made by an older TomoStation (\"") + kFormat1 +
                           "\": one choice for every workload, measured on one shape)");
    if (!doc.isObject() || doc.stringAt("format") != kFormat)
        return invalidData(std::string("not a selection cache (format is not \"") + kFormat +
                           "\")");
    const JsonValue* entries = doc.find("entries");
    if (!entries || !entries->isArray()) return invalidData("missing \"entries\" array");
    std::vector<SelectionRecord> out;
    for (std::size_t i = 0; i < entries->items().size(); ++i) {
        TOMO_ASSIGN_OR_RETURN(SelectionRecord r, recordFromJson(entries->items()[i], i));
        out.push_back(std::move(r));
    }
    return out;
}

JsonValue SelectionCache::toJson() const {
    JsonValue entries = JsonValue::array();
    for (const SelectionRecord& r : m_records) {
        JsonValue e = JsonValue::object();
        e.set("key", keyToJson(r.key));
        e.set("created", JsonValue::string(r.created));
        e.set("seconds", JsonValue::number(r.seconds));
        JsonValue choices = JsonValue::object();
        for (const auto& [k, v] : r.choices)
            choices.set(k, JsonValue::string(v));
        e.set("choices", std::move(choices));
        JsonValue classes = JsonValue::array();
        for (const CachedClass& cls : r.classes) {
            JsonValue c = JsonValue::object();
            c.set("class", JsonValue::string(cls.workloadClass));
            c.set("image_size", JsonValue::number(cls.imageSize));
            c.set("slices", JsonValue::number(cls.slices));
            JsonValue table = JsonValue::array();
            for (const CachedCandidate& row : cls.table) {
                JsonValue o = JsonValue::object();
                o.set("id", JsonValue::string(row.id));
                o.set("predicted_gups", JsonValue::number(row.predictedGups));
                o.set("bottleneck", JsonValue::string(row.bottleneck));
                o.set("measured_gups", JsonValue::number(row.measuredGups));
                o.set("error", JsonValue::number(row.error));
                o.set("state", JsonValue::string(row.state));
                o.set("note", JsonValue::string(row.note));
                table.push(std::move(o));
            }
            c.set("table", std::move(table));
            classes.push(std::move(c));
        }
        e.set("classes", std::move(classes));
        entries.push(std::move(e));
    }
    JsonValue doc = JsonValue::object();
    doc.set("format", JsonValue::string(kFormat));
    doc.set("entries", std::move(entries));
    return doc;
}

const SelectionRecord* SelectionCache::find(const SelectionKey& key) const {
    for (const SelectionRecord& r : m_records)
        if (r.key == key) return &r;
    return nullptr;
}

const SelectionRecord* SelectionCache::findDevice(const std::string& backend,
                                                  const std::string& device) const {
    for (const SelectionRecord& r : m_records)
        if (r.key.backend == backend && r.key.device == device) return &r;
    return nullptr;
}

void SelectionCache::put(SelectionRecord record) {
    auto it = std::find_if(m_records.begin(), m_records.end(), [&](const SelectionRecord& r) {
        return r.key.backend == record.key.backend && r.key.device == record.key.device;
    });
    if (it == m_records.end()) {
        m_records.push_back(std::move(record));
        return;
    }
    if (!(it->key == record.key)) {
        *it = std::move(record);
        return;
    }
    // Same key: the classes of the old record that the new one did not tune stay.
    for (const CachedClass& old : it->classes) {
        if (record.findClass(old.workloadClass)) continue;
        record.classes.push_back(old);
        const std::string prefix = old.workloadClass + ":";
        for (const auto& [k, id] : it->choices)
            if (k.rfind(prefix, 0) == 0) record.choices.emplace(k, id);
    }
    *it = std::move(record);
}

Status SelectionCache::save() const {
    if (m_path.empty()) return invalidArgument("selection cache: no file path");
    std::error_code ec;
    if (m_path.has_parent_path()) {
        std::filesystem::create_directories(m_path.parent_path(), ec);
        if (ec)
            return ioError("cannot create " + m_path.parent_path().string() + ": " + ec.message());
    }
    const std::string text = toJson().dump(2) + "\n";
    return writeFileAtomic(m_path, text.data(), text.size());
}

Result<SelectionRecord> cachedOrTune(SelectionCache& cache, const SelectionKey& key,
                                     const std::function<Result<SelectionResult>()>& tune,
                                     Status* saveStatus) {
    if (const SelectionRecord* r = cache.find(key)) return *r;
    TOMO_ASSIGN_OR_RETURN(SelectionResult result, tune());
    SelectionRecord record = makeRecord(key, result);
    cache.put(record);
    Status s = cache.save();
    if (saveStatus) *saveStatus = s;
    return record;
}

}  // namespace tomo
