// Results a user can tell apart (issue 28, point 6): two FBPs of a beamline scan that differ only
// in the centre of rotation, then two SIRTs that differ only in the iteration count. The Compare
// tab's boxes name each result by a running number and what differs from the result it follows
// (its own algorithm's previous result, or the algorithm's defaults), and hovering an entry shows
// the whole request.
#include <gtest/gtest.h>

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QPushButton>
#include <QSpinBox>

#include "tests/ui/BeamlineFixture.h"
#include "ui/panels/CenterPanel.h"

namespace tomo::ui {
namespace {

#if TOMO_WITH_HDF5

QStringList itemsOf(const QComboBox* box) {
    QStringList items;
    for (int i = 0; i < box->count(); ++i)
        items << box->itemText(i);
    return items;
}

TEST(ResultNames, NamesSayWhatDiffersAndTheTooltipTheWholeRequest) {
    test::BeamlineFixture f;
    CenterPanel* center = f.window->centerPanel();
    test::typeInto(test::child<QDoubleSpinBox>(center, QStringLiteral("centerSpin")),
                   QStringLiteral("67.50"));
    f.clickAndWait(test::child<QPushButton>(center, QStringLiteral("applyCenter")), 1);

    auto* box = test::child<QComboBox>(f.window.get(), QStringLiteral("compareChoice1"));
    QStringList items = itemsOf(box);
    // (none), the two results, the truth, the difference.
    ASSERT_EQ(items.size(), 5) << items.join(QLatin1Char('|')).toStdString();
    EXPECT_EQ(items[1], QStringLiteral("Latest: #2 FBP: centre 67.5 px"));
    EXPECT_EQ(items[2], QStringLiteral("#1 FBP: defaults"));
    // The whole request on hover: the filter, the back-projector, the centre, the grid, ...
    const QString request = box->itemData(1, Qt::ToolTipRole).toString();
    for (const char* part : {"FBP\n", "filter ramp", "cutoff 1", "back-projector ",
                             "centre 67.5 px", "grid 129x129x2", "180 angles", "preprocessing: "})
        EXPECT_TRUE(request.contains(QLatin1String(part))) << part << " in\n"
                                                           << request.toStdString();
    EXPECT_TRUE(
        box->itemData(2, Qt::ToolTipRole).toString().contains(QStringLiteral("centre 64 px")));

    // Two SIRTs that differ only in their iteration count.
    test::choose(test::child<QComboBox>(f.window.get(), QStringLiteral("algorithm")),
                 QStringLiteral("SIRT"));
    auto* iterations = test::child<QSpinBox>(f.window.get(), QStringLiteral("iterations"));
    for (const char* count : {"6", "9"}) {
        test::typeInto(iterations, QLatin1String(count));
        f.clickAndWait(f.window->runButton(), 1);
    }
    items = itemsOf(box);
    ASSERT_EQ(items.size(), 7) << items.join(QLatin1Char('|')).toStdString();
    EXPECT_EQ(items[1], QStringLiteral("Latest: #4 SIRT: iterations 9"));
    EXPECT_EQ(items[2], QStringLiteral("#3 SIRT: iterations 6"));
    EXPECT_EQ(box->itemData(1, Qt::ToolTipRole).toString().count(QStringLiteral("iterations 9")),
              1);
    // Every result's name is unique.
    EXPECT_EQ(QSet<QString>(items.begin(), items.end()).size(), items.size());
}

#endif  // TOMO_WITH_HDF5

}  // namespace
}  // namespace tomo::ui
