// TomoStation's JSON cone-beam geometry file, and reading/writing either format by path.
// See ConeGeometryIo.h.

#include <fstream>
#include <set>
#include <sstream>

#include "core/base/JsonValue.h"
#include "core/cone/ConeGeometryIo.h"
#include "core/geometry/ParallelGeometry.h"
#include "core/io/AtomicFile.h"

namespace tomo {
namespace {

constexpr double kDeg = kPi / 180.0;

struct Field {
    const char* name;
    double ConeView::*field;
    double scale;  ///< file value * scale = stored value
};
constexpr Field kFields[] = {
    {"sid", &ConeView::sid, 1.0},
    {"sdd", &ConeView::sdd, 1.0},
    {"gantryAngle", &ConeView::gantryAngle, kDeg},
    {"projOffsetX", &ConeView::projOffsetX, 1.0},
    {"projOffsetY", &ConeView::projOffsetY, 1.0},
    {"outOfPlaneAngle", &ConeView::outOfPlaneAngle, kDeg},
    {"inPlaneAngle", &ConeView::inPlaneAngle, kDeg},
    {"sourceOffsetX", &ConeView::sourceOffsetX, 1.0},
    {"sourceOffsetY", &ConeView::sourceOffsetY, 1.0},
};

/// Applies every view field present in @p obj; InvalidData for a non-number.
Status applyFields(const JsonValue& obj, ConeView& v) {
    for (const Field& f : kFields)
        if (const JsonValue* x = obj.find(f.name)) {
            if (x->type() != JsonValue::Type::Number)
                return invalidData(std::string("\"") + f.name + "\" must be a number");
            v.*f.field = x->asNumber() * f.scale;
        }
    return Status::ok();
}

Status checkKeys(const JsonValue& obj, const std::set<std::string>& allowed, const char* where) {
    for (const auto& [key, value] : obj.members())
        if (!allowed.count(key))
            return invalidData(std::string(where) + ": unknown key \"" + key + "\"");
    return Status::ok();
}

/// An array of @p n numbers, or one number repeated (when @p scalarOk).
Result<std::vector<double>> numbers(const JsonValue* v, std::size_t n, const char* name,
                                    bool scalarOk) {
    if (scalarOk && v->type() == JsonValue::Type::Number)
        return std::vector<double>(n, v->asNumber());
    std::vector<double> out;
    for (const JsonValue& x : v->items())
        if (x.type() == JsonValue::Type::Number) out.push_back(x.asNumber());
    if (!v->isArray() || out.size() != n || v->items().size() != n)
        return invalidData(std::string("\"") + name + "\" must be an array of " +
                           std::to_string(n) + " numbers");
    return out;
}

Result<DetectorGrid> parseDetector(const JsonValue& d) {
    TOMO_RETURN_IF_ERROR(checkKeys(d, {"size", "pitch", "origin"}, "detector"));
    const JsonValue* size = d.find("size");
    const JsonValue* pitch = d.find("pitch");
    if (!size || !pitch) return invalidData("detector: \"size\" and \"pitch\" are required");
    TOMO_ASSIGN_OR_RETURN(auto n, numbers(size, 2, "size", false));
    TOMO_ASSIGN_OR_RETURN(auto p, numbers(pitch, 2, "pitch", true));
    DetectorGrid g =
        DetectorGrid::centred(static_cast<int>(n[0]), static_cast<int>(n[1]), p[0], p[1]);
    if (const JsonValue* o = d.find("origin")) {
        TOMO_ASSIGN_OR_RETURN(auto org, numbers(o, 2, "origin", false));
        g.originU = org[0];
        g.originV = org[1];
    }
    return g;
}

Result<ConeVolumeGrid> parseVolume(const JsonValue& v) {
    TOMO_RETURN_IF_ERROR(checkKeys(v, {"size", "spacing", "origin"}, "volume"));
    const JsonValue* size = v.find("size");
    if (!size) return invalidData("volume: \"size\" is required");
    TOMO_ASSIGN_OR_RETURN(auto n, numbers(size, 3, "size", false));
    std::vector<double> s(3, 1.0);
    if (const JsonValue* sp = v.find("spacing")) {
        TOMO_ASSIGN_OR_RETURN(s, numbers(sp, 3, "spacing", true));
    }
    ConeVolumeGrid g = ConeVolumeGrid::centred(static_cast<int>(n[0]), static_cast<int>(n[1]),
                                               static_cast<int>(n[2]), 1.0);
    g.spacingX = s[0], g.spacingY = s[1], g.spacingZ = s[2];
    g.originX = -0.5 * (g.nx - 1) * s[0];
    g.originY = -0.5 * (g.ny - 1) * s[1];
    g.originZ = -0.5 * (g.nz - 1) * s[2];
    if (const JsonValue* o = v.find("origin")) {
        TOMO_ASSIGN_OR_RETURN(auto org, numbers(o, 3, "origin", false));
        g.originX = org[0], g.originY = org[1], g.originZ = org[2];
    }
    TOMO_RETURN_IF_ERROR(g.validate());
    return g;
}

Result<std::vector<ConeView>> parseViews(const JsonValue& doc, const ConeView& defaults) {
    std::vector<ConeView> views;
    const JsonValue* angles = doc.find("angles");
    const JsonValue* list = doc.find("views");
    if ((angles != nullptr) == (list != nullptr))
        return invalidData("give either \"angles\" or \"views\"");
    if (angles) {
        TOMO_RETURN_IF_ERROR(checkKeys(*angles, {"first", "arc", "count"}, "angles"));
        const double count = angles->numberAt("count", -1);
        if (count < 1 || count > (1 << 20) || count != static_cast<int>(count))
            return invalidData("angles: \"count\" must be an integer in [1, 2^20]");
        const double first = angles->numberAt("first", 0), arc = angles->numberAt("arc", 360);
        for (int i = 0; i < static_cast<int>(count); ++i) {
            ConeView v = defaults;
            v.gantryAngle = (first + arc * i / count) * kDeg;
            views.push_back(v);
        }
        return views;
    }
    std::set<std::string> allowed = {"matrix"};
    for (const Field& f : kFields)
        allowed.insert(f.name);
    for (const JsonValue& item : list->items()) {
        if (!item.isObject()) return invalidData("\"views\" must be an array of objects");
        TOMO_RETURN_IF_ERROR(checkKeys(item, allowed, "view"));
        if (const JsonValue* m = item.find("matrix")) {
            if (item.members().size() != 1)
                return invalidData("a view given by its \"matrix\" takes no other keys");
            TOMO_ASSIGN_OR_RETURN(auto values, numbers(m, 12, "matrix", false));
            Matrix34 matrix{};
            for (int r = 0; r < 3; ++r)
                for (int c = 0; c < 4; ++c)
                    matrix[r][c] = values[static_cast<std::size_t>(4 * r + c)];
            auto view = coneViewFromMatrix(matrix);
            if (!view.isOk())
                return invalidData("view " + std::to_string(views.size()) + ": " +
                                   view.status().message());
            views.push_back(*view);
            continue;
        }
        ConeView v = defaults;
        TOMO_RETURN_IF_ERROR(applyFields(item, v));
        views.push_back(v);
    }
    return views;
}

}  // namespace

Result<ConeGeometryFile> parseConeGeometryJson(const std::string& text) {
    TOMO_ASSIGN_OR_RETURN(JsonValue doc, JsonValue::parse(text));
    if (!doc.isObject()) return invalidData("a cone geometry JSON file is an object");
    if (doc.stringAt("type") != "tomostation-cone-geometry")
        return invalidData("\"type\" must be \"tomostation-cone-geometry\"");
    std::set<std::string> allowed = {"type", "version", "angles", "views", "detector", "volume"};
    for (const Field& f : kFields)
        if (std::string(f.name) != "gantryAngle") allowed.insert(f.name);
    TOMO_RETURN_IF_ERROR(checkKeys(doc, allowed, "geometry"));
    if (doc.numberAt("version", 1) != 1) return invalidData("only version 1 is supported");
    ConeView defaults;
    if (!doc.find("sid") || !doc.find("sdd"))
        return invalidData("\"sid\" and \"sdd\" (mm) are required");
    TOMO_RETURN_IF_ERROR(applyFields(doc, defaults));
    ConeGeometryFile out;
    out.format = "json";
    TOMO_ASSIGN_OR_RETURN(out.views, parseViews(doc, defaults));
    if (const JsonValue* d = doc.find("detector")) {
        TOMO_ASSIGN_OR_RETURN(DetectorGrid grid, parseDetector(*d));
        out.detector = grid;
    }
    if (const JsonValue* v = doc.find("volume")) {
        TOMO_ASSIGN_OR_RETURN(ConeVolumeGrid grid, parseVolume(*v));
        out.volume = grid;
    }
    auto check =
        ConeGeometry::create(out.views, out.detector.value_or(DetectorGrid::centred(2, 2, 1, 1)));
    if (!check.isOk()) return invalidData(check.status().message());
    return out;
}

Result<ConeGeometryFile> readConeGeometryFile(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return notFound(path.string() + ": cannot open the geometry file");
    std::ostringstream buffer;
    buffer << in.rdbuf();
    const std::string text = buffer.str();
    const std::size_t first = text.find_first_not_of(" \t\r\n");
    Result<ConeGeometryFile> r = first != std::string::npos && text[first] == '{'
                                     ? parseConeGeometryJson(text)
                                     : parseRtkGeometryXml(text);
    if (!r.isOk()) return Status(r.status().code(), path.string() + ": " + r.status().message());
    return r;
}

std::string coneGeometryJson(const ConeGeometry& g, const ConeVolumeGrid* volume) {
    JsonValue doc = JsonValue::object();
    doc.set("type", JsonValue::string("tomostation-cone-geometry"));
    doc.set("version", JsonValue::number(1));
    JsonValue views = JsonValue::array();
    for (const ConeView& v : g.views()) {
        JsonValue item = JsonValue::object();
        for (const Field& f : kFields)
            if (v.*f.field != 0.0 || std::string(f.name) == "gantryAngle")
                item.set(f.name, JsonValue::number(v.*f.field / f.scale));
        views.push(std::move(item));
    }
    doc.set("sid", JsonValue::number(g.view(0).sid));
    doc.set("sdd", JsonValue::number(g.view(0).sdd));
    doc.set("views", std::move(views));
    auto pair = [](double a, double b) {
        JsonValue x = JsonValue::array();
        x.push(JsonValue::number(a));
        x.push(JsonValue::number(b));
        return x;
    };
    const DetectorGrid& d = g.detector();
    JsonValue det = JsonValue::object();
    det.set("size", pair(d.nu, d.nv));
    det.set("pitch", pair(d.pitchU, d.pitchV));
    det.set("origin", pair(d.originU, d.originV));
    doc.set("detector", std::move(det));
    if (volume) {
        auto triple = [](double a, double b, double c) {
            JsonValue x = JsonValue::array();
            for (double v : {a, b, c})
                x.push(JsonValue::number(v));
            return x;
        };
        JsonValue vol = JsonValue::object();
        vol.set("size", triple(volume->nx, volume->ny, volume->nz));
        vol.set("spacing", triple(volume->spacingX, volume->spacingY, volume->spacingZ));
        vol.set("origin", triple(volume->originX, volume->originY, volume->originZ));
        doc.set("volume", std::move(vol));
    }
    return doc.dump(2) + "\n";
}

Status writeConeGeometryFile(const std::filesystem::path& path, const ConeGeometry& g,
                             const ConeVolumeGrid* volume) {
    const std::string ext = path.extension().string();
    if (ext != ".xml" && ext != ".json")
        return invalidArgument(path.string() + ": a geometry file ends in .xml (RTK) or .json");
    const std::string text = ext == ".xml" ? rtkGeometryXml(g) : coneGeometryJson(g, volume);
    TOMO_ASSIGN_OR_RETURN(AtomicFile file, AtomicFile::create(path));
    TOMO_RETURN_IF_ERROR(file.write(text.data(), text.size()));
    return file.commit();
}

}  // namespace tomo
