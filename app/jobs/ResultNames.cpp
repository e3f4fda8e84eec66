#include "app/jobs/ResultNames.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <set>

#include "core/filter/RampFilter.h"
#include "core/iterative/AlgorithmSchema.h"

namespace tomo::app {
namespace {

std::string get(const Provenance& p, const char* key) {
    auto it = p.find(key);
    return it == p.end() ? std::string() : it->second;
}

std::vector<std::string> splitOn(const std::string& text, const std::string& sep) {
    std::vector<std::string> parts;
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t end = text.find(sep, start);
        const std::string part =
            text.substr(start, end == std::string::npos ? std::string::npos : end - start);
        if (!part.empty()) parts.push_back(part);
        if (end == std::string::npos) break;
        start = end + sep.size();
    }
    return parts;
}

bool startsWith(const std::string& text, const char* prefix) {
    return text.rfind(prefix, 0) == 0;
}

/// The key of one phrase of the geometry ("centre 130.99 px" -> "centre").
std::string geometryKey(const std::string& phrase) {
    if (startsWith(phrase, "centre")) return "centre";
    if (startsWith(phrase, "grid")) return "grid";
    if (phrase.find("angles") != std::string::npos) return "angles";
    if (phrase.find("detectors") != std::string::npos) return "detector";
    return phrase;
}

/// Two parameter values alike: numerically when both are numbers, as text otherwise.
bool sameValue(const std::string& a, const std::string& b) {
    char* endA = nullptr;
    char* endB = nullptr;
    const double x = std::strtod(a.c_str(), &endA);
    const double y = std::strtod(b.c_str(), &endB);
    if (!a.empty() && !b.empty() && *endA == '\0' && *endB == '\0')
        return std::abs(x - y) <= 1e-12 * std::max(std::abs(x), std::abs(y));
    return a == b;
}

/// Two filter names alike ("ram-lak", as older results name the ramp, is "ramp").
bool sameFilter(const std::string& a, const std::string& b) {
    Result<FilterWindow> x = parseFilterWindow(a);
    Result<FilterWindow> y = parseFilterWindow(b);
    return x && y ? *x == *y : a == b;
}

const RequestItem* findKey(const std::vector<RequestItem>& items, const std::string& key) {
    for (const RequestItem& item : items)
        if (item.key == key) return &item;
    return nullptr;
}

/// The items of @p now that differ from @p before (by text), and "no KEY" for those it lacks;
/// the back-projector or backend only when @p withWhere.
std::vector<std::string> differences(const std::vector<RequestItem>& now,
                                     const std::vector<RequestItem>& before, bool parameters,
                                     bool withWhere) {
    std::vector<std::string> out;
    auto considered = [&](const RequestItem& item) {
        if (item.parameter) return parameters;
        return withWhere || (item.key != "back-projector" && item.key != "backend");
    };
    for (const RequestItem& item : now) {
        if (!considered(item)) continue;
        const RequestItem* old = findKey(before, item.key);
        if (!old || old->text != item.text) out.push_back(item.text);
    }
    for (const RequestItem& item : before)
        if (considered(item) && !findKey(now, item.key)) out.push_back("no " + item.key);
    return out;
}

/// The parameters of @p items that differ from the defaults of @p algorithm's schema.
std::vector<std::string> fromDefaults(const std::vector<RequestItem>& items,
                                      const std::string& algorithm, const Provenance& result) {
    std::vector<std::string> out;
    Result<AlgorithmSpec> spec = findAlgorithm(algorithm);
    std::map<std::string, std::string> values;
    for (const std::string& pair : splitOn(get(result, "parameters"), ", ")) {
        const std::size_t space = pair.find(' ');
        if (space != std::string::npos) values[pair.substr(0, space)] = pair.substr(space + 1);
    }
    for (const RequestItem& item : items) {
        if (!item.parameter) continue;
        bool isDefault = false;
        if (spec)
            for (const ParameterSpec& p : spec->parameters)
                if (p.name == item.key)
                    isDefault = item.key == "filter" ? sameFilter(values[item.key], p.defaultValue)
                                                     : sameValue(values[item.key], p.defaultValue);
        if (!isDefault) out.push_back(item.text);
    }
    return out;
}

}  // namespace

