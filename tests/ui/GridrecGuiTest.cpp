// Gridrec in the workstation as a user meets it: in the algorithm list with its form built from
// the schema, a live preview on choosing it and on every change of its form, Reconstruct giving
// the preview's bits for slice 1 (one path), and the result captioned as gridrec's.
#include <gtest/gtest.h>

#include <QComboBox>
#include <QLabel>
#include <QSignalSpy>
#include <QTest>

#include "tests/ui/UiTestSupport.h"
#include "ui/main/LivePreview.h"
#include "ui/panels/AlgorithmPanel.h"
#include "ui/views/SliceView.h"

namespace tomo::ui {
namespace {

using test::waitFor;

/// Waits until the live preview has nothing pending or running (a superseded request's preview
/// is never shown, so the last one shown is the newest settings').
bool waitIdle(LivePreview& live) {
    for (int i = 0; i < 400 && live.isBusy(); ++i)
        QTest::qWait(50);
    return !live.isBusy();
}

QString statusText(QWidget* root) {
    auto* label = root->findChild<QLabel*>(QStringLiteral("statusLabel"));
    return label ? label->text() : QString();
}

TEST(GridrecGui, ChoosingItPreviewsAndReconstructsBitIdentically) {
    test::WindowFixture f;
    ASSERT_TRUE(f.startDemo(64));
    MainWindow& window = *f.window;
    AlgorithmPanel& panel = *window.algorithmPanel();
    auto* list = panel.findChild<QComboBox*>(QStringLiteral("algorithm"));
    ASSERT_NE(list, nullptr);
    ASSERT_GE(list->findData(QStringLiteral("gridrec")), 0);
    EXPECT_EQ(list->itemText(list->findData(QStringLiteral("gridrec"))).toStdString(),
              "Gridrec (Fourier)");

    QSignalSpy ready(window.livePreview(), &LivePreview::ready);
    ASSERT_TRUE(panel.setAlgorithm("gridrec"));
    EXPECT_FALSE(panel.isIterative());
    ASSERT_TRUE(waitFor(ready, 1, 20000)) << "no preview on choosing gridrec";
    ASSERT_TRUE(waitIdle(*window.livePreview()));
    EXPECT_TRUE(ready.last().at(3).toString().startsWith(QStringLiteral("gridrec ramp")))
        << ready.last().at(3).toString().toStdString();
    // A change in its form (its own filter) previews again, with that filter.
    ready.clear();
    EXPECT_TRUE(panel.form()->setValues({{"filter", "hann"}, {"kernel-width", "5"}}).empty());
    ASSERT_TRUE(waitFor(ready, 1, 20000)) << "no preview after the form changed";
    ASSERT_TRUE(waitIdle(*window.livePreview()));
    EXPECT_TRUE(ready.last().at(3).toString().startsWith(QStringLiteral("gridrec hann")))
        << ready.last().at(3).toString().toStdString();
    SliceView* view = window.reconstructionView();
    std::vector<float> preview(view->image().rows() * view->image().cols());
    copyDense(view->image(), preview.data());

    QSignalSpy finished(&f.session, &Session::jobFinished);
    window.reconstruct();
    ASSERT_TRUE(waitFor(finished, 1, 20000));
    ASSERT_TRUE(finished.at(0).at(1).toBool());
    auto result = f.session.reconstruction();
    ASSERT_TRUE(result);
    EXPECT_EQ(result->algorithm, "gridrec");
    EXPECT_EQ(result->variant, "cpu.gridrec");
    View2<const float> full = result->image.plane(0);
    for (std::size_t r = 0; r < full.rows(); ++r)
        for (std::size_t c = 0; c < full.cols(); ++c)
            ASSERT_EQ(full(r, c), preview[r * full.cols() + c]) << r << "," << c;
    EXPECT_TRUE(statusText(&window).startsWith(QStringLiteral("Gridrec cpu.gridrec, hann")))
        << statusText(&window).toStdString();
    EXPECT_EQ(f.session.reconOptions().filter.window, FilterWindow::Hann);
}

}  // namespace
}  // namespace tomo::ui
