// Choosing how to reconstruct, as a user reads the Parameters dock: the back-projector box
// starts at "Automatic (<the engine's choice>)" with the reason as its tooltip, lists only the
// chosen interpolation's variants, each unique and true in words with its id (issue 28,
// point 7: no two entries alike, the reference says it accumulates in float64, no tooltip cites
// a paper's table or algorithm number); the iterative form explains its choice parameters in
// visible text.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <vector>

#include <QComboBox>
#include <QLabel>
#include <QSet>
#include <QTemporaryDir>

#include "app/Backends.h"
#include "app/Selection.h"
#include "tests/ui/UiTestSupport.h"
#include "ui/panels/AlgorithmPanel.h"
#include "ui/panels/ParameterForm.h"
#include "ui/widgets/ReconParamsPanel.h"
#include "ui/widgets/VariantLabel.h"

namespace tomo::ui {
namespace {

TEST(ParameterChoice, BackProjectorsAreDescribedAndFilteredByInterpolation) {
    const app::Engine engine;
    ReconParamsPanel panel(engine.registry());
    auto boxes = panel.findChildren<QComboBox*>();
    QComboBox* variants = nullptr;
    QComboBox* interpolation = nullptr;
    for (QComboBox* box : boxes) {
        if (box->toolTip().contains(QStringLiteral("Back-projector"))) variants = box;
        if (box->toolTip().contains(QStringLiteral("interpolation"))) interpolation = box;
    }
    ASSERT_TRUE(variants && interpolation);
    const std::string automatic = app::defaultVariant(engine.registry(), "auto");
    EXPECT_TRUE(variants->currentText().startsWith(
        QStringLiteral("Automatic (%1)").arg(QString::fromStdString(automatic))))
        << variants->currentText().toStdString();
    EXPECT_EQ(panel.variantId(), "");  // the engine decides per job shape
    EXPECT_FALSE(variants->itemData(0, Qt::ToolTipRole).toString().isEmpty());
    const std::vector<BackProjectorInfo> all = engine.registry().list();
    for (int interp = 0; interp < interpolation->count(); ++interp) {
        interpolation->setCurrentIndex(interp);
        const bool linear = interpolation->currentData().toString() == QStringLiteral("linear");
        int listed = 0;
        QSet<QString> seen;
        for (int i = 1; i < variants->count(); ++i) {
            const std::string id = variants->itemData(i).toString().toStdString();
            auto info = std::find_if(all.begin(), all.end(),
                                     [&](const BackProjectorInfo& b) { return b.id == id; });
            ASSERT_NE(info, all.end()) << id;
            EXPECT_EQ(info->interpolation == Interpolation::Linear, linear) << id;
            EXPECT_TRUE(variants->itemText(i).startsWith(variantLabel(*info)))
                << variants->itemText(i).toStdString();
            EXPECT_EQ(variants->itemText(i).contains(QStringLiteral("approximate")), !info->exact)
                << variants->itemText(i).toStdString();
            // The id in the label, as a run reports it.
            EXPECT_TRUE(variants->itemText(i).contains(
                QStringLiteral("[%1]").arg(QString::fromStdString(id))));
            // Unique even without the id, and in words: no paper references.
            const QString words = variants->itemText(i).section(QStringLiteral(" ["), 0, 0);
            EXPECT_FALSE(seen.contains(words)) << words.toStdString();
            seen.insert(words);
            const QString tip = variants->itemData(i, Qt::ToolTipRole).toString();
            for (const char* citation : {"paper", "Table", "Alg.", "sec. "})
                EXPECT_FALSE(tip.contains(QLatin1String(citation))) << tip.toStdString();
            EXPECT_TRUE(tip.startsWith(QString::fromStdString(id))) << tip.toStdString();
            if (info->family == "reference") {
                EXPECT_TRUE(words.contains(QStringLiteral("float64 accumulation")));
                EXPECT_FALSE(words.contains(QStringLiteral("float32")));
            }
            ++listed;
        }
        EXPECT_GT(listed, 0);
    }
    BackProjectorInfo info;
    info.id = "opencl.alu.half.lin.4s.64x64";
    info.backend = "opencl";
    info.family = "alu";
    info.slicesPerPass = 4;
    info.exact = false;
    info.parameters = {{"tile", "64x64"}, {"pixelsPerThread", "16"}, {"cache", "binary16"}};
    EXPECT_EQ(variantLabel(info),
              QStringLiteral("OpenCL ALU, 4 slices per pass, tile 64x64, 16 px per thread, "
                             "half-precision cache, approximate [opencl.alu.half.lin.4s.64x64]"));
}

TEST(ParameterChoice, IterativeChoicesAreExplainedInVisibleText) {
    const app::Engine engine;
    AlgorithmPanel panel(engine.registry());
    ASSERT_TRUE(panel.setAlgorithm("sirt"));
    auto* help = panel.form()->findChild<QLabel*>(QStringLiteral("projectorHelp"));
    ASSERT_NE(help, nullptr);
    EXPECT_TRUE(help->text().contains(QStringLiteral("matched")));
    auto* ordering = panel.form()->findChild<QLabel*>(QStringLiteral("orderingHelp"));
    ASSERT_NE(ordering, nullptr);
    // In words, not "paper 001, Table 1 (d)".
    for (const QLabel* label : {help, ordering})
        for (const char* citation : {"paper", "Table"})
            EXPECT_FALSE(label->text().contains(QLatin1String(citation)))
                << label->text().toStdString();
}

}  // namespace
}  // namespace tomo::ui