std::vector<RequestItem> requestItems(const Provenance& provenance) {
    std::vector<RequestItem> items;
    for (const std::string& pair : splitOn(get(provenance, "parameters"), ", ")) {
        const std::size_t space = pair.find(' ');
        items.push_back({pair.substr(0, space), pair, true});
    }
    if (const std::string v = get(provenance, "variant"); !v.empty())
        items.push_back({"back-projector", "back-projector " + v, false});
    else if (const std::string b = get(provenance, "backend"); !b.empty())
        items.push_back({"backend", "backend " + b, false});
    std::vector<std::string> phrases = splitOn(get(provenance, "geometry"), "; ");
    // The order a user reads: the centre first, then the grid and the angles.
    std::stable_sort(phrases.begin(), phrases.end(), [](const auto& a, const auto& b) {
        auto rank = [](const std::string& key) {
            return key == "centre" ? 0 : key == "grid" ? 1 : key == "angles" ? 2 : 3;
        };
        return rank(geometryKey(a)) < rank(geometryKey(b));
    });
    for (const std::string& phrase : phrases)
        if (phrase != "parallel beam") items.push_back({geometryKey(phrase), phrase, false});
    if (const std::string p = get(provenance, "preprocessing"); !p.empty())
        items.push_back({"preprocessing", "preprocessing: " + p, false});
    if (const std::string s = get(provenance, "sampling"); !s.empty())
        items.push_back({"sampling", s, false});
    return items;
}

std::string algorithmLabel(const Provenance& provenance) {
    const std::string id = get(provenance, "algorithm");
    if (id.empty()) return {};
    if (Result<AlgorithmSpec> spec = findAlgorithm(id)) return spec->label;
    std::string upper = id;
    for (char& c : upper)
        c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return upper;
}

std::string resultName(const Provenance& result, const std::vector<const Provenance*>& earlier,
                       std::size_t maxItems) {
    const std::string algorithm = get(result, "algorithm");
    const std::string label = algorithmLabel(result);
    const std::vector<RequestItem> items = requestItems(result);
    const Provenance* same = nullptr;
    for (const Provenance* p : earlier)
        if (p && get(*p, "algorithm") == algorithm) {
            same = p;
            break;
        }
    std::vector<std::string> diffs;
    if (same) {
        diffs = differences(items, requestItems(*same), true, true);
    } else {
        diffs = fromDefaults(items, algorithm, result);
        if (!earlier.empty() && earlier.front()) {
            std::vector<std::string> data =
                differences(items, requestItems(*earlier.front()), false, false);
            diffs.insert(diffs.begin(), data.begin(), data.end());
        }
    }
    std::string name = label.empty() ? std::string("result") : label;
    if (diffs.empty())
        return name + (same ? ": as the previous " + name : std::string(": defaults"));
    name += ": ";
    for (std::size_t i = 0; i < diffs.size() && i < maxItems; ++i)
        name += (i ? "; " : "") + diffs[i];
    if (diffs.size() > maxItems) name += "; +" + std::to_string(diffs.size() - maxItems) + " more";
    return name;
}

std::string requestDescription(const Provenance& provenance) {
    std::string text = algorithmLabel(provenance);
    for (const RequestItem& item : requestItems(provenance))
        text += "\n" + item.text;
    static const std::set<std::string> shown{"algorithm", "parameters", "variant",      "backend",
                                             "geometry",  "sampling",   "preprocessing"};
    for (const auto& [key, value] : provenance)
        if (!shown.count(key) && !value.empty()) text += "\n" + key + ": " + value;
    return text;
}

}  // namespace tomo::app
