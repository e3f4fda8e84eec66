// The ring filter's before/after window (issue 28, point 3), driven as a user drives it: on a
// DXchange scan with 4 % gain errors on every 11th detector column, Preprocessing > sorting (Vo)
// > Compare before/after...: the sinogram difference shows the stripe columns (and little
// elsewhere), the slice after the filter is closer to the phantom than the slice before, a wheel
// notch on one pane zooms its row's three panes alike, and the dataset is not changed.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QPushButton>
#include <QWheelEvent>

#include "tests/ui/BeamlineFixture.h"
#include "tests/ui/UserActions.h"
#include "ui/panels/CenterPanel.h"
#include "ui/panels/PreprocessPanel.h"
#include "ui/panels/RingPreviewWindow.h"
#include "ui/views/ImageView.h"

namespace tomo::ui {
namespace {

#if TOMO_WITH_HDF5

/// Mean |value| of column @p j of @p image.
double columnMean(View2<const float> image, std::size_t j) {
    double sum = 0;
    for (std::size_t r = 0; r < image.rows(); ++r)
        sum += std::fabs(image(r, j));
    return sum / static_cast<double>(image.rows());
}

void wheelNotch(ImageView* view) {
    const QPointF at = view->rect().center();
    QWheelEvent wheel(at, view->mapToGlobal(at), QPoint(), QPoint(0, 120), Qt::NoButton,
                      Qt::NoModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(view, &wheel);
}

TEST(RingPreview, ShowsTheStripesTheirRemovalAndTheSlicesWithPanesThatZoomTogether) {
    test::BeamlineFixture f;  // stripes of 4 % on columns 7, 18, 29, ... (every 11th)
    CenterPanel* center = f.window->centerPanel();
    test::typeInto(test::child<QDoubleSpinBox>(center, QStringLiteral("centerSpin")),
                   QString::number(f.scan.trueCenter, 'f', 2));
    f.clickAndWait(test::child<QPushButton>(center, QStringLiteral("applyCenter")), 1);
    const QString header = f.header();

    PreprocessPanel* pre = f.window->preprocessPanel();
    test::choose(test::child<QComboBox>(pre, QStringLiteral("ringMethod")),
                 QStringLiteral("sorting"));
    test::click(test::child<QPushButton>(pre, QStringLiteral("ringCompare")));
    RingPreviewWindow* window = pre->ringPreviewWindow();
    ASSERT_NE(window, nullptr);
    EXPECT_TRUE(window->isVisible());
    EXPECT_TRUE(window->summary()->text().contains(QStringLiteral("sorting (Vo)")))
        << window->summary()->text().toStdString();

    // The difference is large on the stripe columns and small between them.
    const View2<const float> diff = window->sinogramDifference()->image();
    ASSERT_EQ(diff.cols(), 129u);
    std::vector<double> stripes, others;
    for (std::size_t j = 0; j < diff.cols(); ++j)
        ((j >= 7 && (j - 7) % 11 == 0) ? stripes : others).push_back(columnMean(diff, j));
    std::sort(others.begin(), others.end());
    const double smallestStripe = *std::min_element(stripes.begin(), stripes.end());
    const double typicalOther = others[others.size() / 2];
    std::printf("sinogram |after - before|: stripe columns >= %.4g, others median %.4g\n",
                smallestStripe, typicalOther);
    EXPECT_GT(smallestStripe, 5 * typicalOther);
    // Only the stripes change, and a few columns within 2 of them (issue 28, point 3: the default
    // leaves the rest as it was); the summary counts them.
    const auto isStripe = [](std::size_t j) { return j >= 7 && (j - 7) % 11 == 0; };
    int changed = 0;
    for (std::size_t j = 0; j < diff.cols(); ++j) {
        if (columnMean(diff, j) == 0) continue;
        ++changed;
        bool nearStripe = false;  // the stripe or within 2 columns of one
        for (std::size_t k = j < 2 ? 0 : j - 2; k <= j + 2; ++k)
            nearStripe = nearStripe || isStripe(k);
        EXPECT_TRUE(nearStripe) << "column " << j;
    }
    EXPECT_GE(changed, static_cast<int>(stripes.size()));
    EXPECT_LE(changed, 2 * static_cast<int>(stripes.size()));  // measured 20 for 12 stripes
    EXPECT_TRUE(window->summary()->text().contains(
        QStringLiteral("changes %1 of 129 detector columns").arg(changed)))
        << window->summary()->text().toStdString();
    EXPECT_EQ(typicalOther, 0.0);

    // The slice after the filter is closer to the phantom; the difference pane is after - before.
    const double before = test::discRmse(window->sliceBefore()->image(), f.scan.truth.plane(0), 48);
    const double after = test::discRmse(window->sliceAfter()->image(), f.scan.truth.plane(0), 48);
    std::printf("slice RMSE inside the phantom: %.5f before, %.5f after\n", before, after);
    EXPECT_LT(after, 0.8 * before);
    const View2<const float> d = window->sliceDifference()->image();
    EXPECT_FLOAT_EQ(d(40, 50),
                    window->sliceAfter()->image()(40, 50) - window->sliceBefore()->image()(40, 50));

    // One wheel notch on the sinogram before: its row zooms alike, the slice row stays fitted.
    wheelNotch(window->sinogramBefore());
    const double zoom = window->sinogramBefore()->zoom();
    const QPointF centre = window->sinogramBefore()->viewCentre();
    EXPECT_FALSE(window->sinogramBefore()->fitsWidget());
    for (ImageView* v : {window->sinogramAfter(), window->sinogramDifference()}) {
        EXPECT_DOUBLE_EQ(v->zoom(), zoom);
        EXPECT_NEAR(v->viewCentre().x(), centre.x(), 1e-6);
        EXPECT_NEAR(v->viewCentre().y(), centre.y(), 1e-6);
    }
    EXPECT_TRUE(window->sliceAfter()->fitsWidget());
    wheelNotch(window->sliceDifference());
    EXPECT_DOUBLE_EQ(window->sliceBefore()->zoom(), window->sliceDifference()->zoom());

    // Another filter updates the open window; comparing changes nothing in the dataset.
    test::choose(test::child<QComboBox>(pre, QStringLiteral("ringMethod")),
                 QStringLiteral("Fourier-wavelet"));
    EXPECT_TRUE(window->summary()->text().contains(QStringLiteral("Fourier-wavelet")))
        << window->summary()->text().toStdString();
    // Its default helps too (the issue measured 0.00274 against 0.00096 before: shading, halos).
    const double fw = test::discRmse(window->sliceAfter()->image(), f.scan.truth.plane(0), 48);
    std::printf("slice RMSE inside the phantom, Fourier-wavelet: %.5f\n", fw);
    EXPECT_LT(fw, before);
    EXPECT_EQ(f.header(), header);
}

#endif  // TOMO_WITH_HDF5

}  // namespace
}  // namespace tomo::ui