namespace tomo::ui {
namespace {

TEST(ParameterChoice, EachBackProjectorShowsTheModelsAndTheMeasuredSpeedOnItsDevice) {
    // A tune record for the CPU in a private cache: cpu.simd.lin measured at 7.5 GU/s.
    QTemporaryDir cacheDir;
    const QByteArray oldCache = qgetenv("XDG_CACHE_HOME");
    qputenv("XDG_CACHE_HOME", cacheDir.path().toUtf8());
    auto cpu = app::primaryDevice("cpu");
    ASSERT_TRUE(cpu.isOk());
    SelectionRecord record;
    record.key = app::selectionKeyFor(*cpu);
    CachedClass measured;
    measured.workloadClass = "1.medium";
    measured.imageSize = 512;
    measured.slices = 1;
    CachedCandidate candidate;
    candidate.id = "cpu.simd.lin";
    candidate.measuredGups = 7.5;
    candidate.state = "measured";
    measured.table.push_back(candidate);
    record.classes.push_back(measured);
    SelectionCache cache = SelectionCache::load(app::selectionCachePath());
    cache.put(record);
    ASSERT_TRUE(cache.save().isOk());

    const app::Engine engine;
    ReconParamsPanel panel(engine.registry());
    QComboBox* variants = nullptr;
    for (QComboBox* box : panel.findChildren<QComboBox*>())
        if (box->toolTip().contains(QStringLiteral("Back-projector"))) variants = box;
    ASSERT_NE(variants, nullptr);
    // The model's prediction, computed here independently of the panel.
    std::map<std::string, app::VariantSpeed> expected;
    for (app::VariantSpeed& v : app::variantSpeeds(*cpu, engine.registry()))
        expected[v.id] = v;
    int checked = 0;
    for (int i = 1; i < variants->count(); ++i) {
        const std::string id = variants->itemData(i).toString().toStdString();
        auto it = expected.find(id);
        if (it == expected.end() || !it->second.hasModel) continue;
        const QString model =
            QStringLiteral("model %1 GU/s").arg(it->second.predictedGups, 0, 'f', 1);
        EXPECT_TRUE(variants->itemText(i).contains(model)) << variants->itemText(i).toStdString();
        const QString measure = id == "cpu.simd.lin" ? QStringLiteral("measured 7.5 GU/s")
                                                     : QStringLiteral("not measured");
        EXPECT_TRUE(variants->itemText(i).contains(measure)) << variants->itemText(i).toStdString();
        ++checked;
    }
    EXPECT_GT(checked, 0);
    if (oldCache.isNull())
        qunsetenv("XDG_CACHE_HOME");
    else
        qputenv("XDG_CACHE_HOME", oldCache);
}

}  // namespace
}  // namespace tomo::ui
