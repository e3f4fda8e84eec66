// File > Open reconstruction: a stored volume shown slice by slice, each slice read from the file
// when shown (app/jobs/PlaneCache.h, ui/widgets/VolumeBrowser.h), so that volumes larger than
// memory open. The shown slice is the file's plane; only the planes shown are read; the cache
// stays within its budget.
#include <gtest/gtest.h>

#include <QSlider>
#include <QTemporaryDir>

#include "app/data/DataFormats.h"
#include "app/jobs/PlaneCache.h"
#include "tests/ui/UiTestSupport.h"
#include "ui/main/FileActions.h"
#include "ui/views/ImageView.h"
#include "ui/widgets/VolumeBrowser.h"

namespace tomo::ui::test {
namespace {

Array3<float> testVolume() {
    Array3<float> v(40, 24, 32);
    for (std::size_t z = 0; z < v.dim(0); ++z)
        for (std::size_t y = 0; y < v.dim(1); ++y)
            for (std::size_t x = 0; x < v.dim(2); ++x)
                v(z, y, x) = float(z) + 0.01f * float(y) - 0.001f * float(x);
    return v;
}

bool sameAsPlane(View2<const float> shown, const Array3<float>& v, std::size_t z) {
    if (shown.rows() != v.dim(1) || shown.cols() != v.dim(2)) return false;
    for (std::size_t y = 0; y < shown.rows(); ++y)
        for (std::size_t x = 0; x < shown.cols(); ++x)
            if (shown(y, x) != v(z, y, x)) return false;
    return true;
}

class VolumeBrowserTest : public ::testing::TestWithParam<std::string> {};

TEST_P(VolumeBrowserTest, ShowsTheFilesPlanesReadingOnlyThoseShown) {
    QTemporaryDir dir;
    const std::string file = dir.filePath(QStringLiteral("rec")).toStdString() + GetParam();
    const Array3<float> v = testVolume();
    auto formats = app::makeFormatRegistry();
    ASSERT_TRUE(formats.isOk());
    ASSERT_TRUE(formats->writeVolume(file, v, {}).isOk());

    WindowFixture f;
    ASSERT_TRUE(f.window->fileActions()->openVolume(file).isOk());
    VolumeBrowser* browser = f.window->fileActions()->lastBrowser();
    ASSERT_NE(browser, nullptr);
    EXPECT_EQ(browser->cache().shape(), v.dims());
    EXPECT_EQ(browser->slice(), 20);  // opens in the middle
    EXPECT_TRUE(sameAsPlane(browser->view()->image(), v, 20));
    auto* slider = browser->findChild<QSlider*>(QStringLiteral("volumeBrowserSlice"));
    ASSERT_NE(slider, nullptr);
    for (int z : {0, 39, 7, 20, 7}) {
        slider->setValue(z);  // as a user drags it
        EXPECT_TRUE(sameAsPlane(browser->view()->image(), v, std::size_t(z))) << z;
    }
    // Planes 20, 0, 39, 7 were read once each; 20 and 7 came from the cache the second time.
    EXPECT_EQ(browser->cache().planesRead(), 4u);
    browser->close();
}

INSTANTIATE_TEST_SUITE_P(Formats, VolumeBrowserTest, ::testing::Values(".h5", ".tif"),
                         [](const auto& p) { return p.param.substr(1); });

TEST(PlaneCache, StaysWithinItsBudgetAndRereadsWhatItDropped) {
    QTemporaryDir dir;
    const std::string file = dir.filePath(QStringLiteral("rec.h5")).toStdString();
    const Array3<float> v = testVolume();
    ASSERT_TRUE(app::makeFormatRegistry()->writeVolume(file, v, {}).isOk());
    const std::size_t planeBytes = 24 * 32 * sizeof(float);
    auto cache = app::PlaneCache::open(file, {}, 3 * planeBytes);
    ASSERT_TRUE(cache.isOk()) << cache.status().toString();
    EXPECT_EQ(cache->capacity(), 3u);
    for (std::size_t z = 0; z < 10; ++z) {
        auto plane = cache->plane(z);
        ASSERT_TRUE(plane.isOk());
        EXPECT_TRUE(sameAsPlane((*plane)->view(), v, z));
        EXPECT_LE(cache->planesHeld(), 3u);
    }
    EXPECT_EQ(cache->planesRead(), 10u);
    ASSERT_TRUE(cache->plane(9).isOk());  // still held
    EXPECT_EQ(cache->planesRead(), 10u);
    ASSERT_TRUE(cache->plane(0).isOk());  // dropped: read again
    EXPECT_EQ(cache->planesRead(), 11u);
    EXPECT_EQ(cache->plane(40).status().code(), ErrorCode::InvalidArgument);
}

}  // namespace
}  // namespace tomo::ui::test
