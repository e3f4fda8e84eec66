#include "ui/session/PreprocessJson.h"

#include <cmath>
#include <optional>
#include <type_traits>
#include <vector>

#include <QJsonArray>

namespace tomo::ui {

namespace {

/// 'FIELD' (built by appending: GCC 12 warns falsely on "'" + a temporary string).
std::string quotedField(const std::string& field) {
    std::string out = "'";
    out += field;
    out += "'";
    return out;
}

QJsonValue rangeToJson(const IndexRange& r) {
    return QJsonArray{static_cast<double>(r.first),
                      r.count == IndexRange::kAll ? QJsonValue() : static_cast<double>(r.count)};
}

QJsonArray listToJson(const std::vector<double>& values) {
    QJsonArray out;
    for (double v : values)
        out.append(v);
    return out;
}

/// Reads the members of one JSON object, checking types; the first error is kept and names the
/// field (later reads do nothing).
class Fields {
  public:
    Fields(const QJsonValue& value, std::string where) : m_where(std::move(where)) {
        if (!value.isUndefined() && !value.isNull() && !value.isObject())
            m_status = invalidData(quotedField(m_where) + " must be an object or null");
        m_object = value.toObject();
    }
    bool has(const char* key) const {
        const QJsonValue v = m_object.value(QLatin1String(key));
        return !v.isUndefined() && !v.isNull();
    }
    QJsonValue value(const char* key) const { return m_object.value(QLatin1String(key)); }
    std::string field(const char* key) const { return m_where + "." + key; }
    void number(const char* key, double& out) {
        if (!m_status || !has(key)) return;
        if (!value(key).isDouble()) return fail(key, "a number");
        out = value(key).toDouble();
    }
    void number(const char* key, float& out) {
        double v = out;
        number(key, v);
        out = static_cast<float>(v);
    }
    template <typename T>
    void integer(const char* key, T& out) {
        double v = static_cast<double>(out);
        number(key, v);
        if (!m_status || !has(key)) return;
        const double lowest = std::is_unsigned_v<T> ? 0.0 : -2.0e9;
        if (v != std::floor(v) || v < lowest || v > 9.0e15) return fail(key, "an integer");
        out = static_cast<T>(v);
    }
    void boolean(const char* key, bool& out) {
        if (!m_status || !has(key)) return;
        if (!value(key).isBool()) return fail(key, "true or false");
        out = value(key).toBool();
    }
    void text(const char* key, std::string& out) {
        if (!m_status || !has(key)) return;
        if (!value(key).isString()) return fail(key, "a string");
        out = value(key).toString().toStdString();
    }
    void range(const char* key, IndexRange& out) {
        if (!m_status || !has(key)) return;
        const QJsonArray a = value(key).toArray();
        const double first = a.size() == 2 ? a[0].toDouble(-1.0) : -1.0;
        const bool all = a.size() == 2 && a[1].isNull();
        const double count = all ? 0.0 : (a.size() == 2 ? a[1].toDouble(-1.0) : -1.0);
        if (first < 0 || count < 0 || first != std::floor(first) || count != std::floor(count))
            return fail(key, "[first, count or null]");
        out = {static_cast<std::size_t>(first),
               all ? IndexRange::kAll : static_cast<std::size_t>(count)};
    }
    void list(const char* key, std::vector<double>& out) {
        if (!m_status || !has(key)) return;
        if (!value(key).isArray()) return fail(key, "an array of numbers");
        out.clear();
        for (const QJsonValue v : value(key).toArray()) {
            if (!v.isDouble()) return fail(key, "an array of numbers");
            out.push_back(v.toDouble());
        }
    }
    void fail(const char* key, const char* what) {
        m_status = invalidData(quotedField(field(key)) + " must be " + what);
    }
    void fail(Status status) {
        if (m_status && !status) m_status = std::move(status);
    }
    const Status& status() const { return m_status; }

