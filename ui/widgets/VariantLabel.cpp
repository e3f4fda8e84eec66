#include "ui/widgets/VariantLabel.h"

#include <QCoreApplication>
#include <QRegularExpression>
#include <QStringList>

namespace tomo::ui {
namespace {

QString tr(const char* text) {
    return QCoreApplication::translate("VariantLabel", text);
}

QString param(const BackProjectorInfo& info, const char* key) {
    auto it = info.parameters.find(key);
    return it == info.parameters.end() ? QString() : QString::fromStdString(it->second);
}

QString isaName(const QString& isa) {
    if (isa == QLatin1String("avx512")) return QStringLiteral("AVX-512");
    if (isa == QLatin1String("avx2")) return QStringLiteral("AVX2");
    if (isa == QLatin1String("generic")) return tr("portable code (no AVX)");
    return isa;
}

/// The kind of kernel: "SIMD, AVX2", "scalar (no SIMD)", "ALU", "hybrid ALU + texture".
QString kindOf(const BackProjectorInfo& info) {
    const QStringList id = QString::fromStdString(info.id).split(QLatin1Char('.'));
    const QString family = QString::fromStdString(info.family);
    if (family == QLatin1String("reference")) return tr("double-precision reference");
    if (family == QLatin1String("cpu")) {
        if (id.value(1) == QLatin1String("scalar")) return tr("scalar (no SIMD)");
        const QString isa = isaName(param(info, "isa"));
        const bool best =
            id.value(1) == QLatin1String("simd") &&
            (id.value(2) == QLatin1String("lin") || id.value(2) == QLatin1String("nn"));
        QString kind =
            best ? tr("SIMD, the best of this CPU (%1)").arg(isa) : tr("SIMD, %1").arg(isa);
        if (id.value(1) == QLatin1String("simd1")) kind += tr(", across pixels");
        return kind;
    }
    if (family == QLatin1String("alu")) return QStringLiteral("ALU");
    if (family == QLatin1String("hybrid")) return tr("hybrid ALU + texture");
    return family;
}

/// What sets a GPU kernel apart from its siblings, in words.
QStringList traitsOf(const BackProjectorInfo& info) {
    QStringList traits;
    const QString family = QString::fromStdString(info.family);
    const int phases = param(info, "projectionPhases").toInt();
    if (phases > 1)
        traits << tr("cache-aware, %1 px per thread").arg(param(info, "pixelsPerThread"));
    else if (param(info, "mapping") == QLatin1String("zorder"))
        traits << tr("Z-order threads");
    const QString constants = param(info, "constants");
    if (constants.startsWith(QLatin1String("shared")) ||
        constants.startsWith(QLatin1String("local")))
        traits << tr("constants on chip");
    if (family == QLatin1String("oversampling")) {
        traits << tr("%1 samples per bin").arg(param(info, "samplesPerBin"));
        if (!param(info, "fill").isEmpty()) traits << tr("samples from the filtering unit");
        if (!param(info, "tile").isEmpty()) traits << tr("tile %1").arg(param(info, "tile"));
    }
    if (family == QLatin1String("alu") || family == QLatin1String("hybrid")) {
        if (!param(info, "tile").isEmpty()) traits << tr("tile %1").arg(param(info, "tile"));
        if (family == QLatin1String("alu"))
            traits << tr("%1 px per thread").arg(param(info, "pixelsPerThread"));
        if (!param(info, "ratio").isEmpty())
            traits << tr("ALU:texture %1").arg(param(info, "ratio"));
    }
    if (param(info, "acm") == QLatin1String("1")) traits << tr("advanced caching");
    if (param(info, "hxCache") == QLatin1String("1")) traits << tr("step cache");
    const QString rounding = param(info, "rounding");
    if (rounding == QLatin1String("fp-balanced")) traits << tr("float rounding");
    if (rounding == QLatin1String("fp-full")) traits << tr("float rounding and offsets");
    if (param(info, "cache") == QLatin1String("binary16")) traits << tr("half-precision cache");
    if (info.precision == "half") traits << tr("half-precision sinogram");
    if (param(info, "minBlocksPerSm") == QLatin1String("1")) traits << tr("1 block per SM");
    if (!param(info, "accumulation").isEmpty())
        traits << tr("%1 accumulation").arg(param(info, "accumulation"));
    return traits;
}

}  // namespace

QString variantLabel(const BackProjectorInfo& info) {
    static const std::map<std::string, QString> backends{{"cpu", QStringLiteral("CPU")},
                                                         {"opencl", QStringLiteral("OpenCL")},
                                                         {"cuda", QStringLiteral("CUDA")}};
    auto backend = backends.find(info.backend);
    QStringList parts{
        (backend == backends.end() ? QString::fromStdString(info.backend) : backend->second) +
        QLatin1Char(' ') + kindOf(info)};
    parts << (info.slicesPerPass == 1 ? tr("1 slice per pass")
                                      : tr("%1 slices per pass").arg(info.slicesPerPass));
    parts << traitsOf(info);
    if (!info.exact) parts << tr("approximate");
    return parts.join(QStringLiteral(", ")) +
           QStringLiteral(" [%1]").arg(QString::fromStdString(info.id));
}

QString variantTooltip(const BackProjectorInfo& info) {
    // The registry's one-line description without the papers' algorithm and section numbers.
    QString description = QString::fromStdString(info.description);
    static const QRegularExpression references(
        QStringLiteral("\\s*\\((?:Alg\\.|sec\\.|the paper's)[^)]*\\)|;\\s*sec\\.\\s*[0-9.]+|"
                       "^Alg\\.\\s*[0-9]+\\s*"));
    description.remove(references);
    if (!description.isEmpty()) description[0] = description[0].toUpper();
    return QStringLiteral("%1\n%2\n%3")
        .arg(QString::fromStdString(info.id), description,
             info.exact ? tr("Exact: no approximation in the interpolation.")
                        : tr("Approximate: faster, with a small error against the exact "
                             "variants."));
}

}  // namespace tomo::ui
