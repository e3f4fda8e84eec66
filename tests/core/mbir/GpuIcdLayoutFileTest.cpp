// GPU-ICD's layout on disk (core/mbir/GpuIcdLayoutFile.h, GpuIcdLayoutCache.h; issue 27 item
// 4), no device needed: a layout read back equals a fresh build member by member; a second
// matrix cache over the same directory (a fresh process) reads the layout instead of building
// it; a truncated, bit-flipped, foreign or older (version 2, with tiles) file is rebuilt with a
// note and rewritten; layouts and matrices share one disk budget; the checksum sees a change of
// any one byte.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>

#include "core/base/CacheFiles.h"
#include "core/base/Parallel.h"
#include "core/mbir/GpuIcdLayoutFile.h"
#include "core/mbir/MbirMatrixCache.h"

namespace tomo {
namespace {

constexpr std::size_t kBudget = std::size_t(1) << 30;

MbirSliceGeometry geometry(int size, int views) {
    ParallelGeometry::Params p;
    p.angles = uniformAngles(0.1, kPi, views);
    p.detectorCount = int(size * 1.45);
    p.centerOfRotation = 0.5 * (p.detectorCount - 1) + 0.7;
    return MbirSliceGeometry(*ParallelGeometry::create(p), {size, size, 1, 1.0});
}

GpuIcdOptions side(int s) {
    GpuIcdOptions o;
    o.side = s;
    return o;
}

/// A fresh folder under the temporary directory for one test.
std::filesystem::path folder(const std::string& name) {
    const auto dir = std::filesystem::temp_directory_path() / ("tomo-icd-layout-" + name);
    std::filesystem::remove_all(dir);
    return dir;
}

void expectEqualLayouts(const GpuIcdLayout& a, const GpuIcdLayout& b) {
    EXPECT_EQ(a.views, b.views);
    EXPECT_EQ(a.channels, b.channels);
    EXPECT_EQ(a.padding, b.padding);
    EXPECT_EQ(a.nx, b.nx);
    EXPECT_EQ(a.ny, b.ny);
    EXPECT_EQ(a.pitch, b.pitch);
    EXPECT_EQ(a.rows, b.rows);
    EXPECT_EQ(a.chunks, b.chunks);
    EXPECT_EQ(a.side, b.side);
    EXPECT_EQ(a.colour, b.colour);
    EXPECT_EQ(a.svBase, b.svBase);
    EXPECT_EQ(a.svFirst, b.svFirst);
    EXPECT_EQ(a.svSize, b.svSize);
    EXPECT_EQ(a.order, b.order);
    EXPECT_EQ(a.chunkMeta, b.chunkMeta);
    EXPECT_EQ(a.tileRows, b.tileRows);
    EXPECT_EQ(a.scale, b.scale);
    EXPECT_EQ(a.channelTerms, b.channelTerms);
    EXPECT_EQ(a.viewRuns, b.viewRuns);
    EXPECT_EQ(a.columnSize, b.columnSize);
}

/// Flips one bit of @p file at byte @p at.
void flipBit(const std::filesystem::path& file, std::uintmax_t at) {
    std::fstream f(file, std::ios::in | std::ios::out | std::ios::binary);
    f.seekg(std::streamoff(at));
    char c = 0;
    f.get(c);
    f.seekp(std::streamoff(at));
    f.put(char(c ^ 0x10));
}

/// @p layout of @p g for @p o written to @p file (its folder made) and read back.
Result<GpuIcdLayout> writtenAndRead(const GpuIcdLayout& layout, const MbirSliceGeometry& g,
                                    const GpuIcdOptions& o, const std::filesystem::path& file) {
    std::filesystem::create_directories(file.parent_path());
    const std::string key = GpuIcdLayoutCache::key(g, o);
    const Status saved = saveGpuIcdLayout(layout, file, key);
    if (!saved) return saved;
    return loadGpuIcdLayout(file, key, g, o);
}

TEST(GpuIcdLayoutFile, ALayoutReadBackEqualsAFreshBuildMemberByMember) {
    const MbirSliceGeometry g = geometry(40, 60);
    const MbirMatrix a = MbirMatrix::build(g, MbirEntryType::Uint8, {}).value();
    const GpuIcdLayout built = GpuIcdLayout::build(g, a, side(12), kBudget, {}).value();
    const auto dir = folder("roundtrip");
    const auto file = dir / "l.icdl";
    const std::string key = GpuIcdLayoutCache::key(g, side(12));
    auto loaded = writtenAndRead(built, g, side(12), file);
    ASSERT_TRUE(loaded.isOk()) << loaded.status().message();
    expectEqualLayouts(*loaded, GpuIcdLayout::build(g, a, side(12), kBudget, {}).value());
    EXPECT_NE(loaded->id, 0u);
    EXPECT_NE(loaded->id, built.id);  // a device must upload it: a new identity

    // Another geometry, SV side or seed is not this file's layout.
    GpuIcdOptions seeded = side(12);
    seeded.seed = 2;
    EXPECT_NE(GpuIcdLayoutCache::key(g, seeded), key);
    const MbirSliceGeometry other = geometry(40, 61);
    EXPECT_EQ(loadGpuIcdLayout(file, GpuIcdLayoutCache::key(other, side(12)), other, side(12))
                  .status()
                  .code(),
              ErrorCode::InvalidData);
    EXPECT_EQ(loadGpuIcdLayout(file, key, g, side(9)).status().code(), ErrorCode::InvalidData);
    EXPECT_EQ(loadGpuIcdLayout(dir / "none.icdl", key, g, side(12)).status().code(),
              ErrorCode::NotFound);
    std::filesystem::remove_all(dir);
}

TEST(GpuIcdLayoutFile, ASecondCacheOverTheDirectoryReadsTheLayoutInsteadOfBuildingIt) {
    const MbirSliceGeometry g = geometry(40, 60);
    const auto dir = folder("second");
    std::shared_ptr<const GpuIcdLayout> first;
    {
        MbirMatrixCache cache(dir);
        const auto a = cache.get(g, MbirEntryType::Uint8, kBudget, {}).value();
        MbirMatrixSource source{};
        std::string note;
        first = cache.layouts().get(g, *a, side(12), kBudget, {}, &source, &note).value();
        EXPECT_EQ(source, MbirMatrixSource::Built);
        EXPECT_EQ(note, "");
        EXPECT_EQ(cache.layouts().builds(), 1u);
    }
    EXPECT_TRUE(std::filesystem::exists(dir / (GpuIcdLayoutCache::key(g, side(12)) + ".icdl")));
    MbirMatrixCache fresh(dir);  // a fresh process
    const auto a = fresh.get(g, MbirEntryType::Uint8, kBudget, {}).value();
    MbirMatrixSource source{};
    std::string note;
    auto loaded = fresh.layouts().get(g, *a, side(12), kBudget, {}, &source, &note);
    ASSERT_TRUE(loaded.isOk()) << loaded.status().message();
    EXPECT_EQ(source, MbirMatrixSource::Disk);
    EXPECT_EQ(note, "");
    EXPECT_EQ(fresh.layouts().builds(), 0u);
    expectEqualLayouts(**loaded, *first);
    fresh.layouts().get(g, *a, side(12), kBudget, {}, &source).value();
    EXPECT_EQ(source, MbirMatrixSource::Memory);
    std::filesystem::remove_all(dir);
}

/// A cache over @p dir asked for the layout after @p damage changed its file: rebuilt, with a
/// note containing @p why, and the file rewritten (a third cache reads it).
void expectRebuilt(const std::string& name,
                   const std::function<void(const std::filesystem::path&)>& damage,
                   const std::string& why) {
    SCOPED_TRACE(name);
    const MbirSliceGeometry g = geometry(40, 60);
    const MbirMatrix a = MbirMatrix::build(g, MbirEntryType::Uint8, {}).value();
    const auto dir = folder(name);
    const auto file = dir / (GpuIcdLayoutCache::key(g, side(12)) + ".icdl");
    ASSERT_TRUE(GpuIcdLayoutCache(2, dir).get(g, a, side(12), kBudget, {}).isOk());
    damage(file);
    GpuIcdLayoutCache cache(2, dir);
    MbirMatrixSource source{};
    std::string note;
    auto rebuilt = cache.get(g, a, side(12), kBudget, {}, &source, &note);
    ASSERT_TRUE(rebuilt.isOk()) << rebuilt.status().message();
    EXPECT_EQ(source, MbirMatrixSource::Built);
    EXPECT_EQ(cache.builds(), 1u);
    EXPECT_NE(note.find("cached GPU-ICD layout ignored"), std::string::npos) << note;
    EXPECT_NE(note.find(why), std::string::npos) << note;
    expectEqualLayouts(**rebuilt, GpuIcdLayout::build(g, a, side(12), kBudget, {}).value());
    GpuIcdLayoutCache third(2, dir);
    ASSERT_TRUE(third.get(g, a, side(12), kBudget, {}, &source).isOk());
    EXPECT_EQ(source, MbirMatrixSource::Disk);
    std::filesystem::remove_all(dir);
}

TEST(GpuIcdLayoutFile, TruncatedBitFlippedOrForeignFilesAreRebuiltWithANote) {
    using std::filesystem::path;
    expectRebuilt(
        "truncated",
        [](const path& f) { std::filesystem::resize_file(f, std::filesystem::file_size(f) - 5); },
        "truncated");
    expectRebuilt(
        "empty", [](const path& f) { std::filesystem::resize_file(f, 0); },
        "not a GPU-ICD layout file");
    expectRebuilt(
        "middle", [](const path& f) { flipBit(f, std::filesystem::file_size(f) / 2); }, "checksum");
    expectRebuilt(
        "checksum", [](const path& f) { flipBit(f, std::filesystem::file_size(f) - 1); },
        "checksum");
    expectRebuilt(
        "views", [](const path& f) { flipBit(f, 8 + 2 * 8); }, "sizes do not match");
    expectRebuilt(  // a file of version 2 (it held the tiles): "layout file version 2"
        "version",
        [](const path& f) {
            std::fstream out(f, std::ios::in | std::ios::out | std::ios::binary);
            const std::uint64_t two = 2;
            out.seekp(8);
            out.write(reinterpret_cast<const char*>(&two), sizeof two);
        },
        "layout file version 2, this build reads 3");
    expectRebuilt(
        "foreign",
        [](const path& f) {
            std::ofstream(f, std::ios::binary | std::ios::trunc) << "TOMOAMAT and something else";
        },
        "not a GPU-ICD layout file");
}

// A file whose checksum holds but whose indices would send the kernels out of their buffers
// (a writer's defect, or a crafted file) is refused all the same.
TEST(GpuIcdLayoutFile, IndicesOutOfRangeAreRefusedEvenWithAValidChecksum) {
    const MbirSliceGeometry g = geometry(40, 60);
    const MbirMatrix a = MbirMatrix::build(g, MbirEntryType::Uint8, {}).value();
    const GpuIcdLayout good = GpuIcdLayout::build(g, a, side(12), kBudget, {}).value();
    const auto dir = folder("indices");
    std::filesystem::create_directories(dir);
    const std::string key = GpuIcdLayoutCache::key(g, side(12));
    auto refused = [&](const std::function<void(GpuIcdLayout&)>& spoil) {
        GpuIcdLayout bad = good;
        spoil(bad);
        EXPECT_TRUE(saveGpuIcdLayout(bad, dir / "l.icdl", key).isOk());
        auto loaded = loadGpuIcdLayout(dir / "l.icdl", key, g, side(12));
        return loaded.isOk() ? std::string("loaded") : loaded.status().message();
    };
    EXPECT_EQ(refused([](GpuIcdLayout&) {}), "loaded");
    EXPECT_NE(refused([](GpuIcdLayout& l) {
                  l.order[3] = std::int32_t(l.voxels());
              }).find("voxel order is out of range"),
              std::string::npos);
    EXPECT_NE(refused([](GpuIcdLayout& l) {
                  l.tileRows -= l.chunkMeta.back() >> 16;
                  l.chunkMeta.back() = 0;
              }).find("loaded"),
              std::string::npos);  // an empty chunk is fine
    EXPECT_NE(refused([](GpuIcdLayout& l) {
                  l.chunkMeta[l.chunkMeta.size() - 2] = std::uint32_t(l.tileRows);
              }).find("tile or band rows are out of range"),
              std::string::npos);
    EXPECT_NE(refused([](GpuIcdLayout& l) { l.chunkMeta[2] -= 1; })  // overlapping tiles
                  .find("tile or band rows are out of range"),
              std::string::npos);
    EXPECT_NE(refused([](GpuIcdLayout& l) { l.tileRows += 1; }).find("rows do not add up"),
              std::string::npos);
    EXPECT_NE(refused([](GpuIcdLayout& l) {
                  l.chunkMeta[1] = std::uint32_t(l.rows) << 16 | 1u;
              }).find("tile or band rows are out of range"),
              std::string::npos);
    EXPECT_NE(refused([](GpuIcdLayout& l) { l.svSize.back() += 1; }).find("SV's voxel range"),
              std::string::npos);
    EXPECT_NE(refused([](GpuIcdLayout& l) { l.colour[0] = 4; }).find("colour"), std::string::npos);
    std::filesystem::remove_all(dir);
}

TEST(GpuIcdLayoutFile, LayoutsAndMatricesShareOneDiskBudgetOldestFirst) {
    const MbirSliceGeometry g = geometry(40, 60);
    const auto dir = folder("budget");
    const std::string matrixFile = g.key() + "-u8.amat";
    std::uintmax_t matrixBytes = 0;
    {
        MbirMatrixCache probe(dir);
        probe.get(g, MbirEntryType::Uint8, kBudget, {}).value();
        matrixBytes = std::filesystem::file_size(dir / matrixFile);
    }
    // Room for the matrix alone: storing the layout removes the older matrix, not the layout.
    MbirMatrixCache cache(dir, 2, matrixBytes + 16);
    const auto a = cache.get(g, MbirEntryType::Uint8, kBudget, {}).value();
    ASSERT_TRUE(cache.layouts().get(g, *a, side(12), kBudget, {}).isOk());
    EXPECT_FALSE(std::filesystem::exists(dir / matrixFile));
    EXPECT_TRUE(std::filesystem::exists(dir / (GpuIcdLayoutCache::key(g, side(12)) + ".icdl")));
    std::filesystem::remove_all(dir);
}

// Issue 27 item 4: the file holds the layout's tables, not its tiles (the device builds them
// from the matrix): a larger case (160^2 x 360 views, 12 MiB of tiles) reads back member by
// member in a file a small part of the tiles' size, and a bit flipped in the chunk table, just
// before the scales, is a checksum mismatch.
TEST(GpuIcdLayoutFile, TheFileHoldsTheTablesAndNotTheTiles) {
    const MbirSliceGeometry g = geometry(160, 360);
    const MbirMatrix a = MbirMatrix::build(g, MbirEntryType::Uint8, {}).value();
    const GpuIcdLayout built = GpuIcdLayout::build(g, a, side(33), kBudget, {}).value();
    ASSERT_GT(built.tileBytes(), kCacheBlockBytes + kCacheBlockBytes / 4);
    const auto dir = folder("tables");
    const auto file = dir / "l.icdl";
    auto loaded = writtenAndRead(built, g, side(33), file);
    ASSERT_TRUE(loaded.isOk()) << loaded.status().message();
    expectEqualLayouts(*loaded, built);
    EXPECT_LT(std::filesystem::file_size(file), built.tileBytes() / 3);
    flipBit(file, std::filesystem::file_size(file) - 4 * built.scale.size() - 8 - 3);
    auto flipped = loadGpuIcdLayout(file, GpuIcdLayoutCache::key(g, side(33)), g, side(33));
    ASSERT_FALSE(flipped.isOk());
    EXPECT_NE(flipped.status().message().find("checksum"), std::string::npos);
    std::filesystem::remove_all(dir);
}

// Issue 27 (`--threads`): the cache files are built, written, read and checksummed on the
// caller's thread count: with 1 no thread is started beside the caller (parallelThreadsStarted),
// with 3 some are (the matrix's blocks; the layout file, tables only, is read on the caller's
// thread), and the matrix and layout read back bit for bit either way (160^2 x 360 views: more
// than one 8 MiB block of matrix entries).
TEST(GpuIcdLayoutFile, OneThreadReadsTheCacheFilesOnTheCallingThreadOnlyWithTheSameBits) {
    const MbirSliceGeometry g = geometry(160, 360);
    const auto dir = folder("threads");
    ExecContext one, three;
    one.threads = 1;
    three.threads = 3;
    std::shared_ptr<const MbirMatrix> a;
    std::shared_ptr<const GpuIcdLayout> built;
    {
        MbirMatrixCache cache(dir);
        const std::size_t before = parallelThreadsStarted();
        a = cache.get(g, MbirEntryType::Uint8, kBudget, one).value();
        built = cache.layouts().get(g, *a, side(33), kBudget, one).value();
        EXPECT_EQ(parallelThreadsStarted(), before) << "built and written on the caller's thread";
    }
    ASSERT_GT(g.voxels() * g.columnSize(), kCacheBlockBytes);
    for (const ExecContext& ctx : {one, three}) {
        MbirMatrixCache fresh(dir);  // a fresh process: both from disk
        MbirMatrixSource matrixFrom{}, layoutFrom{};
        const std::size_t before = parallelThreadsStarted();
        const auto read = fresh.get(g, MbirEntryType::Uint8, kBudget, ctx, &matrixFrom).value();
        const auto layout = fresh.layouts().find(g, side(33), kBudget, &layoutFrom);
        const std::size_t started = parallelThreadsStarted() - before;
        EXPECT_EQ(matrixFrom, MbirMatrixSource::Disk);
        EXPECT_EQ(layoutFrom, MbirMatrixSource::Disk);
        if (ctx.threads == 1)
            EXPECT_EQ(started, 0u) << "threads started beside the caller with --threads 1";
        else
            EXPECT_GT(started, 0u);
        ASSERT_TRUE(layout);
        expectEqualLayouts(*layout, *built);
        for (std::size_t j = 0; j < g.voxels(); ++j) {
            ASSERT_EQ(read->scale(j), a->scale(j));
            ASSERT_TRUE(std::equal(a->codes(j), a->codes(j) + g.columnSize(), read->codes(j)));
        }
    }
    std::filesystem::remove_all(dir);
}

// The block reader and digest the layout and matrix files use (CacheFiles.h).
TEST(CacheFiles, BlocksReadOnSeveralThreadsAreTheFileAndTheDigestSeesEveryBlock) {
    const std::size_t prefix = 37, n = 2 * kCacheBlockBytes + 1001;
    std::vector<unsigned char> data(n);
    for (std::size_t i = 0; i < n; ++i)
        data[i] = static_cast<unsigned char>((i * 2654435761u) >> 13);
    const auto dir = folder("cachefiles");
    std::filesystem::create_directories(dir);
    const auto file = dir / "blocks.bin";
    {
        std::ofstream out(file, std::ios::binary);
        out << std::string(prefix, 'h');
        out.write(reinterpret_cast<const char*>(data.data()), std::streamsize(n));
    }
    for (int threads : {1, 3}) {
        std::vector<unsigned char> read(n, 0);
        ASSERT_TRUE(readFileInBlocks(file, prefix, read.data(), n, threads));
        EXPECT_EQ(read, data) << threads << " threads";
    }
    std::vector<unsigned char> past(n + 1);
    EXPECT_FALSE(readFileInBlocks(file, prefix, past.data(), n + 1, 0));  // one byte short
    // The digest: Checksum64 of the blocks' Checksum64s, the same on any number of threads.
    std::vector<std::uint64_t> sums;
    for (std::size_t at = 0; at < n; at += kCacheBlockBytes) {
        Checksum64 block;
        block.add(data.data() + at, std::min(kCacheBlockBytes, n - at));
        sums.push_back(block.value());
    }
    Checksum64 all;
    all.add(sums.data(), sums.size() * sizeof(std::uint64_t));
    EXPECT_EQ(blockChecksum64(data.data(), n, 1), all.value());
    EXPECT_EQ(blockChecksum64(data.data(), n, 3), all.value());
    for (std::size_t at : {std::size_t(0), kCacheBlockBytes + 5, n - 1}) {
        std::vector<unsigned char> changed = data;
        changed[at] ^= 1;
        EXPECT_NE(blockChecksum64(changed.data(), n, 0), all.value()) << "byte " << at;
    }
    std::filesystem::remove_all(dir);
}

TEST(Checksum64, AnyOneByteChangedChangesItAndPiecesEqualTheWhole) {
    std::vector<unsigned char> data(203);
    for (std::size_t i = 0; i < data.size(); ++i)
        data[i] = static_cast<unsigned char>(i * 37 + 11);
    Checksum64 whole;
    whole.add(data.data(), data.size());
    Checksum64 pieces;  // pieces that cut words anywhere
    for (std::size_t at = 0, step = 1; at < data.size(); at += step, step = step % 13 + 2)
        pieces.add(data.data() + at, std::min(step, data.size() - at));
    EXPECT_EQ(pieces.value(), whole.value());
    for (std::size_t i = 0; i < data.size(); ++i) {
        std::vector<unsigned char> changed = data;
        changed[i] ^= 1;
        Checksum64 c;
        c.add(changed.data(), changed.size());
        ASSERT_NE(c.value(), whole.value()) << "byte " << i;
    }
    data.push_back(0);  // a trailing zero counts
    Checksum64 longer;
    longer.add(data.data(), data.size());
    EXPECT_NE(longer.value(), whole.value());
}

}  // namespace
}  // namespace tomo
