// The MBIR system matrix: each entry against a brute-force chord-length integral over the
// channel (an independent computation), pixel area conservation, the 8-bit compression bound of
// paper 004 (1/510 of the voxel's maximum), the disk round trip and the cache.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>

#include "core/base/CacheFiles.h"
#include "core/mbir/MbirMatrix.h"
#include "core/mbir/MbirMatrixCache.h"

namespace tomo {
namespace {

ParallelGeometry geometry(int views, int channels, double pitch = 1.0, double center = NAN) {
    ParallelGeometry::Params p;
    p.angles = uniformAngles(0.1, kPi + 0.1, views);
    p.detectorCount = channels;
    p.detectorPitch = pitch;
    p.centerOfRotation = center;
    return *ParallelGeometry::create(p);
}

/// Length of the line {t (cos, sin) + s (-sin, cos)} inside the square centred at (cx, cy).
double chord(double theta, double t, double cx, double cy, double half) {
    const double c = std::cos(theta), s = std::sin(theta);
    // Points: (t c - s u, t s + c u); clip u against the square's slabs in x and y.
    double lo = -1e300, hi = 1e300;
    auto clip = [&](double p0, double dir, double mid) {
        if (std::fabs(dir) < 1e-15) {
            if (std::fabs(p0 - mid) > half) hi = lo - 1;
            return;
        }
        double a = (mid - half - p0) / dir, b = (mid + half - p0) / dir;
        if (a > b) std::swap(a, b);
        lo = std::max(lo, a);
        hi = std::min(hi, b);
    };
    clip(t * c, -s, cx);
    clip(t * s, c, cy);
    return std::max(0.0, hi - lo);
}

// The vectorised first channels (4 views at a time with AVX2 where the CPU has it) are the
// scalar ones, bit for bit, for every voxel and view, from any first view: the matrix is built
// with the scalar ones and read with these.
TEST(MbirSliceGeometry, FirstChannelsOverViewRangesEqualTheScalarOnes) {
    const ParallelGeometry geom = geometry(203, 97, 0.7, 47.3);
    const VolumeGeometry vol{61, 53, 1, 0.9, 1.7, -2.3};
    const MbirSliceGeometry g(geom, vol);
    std::vector<std::int32_t> first(203);
    std::size_t checked = 0;
    for (int iy = 0; iy < g.ny(); ++iy)
        for (int ix = 0; ix < g.nx(); ++ix)
            for (const auto& [v0, v1] : {std::pair{0, 203}, std::pair{5, 202}, std::pair{3, 6}}) {
                g.firstChannels(ix, iy, v0, v1, first.data());
                for (int v = v0; v < v1; ++v, ++checked)
                    ASSERT_EQ(first[std::size_t(v - v0)], g.firstChannel(v, ix, iy))
                        << "voxel " << ix << "," << iy << " view " << v;
            }
    EXPECT_GT(checked, 61u * 53u * 400u);
}

TEST(MbirMatrix, EntriesEqualTheChordIntegratedOverTheChannel) {
    const ParallelGeometry geom = geometry(7, 40, 0.8, 19.3);
    const VolumeGeometry vol{24, 20, 1, 1.1, 0.4, -0.3};
    const MbirSliceGeometry g(geom, vol);
    double worst = 0;
    for (int v = 0; v < g.views(); ++v)
        for (int iy : {0, 7, 19})
            for (int ix : {0, 11, 23}) {
                const int first = g.firstChannel(v, ix, iy);
                double total = 0;
                for (int k = -1; k <= g.count(v); ++k) {
                    const int c = first + k;
                    constexpr int kRays = 4000;  // midpoint rule over the channel aperture
                    double brute = 0;
                    for (int r = 0; r < kRays; ++r) {
                        const double t = (c - geom.center(v) - 0.5 + (r + 0.5) / kRays) * 0.8;
                        brute += chord(geom.angle(v), t, vol.x(ix), vol.y(iy), 0.55) / kRays;
                    }
                    const double entry = k < 0 || k == g.count(v) ? 0.0 : g.entry(v, ix, iy, c);
                    worst = std::max(worst, std::fabs(entry - brute));
                    total += entry * 0.8;
                }
                EXPECT_NEAR(total, 1.1 * 1.1, 1e-12) << "view " << v;
            }
    // The midpoint rule's error on the trapezoid's kinks is below 1e-6 length units here.
    EXPECT_LT(worst, 2e-6);
}

TEST(MbirMatrix, EightBitEntriesAreWithinHalfAStepOfTheFloatOnes) {
    const MbirSliceGeometry g(geometry(45, 50), {32, 32, 1, 1.3});
    auto codes = MbirMatrix::build(g, MbirEntryType::Uint8, {});
    auto floats = MbirMatrix::build(g, MbirEntryType::Float, {});
    ASSERT_TRUE(codes.isOk() && floats.isOk());
    double worst = 0;
    for (std::size_t j = 0; j < g.voxels(); ++j) {
        double peak = 0;
        for (std::size_t k = 0; k < g.columnSize(); ++k)
            peak = std::max(peak, double(floats->floats(j)[k]));
        ASSERT_NEAR(codes->scale(j) * 255.0, peak, 1e-6 * peak);
        for (std::size_t k = 0; k < g.columnSize(); ++k) {
            const double decoded = double(codes->scale(j)) * codes->codes(j)[k];
            worst = std::max(worst, std::fabs(decoded - floats->floats(j)[k]) / peak);
        }
    }
    EXPECT_LE(worst, 1.0 / 510.0 + 1e-6);
    EXPECT_GT(worst, 1.0 / 2000.0);  // the quantisation is really there
    EXPECT_EQ(codes->bytes() * 4 - g.voxels() * 12, floats->bytes());
}

TEST(MbirMatrix, SavedMatricesLoadOnlyForTheirGeometryAndTheCacheReusesThem) {
    const auto dir = std::filesystem::temp_directory_path() / "tomo-mbir-cache-test";
    std::filesystem::remove_all(dir);
    const MbirSliceGeometry g(geometry(30, 40), {24, 24, 1, 1.0});
    const MbirSliceGeometry other(geometry(31, 40), {24, 24, 1, 1.0});
    EXPECT_NE(g.key(), other.key());
    {
        MbirMatrixCache cache(dir);
        MbirMatrixSource source{};
        std::string note;
        auto first = cache.get(g, MbirEntryType::Uint8, 1 << 30, {}, &source, &note);
        ASSERT_TRUE(first.isOk());
        EXPECT_EQ(note, "");
        EXPECT_EQ(source, MbirMatrixSource::Built);
        auto again = cache.get(g, MbirEntryType::Uint8, 1 << 30, {}, &source);
        EXPECT_EQ(source, MbirMatrixSource::Memory);
        EXPECT_EQ(first->get(), again->get());
        auto tooBig = cache.get(other, MbirEntryType::Uint8, 1000, {}, &source);
        ASSERT_FALSE(tooBig.isOk());
        EXPECT_EQ(tooBig.status().code(), ErrorCode::OutOfMemory);
        EXPECT_NE(tooBig.status().message().find("MiB"), std::string::npos);
    }
    MbirMatrixCache fresh(dir);
    MbirMatrixSource source{};
    std::string note;
    auto loaded = fresh.get(g, MbirEntryType::Uint8, 1 << 30, {}, &source, &note);
    EXPECT_EQ(note, "");
    ASSERT_TRUE(loaded.isOk());
    EXPECT_EQ(source, MbirMatrixSource::Disk);
    auto built = MbirMatrix::build(g, MbirEntryType::Uint8, {});
    for (std::size_t j = 0; j < g.voxels(); j += 37)
        for (std::size_t k = 0; k < g.columnSize(); ++k)
            ASSERT_EQ((*loaded)->codes(j)[k], built->codes(j)[k]);
    const std::string file = (dir / (g.key() + "-u8.amat")).string();
    auto wrong = MbirMatrix::load(file, other.key(), MbirEntryType::Uint8, 0);
    EXPECT_EQ(wrong.status().code(), ErrorCode::InvalidData);
    std::filesystem::resize_file(file, std::filesystem::file_size(file) - 3);
    EXPECT_EQ(MbirMatrix::load(file, g.key(), MbirEntryType::Uint8, 0).status().code(),
              ErrorCode::InvalidData);
    std::filesystem::remove_all(dir);
}

// Issue 27 item 4: the codes are read in 8 MiB blocks on several threads. A matrix of more
// than one block reads back bit for bit (8-bit and float), and a file cut short or grown is
// refused.
TEST(MbirMatrix, AMatrixOfSeveralBlocksReadsBackBitForBit) {
    const auto dir = std::filesystem::temp_directory_path() / "tomo-mbir-blocks-test";
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    const MbirSliceGeometry g(geometry(360, 140), {100, 100, 1, 1.0});
    for (MbirEntryType type : {MbirEntryType::Uint8, MbirEntryType::Float}) {
        const MbirMatrix built = MbirMatrix::build(g, type, {}).value();
        const std::size_t entryBytes = type == MbirEntryType::Uint8 ? 1 : 4;
        ASSERT_GT(g.voxels() * g.columnSize() * entryBytes, kCacheBlockBytes);
        const std::string file = (dir / "m.amat").string();
        ASSERT_TRUE(built.save(file, g.key()).isOk());
        auto loaded = MbirMatrix::load(file, g.key(), type, 0);
        ASSERT_TRUE(loaded.isOk()) << loaded.status().message();
        for (std::size_t j = 0; j < g.voxels(); ++j) {
            ASSERT_EQ(loaded->scale(j), built.scale(j));
            const bool same =
                type == MbirEntryType::Uint8
                    ? std::equal(built.codes(j), built.codes(j) + g.columnSize(), loaded->codes(j))
                    : std::equal(built.floats(j), built.floats(j) + g.columnSize(),
                                 loaded->floats(j));
            ASSERT_TRUE(same) << "voxel " << j;
        }
        std::ofstream(file, std::ios::binary | std::ios::app) << 'x';  // one byte too many
        EXPECT_EQ(MbirMatrix::load(file, g.key(), type, 0).status().code(), ErrorCode::InvalidData);
        std::filesystem::resize_file(file, std::filesystem::file_size(file) - 2);
        EXPECT_EQ(MbirMatrix::load(file, g.key(), type, 0).status().code(), ErrorCode::InvalidData);
    }
    std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace tomo
