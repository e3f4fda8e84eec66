// Choosing how to reconstruct, as a user reads the Parameters dock: the back-projector box
// starts at "Automatic (<the engine's choice>)" with the reason as its tooltip, lists only the
// chosen interpolation's variants, each as backend, family, slices, precision and exactness;
// the iterative form explains its choice parameters in visible text.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include <QComboBox>
#include <QLabel>

#include "app/Backends.h"
#include "tests/ui/UiTestSupport.h"
#include "ui/panels/AlgorithmPanel.h"
#include "ui/panels/ParameterForm.h"
#include "ui/widgets/ReconParamsPanel.h"

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
    EXPECT_EQ(variants->currentText(),
              QStringLiteral("Automatic (%1)").arg(QString::fromStdString(automatic)));
    EXPECT_EQ(panel.variantId(), "");  // the engine decides per job shape
    EXPECT_FALSE(variants->itemData(0, Qt::ToolTipRole).toString().isEmpty());
    const std::vector<BackProjectorInfo> all = engine.registry().list();
    for (int interp = 0; interp < interpolation->count(); ++interp) {
        interpolation->setCurrentIndex(interp);
        const bool linear = interpolation->currentData().toString() == QStringLiteral("linear");
        int listed = 0;
        for (int i = 1; i < variants->count(); ++i) {
            const std::string id = variants->itemData(i).toString().toStdString();
            auto info = std::find_if(all.begin(), all.end(),
                                     [&](const BackProjectorInfo& b) { return b.id == id; });
            ASSERT_NE(info, all.end()) << id;
            EXPECT_EQ(info->interpolation == Interpolation::Linear, linear) << id;
            EXPECT_EQ(variants->itemText(i), variantLabel(*info));
            EXPECT_TRUE(variants->itemText(i).contains(
                info->exact ? QStringLiteral("exact") : QStringLiteral("approximate")));
            ++listed;
        }
        EXPECT_GT(listed, 0);
    }
    BackProjectorInfo info;
    info.backend = "opencl";
    info.family = "alu";
    info.slicesPerPass = 4;
    info.precision = "half";
    info.exact = false;
    EXPECT_EQ(variantLabel(info), QStringLiteral("OpenCL Alu, 4 slice(s), half, approximate"));
}

TEST(ParameterChoice, IterativeChoicesAreExplainedInVisibleText) {
    const app::Engine engine;
    AlgorithmPanel panel(engine.registry());
    ASSERT_TRUE(panel.setAlgorithm("sirt"));
    auto* help = panel.form()->findChild<QLabel*>(QStringLiteral("projectorHelp"));
    ASSERT_NE(help, nullptr);
    EXPECT_TRUE(help->text().contains(QStringLiteral("matched")));
    EXPECT_NE(panel.form()->findChild<QLabel*>(QStringLiteral("orderingHelp")), nullptr);
}

}  // namespace
}  // namespace tomo::ui