  private:
    QJsonObject m_object;
    std::string m_where;
    Status m_status = Status::ok();
};

void readSteps(Fields& f, PreprocessOptions& o) {
    f.range("angle_range", o.angleRange);
    f.integer("angle_step", o.angleStep);
    f.range("crop_rows", o.cropRows);
    f.range("crop_columns", o.cropColumns);
    f.integer("bin_rows", o.binRows);
    f.integer("bin_columns", o.binColumns);
    f.boolean("flat_dark", o.flatDark);
    f.list("projection_positions", o.flatField.projectionPositions);
    f.list("flat_positions", o.flatField.flatPositions);
    f.number("min_denominator", o.flatField.minDenominator);
    if (f.has("flats_before")) f.integer("flats_before", o.flatsBefore.emplace());
    f.boolean("minus_log", o.minusLog);
    f.number("log_epsilon", o.logEpsilon);
}

void readZingersAndPaganin(Fields& f, const std::string& where, PreprocessOptions& o) {
    if (f.status() && f.has("zingers")) {
        Fields z(f.value("zingers"), where + ".zingers");
        ZingerOptions& zo = o.zingers.emplace();
        z.integer("size", zo.size);
        z.number("threshold", zo.threshold);
        bool absolute = zo.mode == ThresholdMode::Absolute;
        bool lineIntegral = false, brightOnly = false;  // bright_only: sessions before "sign"
        z.boolean("absolute", absolute);
        z.boolean("line_integral", lineIntegral);
        z.boolean("bright_only", brightOnly);
        zo.mode = lineIntegral ? ThresholdMode::LineIntegral
                  : absolute   ? ThresholdMode::Absolute
                               : ThresholdMode::Relative;
        std::string sign = brightOnly ? "bright" : "both";
        z.text("sign", sign);
        if (auto known = outlierSignFromName(sign))
            zo.sign = *known;
        else if (z.status())
            z.fail("sign", "\"both\", \"bright\" or \"dark\"");
        f.fail(z.status());
    }
    if (f.status() && f.has("paganin")) {
        Fields p(f.value("paganin"), where + ".paganin");
        PaganinOptions& po = o.paganin.emplace();
        p.number("energy_kev", po.energyKeV);
        p.number("distance_mm", po.distanceMm);
        p.number("pixel_size_um", po.pixelSizeUm);
        p.number("delta_over_beta", po.deltaOverBeta);
        f.fail(p.status());
    }
}

void readRings(Fields& f, PreprocessOptions& o) {
    std::string method = ringMethodName(o.rings);
    f.text("rings", method);
    if (!f.status()) return;
    Result<RingMethod> parsed = parseRingMethod(method);
    if (!parsed)
        return f.fail(
            invalidData(quotedField(f.field("rings")) + ": " + parsed.status().message()));
    o.rings = *parsed;
    f.integer("sorting_size", o.sorting.size);
    f.number("sorting_snr", o.sorting.snr);
    f.integer("fw_levels", o.fourierWavelet.levels);
    f.number("fw_sigma", o.fourierWavelet.sigma);
    f.text("fw_wavelet", o.fourierWavelet.wavelet);
    f.number("fw_snr", o.fourierWavelet.snr);
}

}  // namespace

QJsonObject preprocessingToJson(const PreprocessOptions& o) {
    QJsonObject out{
        {QStringLiteral("angle_range"), rangeToJson(o.angleRange)},
        {QStringLiteral("angle_step"), static_cast<double>(o.angleStep)},
        {QStringLiteral("crop_rows"), rangeToJson(o.cropRows)},
        {QStringLiteral("crop_columns"), rangeToJson(o.cropColumns)},
        {QStringLiteral("bin_rows"), o.binRows},
        {QStringLiteral("bin_columns"), o.binColumns},
        {QStringLiteral("flat_dark"), o.flatDark},
        {QStringLiteral("projection_positions"), listToJson(o.flatField.projectionPositions)},
        {QStringLiteral("flat_positions"), listToJson(o.flatField.flatPositions)},
        {QStringLiteral("min_denominator"), double(o.flatField.minDenominator)},
        {QStringLiteral("minus_log"), o.minusLog},
        {QStringLiteral("log_epsilon"), double(o.logEpsilon)},
        {QStringLiteral("rings"), QLatin1String(ringMethodName(o.rings))},
        {QStringLiteral("sorting_size"), o.sorting.size},
        {QStringLiteral("sorting_snr"), o.sorting.snr},
        {QStringLiteral("fw_levels"), o.fourierWavelet.levels},
        {QStringLiteral("fw_sigma"), o.fourierWavelet.sigma},
        {QStringLiteral("fw_wavelet"), QString::fromStdString(o.fourierWavelet.wavelet)},
        {QStringLiteral("fw_snr"), o.fourierWavelet.snr}};
    if (o.flatsBefore) out.insert(QStringLiteral("flats_before"), double(*o.flatsBefore));
    if (o.zingers)
        out.insert(
            QStringLiteral("zingers"),
            QJsonObject{
                {QStringLiteral("size"), o.zingers->size},
                {QStringLiteral("threshold"), o.zingers->threshold},
                {QStringLiteral("absolute"), o.zingers->mode == ThresholdMode::Absolute},
                {QStringLiteral("line_integral"), o.zingers->mode == ThresholdMode::LineIntegral},
                {QStringLiteral("sign"), QLatin1String(outlierSignName(o.zingers->sign))}});
    if (o.paganin)
        out.insert(QStringLiteral("paganin"),
                   QJsonObject{{QStringLiteral("energy_kev"), o.paganin->energyKeV},
                               {QStringLiteral("distance_mm"), o.paganin->distanceMm},
                               {QStringLiteral("pixel_size_um"), o.paganin->pixelSizeUm},
                               {QStringLiteral("delta_over_beta"), o.paganin->deltaOverBeta}});
    return out;
}

Result<PreprocessOptions> preprocessingFromJson(const QJsonValue& value, const std::string& field) {
    PreprocessOptions o;
    Fields f(value, field);
    readSteps(f, o);
    readZingersAndPaganin(f, field, o);
    readRings(f, o);
    TOMO_RETURN_IF_ERROR(f.status());
    if (Status valid = o.validate(); !valid)
        return invalidData(quotedField(field) + ": " + valid.message());
    return o;
}

}  // namespace tomo::ui
