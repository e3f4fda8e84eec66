// Bad HDF5 input: each case is a Status naming the file, the dataset and the cause, HDF5 prints
// nothing on stderr, and failed writes leave no file behind.
#include <gtest/gtest.h>

#include <fstream>
#include <limits>

#include "Hdf5TestUtil.h"
#include "core/hdf5io/Hdf5AcquisitionReader.h"
#include "core/hdf5io/Hdf5Writer.h"

namespace tomo {
namespace {

namespace fs = std::filesystem;

class Hdf5BadInput : public test::Hdf5Test {
  protected:
    /// Opens @p file as DXchange (or NXtomo) expecting @p code and every piece of @p parts in
    /// the message, with nothing printed on stderr.
    void expectOpenFails(const std::string& file, ErrorCode code,
                         const std::vector<std::string>& parts, bool nxtomo = false) {
        ::testing::internal::CaptureStderr();
        auto r = nxtomo ? openNxtomo(file) : openDxchange(file);
        const std::string err = ::testing::internal::GetCapturedStderr();
        ASSERT_FALSE(r.isOk());
        EXPECT_EQ(r.status().code(), code) << r.status().toString();
        for (const std::string& p : parts)
            EXPECT_NE(r.status().message().find(p), std::string::npos)
                << "'" << p << "' not in: " << r.status().message();
        EXPECT_EQ(err, "") << "HDF5 printed on stderr";
    }
};

TEST_F(Hdf5BadInput, MissingNotHdf5AndTruncatedFiles) {
    expectOpenFails(path("none.h5"), ErrorCode::NotFound, {"none.h5", "no such file"});
    std::ofstream(path("text.h5")) << "this is not HDF5\n";
    expectOpenFails(path("text.h5"), ErrorCode::InvalidData, {"text.h5", "not an HDF5 file"});
    ASSERT_TRUE(writeDxchange(path("full.h5"), test::codedAcquisition(20, 16, 16)).isOk());
    const auto size = fs::file_size(path("full.h5"));
    fs::copy_file(path("full.h5"), path("cut.h5"));
    fs::resize_file(path("cut.h5"), size / 2);
    expectOpenFails(path("cut.h5"), ErrorCode::InvalidData, {"cut.h5", "truncated"});
}

TEST_F(Hdf5BadInput, MissingDataset) {
    {
        test::RawFile f(path("a.h5"));
        f.floats("/exchange/data_white", {1, 2, 2});
    }
    expectOpenFails(path("a.h5"), ErrorCode::NotFound, {"a.h5", "/exchange/data", "missing"});
    auto any = openHdf5Acquisition(path("a.h5"));
    ASSERT_FALSE(any.isOk());
    EXPECT_NE(any.status().message().find("neither a DXchange"), std::string::npos);
}

TEST_F(Hdf5BadInput, WrongRank) {
    {
        test::RawFile f(path("a.h5"));
        f.floats("/exchange/data", {4, 5});
    }
    expectOpenFails(path("a.h5"), ErrorCode::InvalidData,
                    {"a.h5", "/exchange/data has rank 2 (shape 4x5), expected 3"});
}

TEST_F(Hdf5BadInput, FlatsAndDarksOfAnotherSize) {
    {
        test::RawFile f(path("a.h5"));
        f.floats("/exchange/data", {3, 4, 5});
        f.floats("/exchange/data_white", {2, 4, 5});
        f.floats("/exchange/data_dark", {2, 4, 6});
    }
    expectOpenFails(path("a.h5"), ErrorCode::InvalidData,
                    {"a.h5", "/exchange/data_dark frames are 4x6 but /exchange/data frames are "
                             "4x5"});
}

TEST_F(Hdf5BadInput, AngleCountAndValues) {
    {
        test::RawFile f(path("count.h5"));
        f.floats("/exchange/data", {3, 2, 2});
        f.doubles("/exchange/theta", {0, 1});
    }
    expectOpenFails(path("count.h5"), ErrorCode::InvalidData,
                    {"count.h5", "/exchange/theta has 2 angles but /exchange/data has 3"});
    {
        test::RawFile f(path("nan.h5"));
        f.floats("/exchange/data", {2, 2, 2});
        f.doubles("/exchange/theta", {0, std::numeric_limits<double>::quiet_NaN()});
    }
    expectOpenFails(path("nan.h5"), ErrorCode::InvalidData,
                    {"nan.h5", "/exchange/theta", "angle 1 is not finite"});
    {
        test::RawFile f(path("unit.h5"));
        f.floats("/exchange/data", {2, 2, 2});
        f.doubles("/exchange/theta", {0, 1});
        f.attribute("/exchange/theta", "units", "gradians");
    }
    expectOpenFails(path("unit.h5"), ErrorCode::InvalidData, {"unknown angle unit 'gradians'"});
}

TEST_F(Hdf5BadInput, NonFiniteValueReportedWhereRead) {
    std::vector<float> v(3 * 4 * 5, 1.f);
    v[2 * 20 + 3 * 5 + 4] = std::numeric_limits<float>::infinity();  // frame 2, row 3, col 4
    {
        test::RawFile f(path("inf.h5"));
        f.floats("/exchange/data", {3, 4, 5}, v);
    }
    auto reader = openDxchange(path("inf.h5"));
    ASSERT_TRUE(reader.isOk());
    EXPECT_TRUE((*reader)->readProjections({0, 2}, IndexRange::all()).isOk());
    auto bad = (*reader)->readProjections({1, 2}, {2, 2});
    ASSERT_FALSE(bad.isOk());
    EXPECT_EQ(bad.status().code(), ErrorCode::InvalidData);
    EXPECT_NE(bad.status().message().find("inf.h5: /exchange/data: non-finite value (inf) at "
                                          "[2][3][4]"),
              std::string::npos)
        << bad.status().message();
}

TEST_F(Hdf5BadInput, NxtomoBadImageKeyAndMissingKey) {
    {
        test::RawFile f(path("key.nxs"));
        f.group("/entry", "NXentry");
        f.group("/entry/data", "NXdata");
        f.floats("/entry/data/data", {3, 2, 2});
        f.ints("/entry/data/image_key", {0, 5, 1});
    }
    expectOpenFails(path("key.nxs"), ErrorCode::InvalidData,
                    {"key.nxs", "/entry/data/image_key[1] = 5 is not an image key"}, true);
    {
        test::RawFile f(path("nokey.nxs"));
        f.group("/entry", "NXentry");
        f.group("/entry/data", "NXdata");
        f.floats("/entry/data/data", {3, 2, 2});
    }
    expectOpenFails(path("nokey.nxs"), ErrorCode::NotFound,
                    {"nokey.nxs", "/entry/data/image_key is missing"}, true);
    {
        test::RawFile f(path("count.nxs"));
        f.group("/entry", "NXentry");
        f.group("/entry/data", "NXdata");
        f.floats("/entry/data/data", {3, 2, 2});
        f.ints("/entry/data/image_key", {0, 0});
    }
    expectOpenFails(path("count.nxs"), ErrorCode::InvalidData,
                    {"image_key has 2 entries but /entry/data/data has 3 frames"}, true);
}

TEST_F(Hdf5BadInput, FailedWritesLeaveNoFile) {
    ProjectionData d = test::codedAcquisition(4, 3, 3);
    d.angles.pop_back();
    Status s = writeDxchange(path("bad.h5"), d);
    EXPECT_EQ(s.code(), ErrorCode::InvalidData);
    EXPECT_NE(s.message().find("3 angles for 4 projections"), std::string::npos);
    d = test::codedAcquisition(4, 3, 3);
    d.projections(1, 1, 1) = std::numeric_limits<float>::quiet_NaN();
    EXPECT_FALSE(writeNxtomo(path("bad.nxs"), d).isOk());
    EXPECT_FALSE(writeHdf5Volume(path("empty.h5"), Array3<float>(), {}).isOk());
    Status dirMissing = writeHdf5Volume(path("no/such/dir/rec.h5"), Array3<float>(1, 2, 2), {});
    EXPECT_EQ(dirMissing.code(), ErrorCode::IoError);
    EXPECT_NE(dirMissing.message().find("no/such/dir"), std::string::npos) << dirMissing.message();
    EXPECT_EQ(fileCount(), 0u);
    // An existing target survives a failed write unchanged.
    ASSERT_TRUE(writeHdf5Volume(path("keep.h5"), Array3<float>(1, 2, 2), {}).isOk());
    const auto before = fs::file_size(path("keep.h5"));
    EXPECT_FALSE(writeDxchange(path("keep.h5"), d).isOk());
    EXPECT_EQ(fs::file_size(path("keep.h5")), before);
    EXPECT_EQ(fileCount(), 1u);
}

}  // namespace
}  // namespace tomo
