// Volume rendering: a ball in a cube renders non-blank inside its projected silhouette and blank
// outside, the image changes with the transfer function (and is the bare background with zero
// opacity), rotating by a forwarded mouse drag changes the image; transfer-function
// interpolation, presets and the editor; and the placeholder shown without a display.
#include <QApplication>
#include <QMouseEvent>
#include <QSignalSpy>

#include "ViewsTestSupport.h"
#include "ui/views/TransferFunctionEditor.h"
#include "ui/views/VolumeRenderPanel.h"
#include "ui/views/VolumeView.h"

namespace tomo::ui {
namespace {

using namespace tomo::ui::test;

/// n^3 volume: a ball of radius 0.3 n (value 1) with a smaller off-centre core (value 2).
std::shared_ptr<const Volume> ballVolume(std::size_t n) {
    auto v = std::make_shared<Volume>(n, n, n);
    double c = 0.5 * static_cast<double>(n);
    for (std::size_t z = 0; z < n; ++z)
        for (std::size_t y = 0; y < n; ++y)
            for (std::size_t x = 0; x < n; ++x) {
                double dx = x + 0.5 - c, dy = y + 0.5 - c, dz = z + 0.5 - c;
                double r2 = dx * dx + dy * dy + dz * dz;
                double rc2 = (dx - 0.1 * n) * (dx - 0.1 * n) + dy * dy + dz * dz;
                (*v)(z, y, x) = r2 < 0.09 * n * n ? (rc2 < 0.01 * n * n ? 2.0f : 1.0f) : 0.0f;
            }
    return v;
}

/// Pixels differing from the corner (background) colour by more than 8 levels in any channel.
int foregroundPixels(const QImage& img) {
    QRgb bg = img.pixel(0, 0);
    int count = 0;
    for (int y = 0; y < img.height(); ++y)
        for (int x = 0; x < img.width(); ++x) {
            QRgb p = img.pixel(x, y);
            if (std::abs(qRed(p) - qRed(bg)) > 8 || std::abs(qGreen(p) - qGreen(bg)) > 8 ||
                std::abs(qBlue(p) - qBlue(bg)) > 8)
                ++count;
        }
    return count;
}

double meanAbsDifference(const QImage& a, const QImage& b) {
    double sum = 0;
    for (int y = 0; y < a.height(); ++y)
        for (int x = 0; x < a.width(); ++x)
            sum += std::abs(luminance(a.pixel(x, y)) - luminance(b.pixel(x, y)));
    return sum / (a.width() * a.height());
}

TEST(VolumeRenderView, BallRendersInsideItsSilhouetteAndFollowsTheTransferFunction) {
    TOMO_REQUIRE_VTK();
    std::unique_ptr<VolumeView> view(createVolumeView());
    ASSERT_TRUE(view->canRender());
    view->setVolume(ballVolume(32));
    EXPECT_DOUBLE_EQ(view->dataRange()[0], 0.0);
    EXPECT_DOUBLE_EQ(view->dataRange()[1], 2.0);
    const QSize size(160, 160);
    view->setPreset(TransferPreset::GreyRamp);
    QImage ramp = view->renderToImage(size);
    ASSERT_EQ(ramp.size(), size);
    int lit = foregroundPixels(ramp);
    // The ball (radius 9.6 voxels) covers a disc in the middle of the view; the corners stay
    // background. Lit area between 2 % and 60 % of the frame, centre lit, corners dark.
    EXPECT_GT(lit, size.width() * size.height() / 50);
    EXPECT_LT(lit, size.width() * size.height() * 6 / 10);
    QRgb bg = ramp.pixel(0, 0);
    EXPECT_GT(luminance(ramp.pixel(80, 80)), luminance(bg) + 20);
    EXPECT_EQ(ramp.pixel(size.width() - 1, size.height() - 1), bg);

    view->setPreset(TransferPreset::Bone);  // only the core (value 2) is opaque
    QImage bone = view->renderToImage(size);
    EXPECT_GT(meanAbsDifference(ramp, bone), 1.0);
    EXPECT_LT(foregroundPixels(bone), lit);  // the core is smaller than the ball
    EXPECT_GT(foregroundPixels(bone), 0);

    TransferFunction clear;
    clear.opacity = {{0.0, 0.0}, {2.0, 0.0}};
    clear.colors = {{0.0, QColor(255, 255, 255)}, {2.0, QColor(255, 255, 255)}};
    view->setTransferFunction(clear);
    EXPECT_EQ(foregroundPixels(view->renderToImage(size)), 0);
}

TEST(VolumeRenderView, DraggingRotatesTheCamera) {
    TOMO_REQUIRE_VTK();
    std::unique_ptr<VolumeView> view(createVolumeView());
    view->setVolume(ballVolume(24));
    const QSize size(128, 128);
    QImage before = view->renderToImage(size);
    auto send = [&](QEvent::Type type, QPointF pos, Qt::MouseButtons buttons) {
        QMouseEvent e(type, pos, QPointF(), Qt::LeftButton, buttons, Qt::NoModifier);
        QApplication::sendEvent(view.get(), &e);
    };
    send(QEvent::MouseButtonPress, {64, 64}, Qt::LeftButton);
    send(QEvent::MouseMove, {100, 70}, Qt::LeftButton);
    send(QEvent::MouseButtonRelease, {100, 70}, Qt::NoButton);
    QImage after = view->renderToImage(size);
    EXPECT_GT(meanAbsDifference(before, after), 0.5);
    view->resetCamera();
    EXPECT_LT(meanAbsDifference(before, view->renderToImage(size)), 0.01);
}

TEST(VolumeView, PlaceholderWithoutADisplaySaysWhy) {
    QByteArray display = qgetenv("DISPLAY");
    qunsetenv("DISPLAY");
    std::unique_ptr<VolumeView> view(createVolumeView());
    QString why;
    EXPECT_FALSE(vtkViewsAvailable(&why));
    qputenv("DISPLAY", display);
    EXPECT_FALSE(view->canRender());
    EXPECT_FALSE(why.isEmpty());
    view->setVolume(ballVolume(8));
    EXPECT_DOUBLE_EQ(view->dataRange()[1], 2.0);
    QImage shot = view->renderToImage(QSize(200, 100));
    EXPECT_EQ(shot.size(), QSize(200, 100));
    EXPECT_GT(foregroundPixels(shot), 0);  // the message is drawn
}

TEST(TransferFunction, InterpolatesLinearlyAndClampsAtTheEnds) {
    TransferFunction tf;
    tf.opacity = {{2.0, 0.5}, {0.0, 0.0}, {4.0, 1.0}};
    tf.colors = {{0.0, QColor(0, 0, 0)}, {4.0, QColor(200, 100, 0)}};
    tf.sort();
    EXPECT_DOUBLE_EQ(tf.opacityAt(-1.0), 0.0);
    EXPECT_DOUBLE_EQ(tf.opacityAt(1.0), 0.25);
    EXPECT_DOUBLE_EQ(tf.opacityAt(3.0), 0.75);
    EXPECT_DOUBLE_EQ(tf.opacityAt(9.0), 1.0);
    QColor mid = tf.colorAt(1.0);
    EXPECT_NEAR(mid.redF(), 0.25 * 200 / 255.0, 1e-6);
    EXPECT_NEAR(mid.greenF(), 0.25 * 100 / 255.0, 1e-6);
    // Presets scale with the data range: bone is transparent below 45 % of it.
    TransferFunction bone = TransferFunction::preset(TransferPreset::Bone, 10.0, 20.0);
    EXPECT_DOUBLE_EQ(bone.opacityAt(14.0), 0.0);
    EXPECT_NEAR(bone.opacityAt(17.5), 0.9, 1e-12);
    TransferFunction ramp = TransferFunction::preset(TransferPreset::GreyRamp, -1.0, 1.0);
    EXPECT_DOUBLE_EQ(ramp.opacityAt(0.0), 0.4);
}

TEST(TransferFunctionEditor, ClickAddsDragMovesAndRightClickRemovesPoints) {
    TransferFunctionEditor editor;
    editor.resize(216, 130);
    editor.setRange(0.0, 10.0);
    editor.setTransferFunction(TransferFunction::preset(TransferPreset::GreyRamp, 0.0, 10.0));
    QSignalSpy changed(&editor, &TransferFunctionEditor::transferFunctionChanged);
    auto send = [&](QEvent::Type type, QPointF pos, Qt::MouseButton button,
                    Qt::MouseButtons buttons) {
        QMouseEvent e(type, pos, QPointF(), button, buttons, Qt::NoModifier);
        QApplication::sendEvent(&editor, &e);
    };
    // Add a point at value 5 with opacity 0.9, then drag it to opacity 0.2.
    QPointF at = editor.toWidget({5.0, 0.9});
    send(QEvent::MouseButtonPress, at, Qt::LeftButton, Qt::LeftButton);
    QPointF to = editor.toWidget({5.0, 0.2});
    send(QEvent::MouseMove, to, Qt::NoButton, Qt::LeftButton);
    send(QEvent::MouseButtonRelease, to, Qt::LeftButton, Qt::NoButton);
    ASSERT_EQ(editor.transferFunction().opacity.size(), 3u);
    EXPECT_NEAR(editor.transferFunction().opacity[1].value, 5.0, 1e-9);
    EXPECT_NEAR(editor.transferFunction().opacityAt(5.0), 0.2, 1e-9);
    EXPECT_EQ(changed.count(), 2);
    send(QEvent::MouseButtonPress, to, Qt::RightButton, Qt::RightButton);
    EXPECT_EQ(editor.transferFunction().opacity.size(), 2u);
    EXPECT_NEAR(editor.transferFunction().opacityAt(5.0), 0.4, 1e-9);  // back to the ramp
}

TEST(VolumeRenderPanel, EditorEditsReachTheView) {
    VolumeRenderPanel panel;
    panel.setVolume(ballVolume(8));
    panel.setPreset(TransferPreset::SoftTissue);
    EXPECT_EQ(panel.editor()->transferFunction().opacity.size(),
              TransferFunction::preset(TransferPreset::SoftTissue, 0, 2).opacity.size());
    TransferFunction tf = panel.editor()->transferFunction();
    tf.opacity.back().opacity = 0.7;
    emit panel.editor()->transferFunctionChanged(tf);
    EXPECT_DOUBLE_EQ(panel.view()->transferFunction().opacity.back().opacity, 0.7);
}

}  // namespace
}  // namespace tomo::ui
