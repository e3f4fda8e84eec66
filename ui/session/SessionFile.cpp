#include "ui/session/SessionFile.h"

#include <array>
#include <cmath>
#include <optional>
#include <utility>

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonValue>

#include "core/io/ImageIO.h"
#include "ui/session/PreprocessJson.h"

namespace tomo::ui {

namespace {

constexpr const char* kSessionFormat = "tomostation-session";
constexpr const char* kPresetFormat = "tomostation-preset";

QString q(const std::string& s) {
    return QString::fromStdString(s);
}

QJsonObject mapToJson(const std::map<std::string, std::string>& values) {
    QJsonObject o;
    for (const auto& [k, v] : values)
        o.insert(q(k), q(v));
    return o;
}

Result<std::map<std::string, std::string>> mapFromJson(const QJsonValue& value,
                                                       const std::string& field) {
    if (!value.isObject()) return invalidData("'" + field + "' must be an object");
    std::map<std::string, std::string> out;
    QJsonObject o = value.toObject();
    for (auto it = o.begin(); it != o.end(); ++it) {
        if (!it.value().isString())
            return invalidData("'" + field + "." + it.key().toStdString() + "' must be a string");
        out[it.key().toStdString()] = it.value().toString().toStdString();
    }
    return out;
}

/// Reads an optional member of @p o into @p out, checking its type.
Status readString(const QJsonObject& o, const char* key, const std::string& where,
                  std::string& out) {
    if (!o.contains(QLatin1String(key))) return Status::ok();
    QJsonValue v = o.value(QLatin1String(key));
    if (!v.isString()) return invalidData("'" + where + key + "' must be a string");
    out = v.toString().toStdString();
    return Status::ok();
}

Status readNumber(const QJsonObject& o, const char* key, const std::string& where, double& out) {
    if (!o.contains(QLatin1String(key))) return Status::ok();
    QJsonValue v = o.value(QLatin1String(key));
    if (v.isNull()) {
        out = std::nan("");  // how NaN is written (JSON has no NaN)
        return Status::ok();
    }
    if (!v.isDouble()) return invalidData("'" + where + key + "' must be a number");
    out = v.toDouble();
    return Status::ok();
}

QJsonValue number(double v) {
    return std::isfinite(v) ? QJsonValue(v) : QJsonValue();
}

QJsonValue dataFileToJson(const std::optional<app::LoadRequest>& request) {
    if (!request) return QJsonValue();
    QJsonValue shape;
    if (request->shape) {
        QJsonArray dims;
        for (std::size_t n : *request->shape)
            dims.append(static_cast<double>(n));
        shape = dims;
    }
    QJsonObject o{{QStringLiteral("path"), q(request->path.string())},
                  {QStringLiteral("format"), q(request->format)},
                  {QStringLiteral("shape"), shape},
                  {QStringLiteral("first_degrees"), request->firstDegrees},
                  {QStringLiteral("end_degrees"), request->endDegrees},
                  {QStringLiteral("angle_unit"), QLatin1String(angleUnitName(request->angleUnit))},
                  {QStringLiteral("minus_log"), request->minusLog}};
    if (!request->preprocessing.empty())
        o.insert(QStringLiteral("preprocessing"), preprocessingToJson(request->preprocessing));
    return o;
}

/// "data.file": null or absent = no file; InvalidData naming the field otherwise.
Result<std::optional<app::LoadRequest>> dataFileFromJson(const QJsonValue& value) {
    if (value.isUndefined() || value.isNull()) return std::optional<app::LoadRequest>();
    if (!value.isObject()) return invalidData("'data.file' must be an object or null");
    const QJsonObject o = value.toObject();
    const std::string where = "data.file.";
    app::LoadRequest request;
    std::string path;
    TOMO_RETURN_IF_ERROR(readString(o, "path", where, path));
    if (path.empty()) return invalidData("'data.file.path' must name the data file");
    request.path = path;
    TOMO_RETURN_IF_ERROR(readString(o, "format", where, request.format));
    const QJsonValue shape = o.value(QStringLiteral("shape"));
    if (!shape.isUndefined() && !shape.isNull()) {
        const QJsonArray dims = shape.toArray();  // empty when not an array
        if (dims.size() != 3)
            return invalidData("'data.file.shape' must be [slices, angles, detectors]");
        std::array<std::size_t, 3> n{};
        for (int i = 0; i < 3; ++i) {
            const double v = dims[i].toDouble(-1.0);
            if (!(v >= 1.0 && v <= 9.0e15) || v != std::floor(v))
                return invalidData("'data.file.shape' must hold 3 positive integers");
            n[static_cast<std::size_t>(i)] = static_cast<std::size_t>(v);
        }
        request.shape = n;
    }
    TOMO_RETURN_IF_ERROR(readNumber(o, "first_degrees", where, request.firstDegrees));
    TOMO_RETURN_IF_ERROR(readNumber(o, "end_degrees", where, request.endDegrees));
    if (!std::isfinite(request.firstDegrees) || !std::isfinite(request.endDegrees))
        return invalidData("'data.file' angle range must be finite numbers of degrees");
    std::string unit = angleUnitName(request.angleUnit);
    TOMO_RETURN_IF_ERROR(readString(o, "angle_unit", where, unit));
    Result<AngleUnit> parsed = parseAngleUnit(unit);
    if (!parsed) return invalidData("'data.file.angle_unit': " + parsed.status().message());
    request.angleUnit = *parsed;
    if (const QJsonValue log = o.value(QStringLiteral("minus_log")); !log.isUndefined()) {
        if (!log.isBool()) return invalidData("'data.file.minus_log' must be true or false");
        request.minusLog = log.toBool();
    }
    TOMO_ASSIGN_OR_RETURN(
        request.preprocessing,
        preprocessingFromJson(o.value(QStringLiteral("preprocessing")), "data.file.preprocessing"));
    return std::optional<app::LoadRequest>(std::move(request));
}

template <typename T, std::size_t N>
QJsonValue arrayOrNull(const std::optional<std::array<T, N>>& values) {
    if (!values) return QJsonValue();
    QJsonArray out;
    for (T v : *values)
        out.append(static_cast<double>(v));
    return out;
}

/// An optional array of @p N positive numbers (integers when @p integers) at @p key of @p o.
template <typename T, std::size_t N>
Status readArray(const QJsonObject& o, const char* key, bool integers,
                 std::optional<std::array<T, N>>& out) {
    const QJsonValue value = o.value(QLatin1String(key));
    if (value.isUndefined() || value.isNull()) return Status::ok();
    const QJsonArray a = value.toArray();
    const std::string field = std::string("'data.cone.") + key + "'";
    if (a.size() != static_cast<qsizetype>(N))
        return invalidData(field + " must hold " + std::to_string(N) + " numbers");
    std::array<T, N> values{};
    for (std::size_t i = 0; i < N; ++i) {
        const double v = a[static_cast<qsizetype>(i)].toDouble(-1.0);
        if (!(v > 0 && v <= 9.0e15) || (integers && v != std::floor(v)))
            return invalidData(field + " must hold positive " +
                               (integers ? "integers" : "numbers"));
        values[i] = static_cast<T>(v);
    }
    out = values;
    return Status::ok();
}

/// @p path relative to @p folder when it lies under it (generic separators), else unchanged.
std::string relativeIfUnder(const std::string& path, const std::filesystem::path& folder) {
    if (path.empty()) return path;
    std::error_code ec;
    const std::filesystem::path absolute = std::filesystem::absolute(path, ec).lexically_normal();
    if (ec) return path;
    const std::filesystem::path relative = absolute.lexically_relative(folder);
    if (relative.empty() || *relative.begin() == "..") return path;
    return relative.generic_string();
}

/// A relative @p path resolved against @p folder; absolute and empty paths unchanged.
std::string resolveAgainst(const std::string& path, const std::filesystem::path& folder) {
    if (path.empty() || std::filesystem::path(path).is_absolute()) return path;
    return (folder / path).lexically_normal().string();
}

/// The folder of @p file, absolute and normalised (where relative data paths start).
std::filesystem::path sessionFolder(const std::filesystem::path& file) {
    std::error_code ec;
    std::filesystem::path absolute = std::filesystem::absolute(file, ec);
    return (ec ? file : absolute).lexically_normal().parent_path();
}

Status writeJson(const std::filesystem::path& file, const QJsonObject& o) {
    QByteArray bytes = QJsonDocument(o).toJson(QJsonDocument::Indented);
    return writeFileAtomic(file, bytes.constData(), static_cast<std::size_t>(bytes.size()));
}

Result<QJsonObject> readJson(const std::filesystem::path& file, const char* format) {
    QFile f(q(file.string()));
    if (!f.open(QIODevice::ReadOnly)) return notFound(file.string() + ": cannot open");
    QJsonParseError error;
    QJsonDocument doc = QJsonDocument::fromJson(f.readAll(), &error);
    if (doc.isNull())
        return invalidData(file.string() + ": not JSON (" + error.errorString().toStdString() +
                           " at offset " + std::to_string(error.offset) + ")");
    if (!doc.isObject() ||
        doc.object().value(QStringLiteral("format")).toString() != QLatin1String(format))
        return invalidData(file.string() + ": not a " + format + " file");
    return doc.object();
}

QJsonObject samplingToJson(const app::Sampling& s) {
    return QJsonObject{{QStringLiteral("image_size"), s.grid.size},
                       {QStringLiteral("pixel_size"), s.grid.pixelSize},
                       {QStringLiteral("center_x"), s.grid.centerX},
                       {QStringLiteral("center_y"), s.grid.centerY},
                       {QStringLiteral("angle_step"), s.angleStep}};
}

/// An integer in [@p low, @p high] at @p key of "sampling" (absent: @p out stays).
Status readInteger(const QJsonObject& o, const char* key, int low, int high, int& out) {
    if (!o.contains(QLatin1String(key))) return Status::ok();
    const double v = o.value(QLatin1String(key)).toDouble(std::nan(""));
    if (!(v >= low && v <= high) || v != std::floor(v))
        return invalidData(std::string("'sampling.") + key + "' must be a whole number from " +
                           std::to_string(low) + " to " + std::to_string(high));
    out = static_cast<int>(v);
    return Status::ok();
}

/// "sampling": absent or null = the defaults (a version 1 file); InvalidData naming the field
/// for a value the Region and sampling box cannot show.
Result<app::Sampling> samplingFromJson(const QJsonValue& value) {
    app::Sampling s;
    if (value.isUndefined() || value.isNull()) return s;
    if (!value.isObject()) return invalidData("'sampling' must be an object or null");
    const QJsonObject o = value.toObject();
    TOMO_RETURN_IF_ERROR(readInteger(o, "image_size", 0, 16384, s.grid.size));
    TOMO_RETURN_IF_ERROR(readInteger(o, "angle_step", 1, 64, s.angleStep));
    for (auto [key, out] :
         {std::pair{"pixel_size", &s.grid.pixelSize}, std::pair{"center_x", &s.grid.centerX},
          std::pair{"center_y", &s.grid.centerY}}) {
        const QJsonValue v = o.value(QLatin1String(key));
        if (v.isUndefined()) continue;
        if (!v.isDouble() || !std::isfinite(v.toDouble()))
            return invalidData(std::string("'sampling.") + key + "' must be a number");
        *out = v.toDouble();
    }
    if (s.grid.pixelSize < 0) return invalidData("'sampling.pixel_size' must be 0 or positive");
    return s;
}

}  // namespace

QJsonObject coneToJson(const ConeSession& c) {
    const bool grid = c.grid[0] > 0;
    return QJsonObject{
        {QStringLiteral("projections"), q(c.projections)},
        {QStringLiteral("geometry"), q(c.geometry)},
        {QStringLiteral("truth"), q(c.truth)},
        {QStringLiteral("pitch"), arrayOrNull(c.pitch)},
        {QStringLiteral("shape"), arrayOrNull(c.shape)},
        {QStringLiteral("grid"), arrayOrNull(grid ? std::optional(c.grid) : std::nullopt)},
        {QStringLiteral("grid_spacing"), grid ? QJsonValue(c.gridSpacing) : QJsonValue()}};
}

Result<ConeSession> coneFromJson(const QJsonValue& value) {
    if (!value.isObject()) return invalidData("'data.cone' must be an object or null");
    const QJsonObject o = value.toObject();
    const std::string where = "data.cone.";
    ConeSession c;
    TOMO_RETURN_IF_ERROR(readString(o, "projections", where, c.projections));
    TOMO_RETURN_IF_ERROR(readString(o, "geometry", where, c.geometry));
    if (c.projections.empty() || c.geometry.empty())
        return invalidData("'data.cone' must name the projections and the geometry file");
    TOMO_RETURN_IF_ERROR(readString(o, "truth", where, c.truth));
    TOMO_RETURN_IF_ERROR(readArray(o, "pitch", false, c.pitch));
    TOMO_RETURN_IF_ERROR(readArray(o, "shape", true, c.shape));
    std::optional<std::array<int, 3>> grid;
    TOMO_RETURN_IF_ERROR(readArray(o, "grid", true, grid));
    if (grid) {
        c.grid = *grid;
        double spacing = 0;
        TOMO_RETURN_IF_ERROR(readNumber(o, "grid_spacing", where, spacing));
        if (!(spacing > 0)) return invalidData("'data.cone.grid_spacing' must be positive");
        c.gridSpacing = spacing;
    }
    return c;
}

QJsonObject sessionToJson(const SessionState& s) {
    QJsonObject data{{QStringLiteral("path"), q(s.dataPath)},
                     {QStringLiteral("demo_size"), s.demoSize},
                     {QStringLiteral("center_of_rotation"), number(s.centerOfRotation)}};
    if (s.dataFile) data.insert(QStringLiteral("file"), dataFileToJson(s.dataFile));
    if (s.cone) data.insert(QStringLiteral("cone"), coneToJson(*s.cone));
    if (!s.folderPreprocessing.empty())
        data.insert(QStringLiteral("preprocessing"), preprocessingToJson(s.folderPreprocessing));
    QJsonObject parameters;
    for (const auto& [algorithm, values] : s.parameters)
        parameters.insert(q(algorithm), mapToJson(values));
    QJsonObject fbp{{QStringLiteral("filter"), q(s.fbpFilter)},
                    {QStringLiteral("cutoff"), s.fbpCutoff},
                    {QStringLiteral("variant"), q(s.variant)}};
    QJsonObject view{{QStringLiteral("color_map"), q(s.colorMap)},
                     {QStringLiteral("window"), s.window},
                     {QStringLiteral("level"), s.level},
                     {QStringLiteral("panel"), q(s.panel)}};
    return QJsonObject{{QStringLiteral("format"), QLatin1String(kSessionFormat)},
                       {QStringLiteral("version"), 2},
                       {QStringLiteral("data"), data},
                       {QStringLiteral("sampling"), samplingToJson(s.sampling)},
                       {QStringLiteral("algorithm"), q(s.algorithm)},
                       {QStringLiteral("parameters"), parameters},
                       {QStringLiteral("fbp"), fbp},
                       {QStringLiteral("view"), view}};
}

Result<SessionState> sessionFromJson(const QJsonObject& json) {
    const int version = json.value(QStringLiteral("version")).toInt();
    if (version != 1 && version != 2)
        return invalidData("session: unsupported 'version' (expected 1 or 2)");
    SessionState s;
    QJsonObject data = json.value(QStringLiteral("data")).toObject();
    TOMO_RETURN_IF_ERROR(readString(data, "path", "data.", s.dataPath));
    double demoSize = 0;
    TOMO_RETURN_IF_ERROR(readNumber(data, "demo_size", "data.", demoSize));
    s.demoSize = std::isfinite(demoSize) ? static_cast<int>(demoSize) : 0;
    TOMO_RETURN_IF_ERROR(readNumber(data, "center_of_rotation", "data.", s.centerOfRotation));
    TOMO_ASSIGN_OR_RETURN(s.dataFile, dataFileFromJson(data.value(QStringLiteral("file"))));
    if (const QJsonValue cone = data.value(QStringLiteral("cone"));
        !cone.isUndefined() && !cone.isNull()) {
        TOMO_ASSIGN_OR_RETURN(ConeSession c, coneFromJson(cone));
        s.cone = std::move(c);
    }
    TOMO_ASSIGN_OR_RETURN(
        s.folderPreprocessing,
        preprocessingFromJson(data.value(QStringLiteral("preprocessing")), "data.preprocessing"));
    TOMO_ASSIGN_OR_RETURN(s.sampling, samplingFromJson(json.value(QStringLiteral("sampling"))));
    TOMO_RETURN_IF_ERROR(readString(json, "algorithm", "", s.algorithm));
    QJsonObject parameters = json.value(QStringLiteral("parameters")).toObject();
    for (auto it = parameters.begin(); it != parameters.end(); ++it) {
        TOMO_ASSIGN_OR_RETURN(auto values,
                              mapFromJson(it.value(), "parameters." + it.key().toStdString()));
        s.parameters[it.key().toStdString()] = std::move(values);
    }
    QJsonObject fbp = json.value(QStringLiteral("fbp")).toObject();
    TOMO_RETURN_IF_ERROR(readString(fbp, "filter", "fbp.", s.fbpFilter));
    TOMO_RETURN_IF_ERROR(readNumber(fbp, "cutoff", "fbp.", s.fbpCutoff));
    TOMO_RETURN_IF_ERROR(readString(fbp, "variant", "fbp.", s.variant));
    QJsonObject view = json.value(QStringLiteral("view")).toObject();
    TOMO_RETURN_IF_ERROR(readString(view, "color_map", "view.", s.colorMap));
    TOMO_RETURN_IF_ERROR(readNumber(view, "window", "view.", s.window));
    TOMO_RETURN_IF_ERROR(readNumber(view, "level", "view.", s.level));
    TOMO_RETURN_IF_ERROR(readString(view, "panel", "view.", s.panel));
    return s;
}

Status saveSessionFile(const std::filesystem::path& file, const SessionState& state) {
    const std::filesystem::path folder = sessionFolder(file);
    SessionState stored = state;
    stored.dataPath = relativeIfUnder(stored.dataPath, folder);
    if (stored.dataFile)
        stored.dataFile->path = relativeIfUnder(stored.dataFile->path.string(), folder);
    if (stored.cone)
        for (std::string* path :
             {&stored.cone->projections, &stored.cone->geometry, &stored.cone->truth})
            *path = relativeIfUnder(*path, folder);
    return writeJson(file, sessionToJson(stored)).withContext("saving session " + file.string());
}

Result<SessionState> loadSessionFile(const std::filesystem::path& file) {
    TOMO_ASSIGN_OR_RETURN(QJsonObject json, readJson(file, kSessionFormat));
    Result<SessionState> state = sessionFromJson(json);
    if (!state) return state.status().withContext(file.string());
    const std::filesystem::path folder = sessionFolder(file);
    state->dataPath = resolveAgainst(state->dataPath, folder);
    if (state->dataFile)
        state->dataFile->path = resolveAgainst(state->dataFile->path.string(), folder);
    if (state->cone)
        for (std::string* path :
             {&state->cone->projections, &state->cone->geometry, &state->cone->truth})
            *path = resolveAgainst(*path, folder);
    return state;
}

Status savePresetFile(const std::filesystem::path& file, const Preset& preset) {
    QJsonObject o{{QStringLiteral("format"), QLatin1String(kPresetFormat)},
                  {QStringLiteral("algorithm"), q(preset.algorithm)},
                  {QStringLiteral("parameters"), mapToJson(preset.parameters)}};
    return writeJson(file, o).withContext("saving preset " + file.string());
}

Result<Preset> loadPresetFile(const std::filesystem::path& file) {
    TOMO_ASSIGN_OR_RETURN(QJsonObject json, readJson(file, kPresetFormat));
    Preset p;
    TOMO_RETURN_IF_ERROR(readString(json, "algorithm", "", p.algorithm).withContext(file.string()));
    auto values = mapFromJson(json.value(QStringLiteral("parameters")), "parameters");
    if (!values) return values.status().withContext(file.string());
    p.parameters = std::move(*values);
    return p;
}

}  // namespace tomo::ui
