// OrthoSliceView: the three panes show the axial, coronal and sagittal planes through the point
// (checked value by value against the volume and, for the VTK panes, by pixel correlation),
// clicks and PageUp move the point, window/level is shared. (The Compare tab is tested with the
// main window: tests/ui/CompareTabTest.cpp.)
#include <QApplication>
#include <QMouseEvent>
#include <QSignalSpy>

#include "ViewsTestSupport.h"
#include "core/metrics/Metrics.h"
#include "ui/views/OrthoSliceView.h"
#include "ui/views/SliceView.h"

namespace tomo::ui {
namespace {

using namespace tomo::ui::test;

/// value(z, y, x) = x + 100 y + 10000 z: every voxel's value names its position.
std::shared_ptr<const Volume> indexVolume(std::size_t nz, std::size_t ny, std::size_t nx) {
    auto v = std::make_shared<Volume>(nz, ny, nx);
    for (std::size_t z = 0; z < nz; ++z)
        for (std::size_t y = 0; y < ny; ++y)
            for (std::size_t x = 0; x < nx; ++x)
                (*v)(z, y, x) = static_cast<float>(x + 100 * y + 10000 * z);
    return v;
}

class OrthoSliceViewTest : public testing::TestWithParam<SliceBackend> {
  protected:
    void SetUp() override {
        if (GetParam() == SliceBackend::Auto) TOMO_REQUIRE_VTK();
    }
};

TEST_P(OrthoSliceViewTest, PanesShowThePlanesThroughThePointAndFollowClicks) {
    OrthoSliceView view(GetParam());
    const std::size_t nz = 6, ny = 8, nx = 10;
    view.setVolume(indexVolume(nz, ny, nx));
    EXPECT_EQ(view.position(), (std::array<int, 3>{5, 4, 3}));
    auto check = [&] {
        auto [x, y, z] = view.position();
        SliceView* axial = view.pane(OrthoSliceView::Axial);
        SliceView* coronal = view.pane(OrthoSliceView::Coronal);
        SliceView* sagittal = view.pane(OrthoSliceView::Sagittal);
        ASSERT_EQ(axial->imageWidth(), 10);
        ASSERT_EQ(axial->imageHeight(), 8);
        ASSERT_EQ(coronal->imageWidth(), 10);
        ASSERT_EQ(coronal->imageHeight(), 6);
        ASSERT_EQ(sagittal->imageWidth(), 8);
        ASSERT_EQ(sagittal->imageHeight(), 6);
        EXPECT_FLOAT_EQ(axial->valueAt(7, 2), static_cast<float>(7 + 200 + 10000 * z));
        EXPECT_FLOAT_EQ(coronal->valueAt(7, 2), static_cast<float>(7 + 100 * y + 20000));
        EXPECT_FLOAT_EQ(sagittal->valueAt(7, 2), static_cast<float>(x + 700 + 20000));
        EXPECT_EQ(*axial->crosshair(), QPointF(x, y));
        EXPECT_EQ(*coronal->crosshair(), QPointF(x, z));
        EXPECT_EQ(*sagittal->crosshair(), QPointF(y, z));
    };
    check();
    QSignalSpy moved(&view, &OrthoSliceView::positionChanged);
    // Click the axial pane at pixel (2, 6): x and y move, z stays.
    SliceView* axial = view.pane(OrthoSliceView::Axial);
    axial->resize(40, 32);  // 4 screen pixels per voxel
    QPointF at(4 * 2 + 2, 4 * 6 + 2);
    QMouseEvent press(QEvent::MouseButtonPress, at, QPointF(), Qt::LeftButton, Qt::LeftButton,
                      Qt::NoModifier);
    QMouseEvent release(QEvent::MouseButtonRelease, at, QPointF(), Qt::LeftButton, Qt::NoButton,
                        Qt::NoModifier);
    QApplication::sendEvent(axial, &press);
    QApplication::sendEvent(axial, &release);
    EXPECT_EQ(view.position(), (std::array<int, 3>{2, 6, 3}));
    check();
    // PageUp in the axial pane: next z; clamped at the last slice.
    QKeyEvent up(QEvent::KeyPress, Qt::Key_PageUp, Qt::NoModifier);
    for (int i = 0; i < 4; ++i)
        QApplication::sendEvent(axial, &up);
    EXPECT_EQ(view.position(), (std::array<int, 3>{2, 6, 5}));
    check();
    EXPECT_EQ(moved.count(), 3);  // the click and two effective steps
    // Shared window/level.
    view.pane(OrthoSliceView::Sagittal)->setWindowLevel({123.0, 45.0});
    EXPECT_DOUBLE_EQ(view.pane(OrthoSliceView::Axial)->windowLevel().width, 123.0);
    EXPECT_DOUBLE_EQ(view.pane(OrthoSliceView::Coronal)->windowLevel().level, 45.0);
}

TEST_P(OrthoSliceViewTest, RenderedPanesCorrelateWithTheirPlanes) {
    OrthoSliceView view(GetParam());
    const int n = 24;
    auto vol = std::make_shared<Volume>(n, n, n);
    for (int z = 0; z < n; ++z)
        for (int y = 0; y < n; ++y)
            for (int x = 0; x < n; ++x) {
                double dx = x - 9.0, dy = y - 14.0, dz = z - 12.0;
                (*vol)(z, y, x) =
                    static_cast<float>((dx * dx + dy * dy + dz * dz < 36 ? 1.0 : 0.0) + 0.02 * x);
            }
    view.setVolume(vol);
    const std::array<OrthoSliceView::Pane, 3> panes{OrthoSliceView::Axial, OrthoSliceView::Coronal,
                                                    OrthoSliceView::Sagittal};
    for (auto p : panes) {
        SliceView* pane = view.pane(p);
        std::vector<float> plane(static_cast<std::size_t>(n * n));
        for (int r = 0; r < n; ++r)
            for (int c = 0; c < n; ++c)
                plane[static_cast<std::size_t>(r * n + c)] = pane->valueAt(c, r);
        pane->setCrosshair(std::nullopt);  // compare the image, not the overlay
        pane->setCaption(QString());
        QImage shot = pane->renderToImage(QSize(96, 96));
        EXPECT_GT(screenCorrelation(shot, plane, n, n, 0, 0, 96, 96), 0.95) << "pane " << p;
    }
}

INSTANTIATE_TEST_SUITE_P(Backends, OrthoSliceViewTest,
                         testing::Values(SliceBackend::Painter, SliceBackend::Auto), backendName);

}  // namespace
}  // namespace tomo::ui
