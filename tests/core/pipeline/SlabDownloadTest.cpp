// A device's slab downloaded into host memory written once (core/pipeline/SlabDownload.h), on the
// simulated device: into a NaN-filled volume (what uninitialised memory may hold), every stored
// float equals what the old path gave - the device's rows, and zero in each row's padding - for
// rows downloaded as they lie and for rows a prepare step transposes chunk by chunk into a ring
// of device staging, with no hazard in the order of events and each chunk's download issued
// before the host stores the chunk before it.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "SimulatedQueues.h"
#include "core/pipeline/SlabDownload.h"

namespace tomo::test {
namespace {

struct Shape {
    std::size_t planes, ny, nx, chunkRows;
};

std::vector<Shape> shapes() {
    // Widths with and without row padding; chunks of one row, of planes, of a partial last
    // chunk, of more rows than the slab; sizes over 4 MiB take several storing threads.
    return {{1, 1, 1, 1},      {3, 37, 17, 1},    {3, 37, 17, 37},    {5, 64, 16, 50},
            {2, 130, 77, 520}, {4, 97, 301, 194}, {9, 128, 1024, 256}};
}

/// The slab [planes][ny][nx] the device holds: distinct values, none zero.
std::vector<float> slabValues(const Shape& s) {
    std::vector<float> v(s.planes * s.ny * s.nx);
    for (std::size_t i = 0; i < v.size(); ++i)
        v[i] = 1.0f + 0.25f * static_cast<float>(i % 100003) - static_cast<float>(i % 7);
    return v;
}

Volume nanFilled(const Shape& s) {
    Volume out = Volume::createUninitialised(s.planes, s.ny, s.nx).value();
    std::fill(out.data(), out.data() + s.planes * s.ny * out.pitch(),
              std::numeric_limits<float>::quiet_NaN());
    return out;
}

/// Every stored float of @p out: @p values' row, then +0 to the pitch.
void expectRowsAndZeroPadding(const Volume& out, const std::vector<float>& values) {
    const std::size_t nx = out.dim(2), pitch = out.pitch();
    for (std::size_t r = 0; r < out.dim(0) * out.dim(1); ++r) {
        const float* row = out.data() + r * pitch;
        ASSERT_EQ(std::memcmp(row, values.data() + r * nx, nx * sizeof(float)), 0) << "row " << r;
        for (std::size_t x = nx; x < pitch; ++x)
            ASSERT_TRUE(row[x] == 0.0f && !std::signbit(row[x])) << "row " << r << " pad " << x;
    }
}

DeviceBufferRef uploaded(SimulatedQueues& sim, const std::vector<float>& values) {
    const std::size_t bytes = values.size() * sizeof(float);
    DeviceBufferRef buf = sim.deviceBuffer("slab", bytes).value();
    EXPECT_TRUE(sim.upload(QueueRole::Upload, buf, 0, values.data(), bytes).isOk());
    EXPECT_TRUE(sim.sync(sim.record(QueueRole::Upload).value()).isOk());
    return buf;
}

TEST(SlabDownload, RowsAsTheyLieFillEveryStoredFloatOnce) {
    for (const Shape& s : shapes()) {
        SCOPED_TRACE(testing::Message()
                     << s.planes << "x" << s.ny << "x" << s.nx << " chunk " << s.chunkRows);
        SimulatedQueues sim;
        const std::vector<float> values = slabValues(s);
        const DeviceBufferRef acc = uploaded(sim, values);
        const SlabDownloadPlan plan = rowsAsTheyLie(acc, s.nx, s.chunkRows * s.nx);
        ASSERT_EQ(plan.chunkRows, s.chunkRows);
        for (int threads : {1, 3}) {
            Volume out = nanFilled(s);
            auto times = downloadSlab(sim, plan, out, threads);
            ASSERT_TRUE(times.isOk()) << times.status().message();
            expectRowsAndZeroPadding(out, values);
        }
        EXPECT_TRUE(sim.hazards().empty()) << sim.hazards().front();
    }
}

TEST(SlabDownload, RowsTransposedThroughAStagingRingFillEveryStoredFloatOnce) {
    // The device holds each plane as columns ([plane][x][y], the symmetric FDK kernels'
    // layout); prepare transposes a chunk's planes into its slot's staging.
    for (const Shape& s : shapes()) {
        if (s.chunkRows % s.ny != 0) continue;  // chunks of whole planes
        SCOPED_TRACE(testing::Message()
                     << s.planes << "x" << s.ny << "x" << s.nx << " chunk " << s.chunkRows);
        SimulatedQueues sim;
        const std::vector<float> values = slabValues(s);
        std::vector<float> columns(values.size());
        for (std::size_t p = 0; p < s.planes; ++p)
            for (std::size_t y = 0; y < s.ny; ++y)
                for (std::size_t x = 0; x < s.nx; ++x)
                    columns[(p * s.nx + x) * s.ny + y] = values[(p * s.ny + y) * s.nx + x];
        const DeviceBufferRef cols = uploaded(sim, columns);
        const std::size_t plane = s.ny * s.nx;
        int transposes = 0;
        SlabDownloadPlan plan;
        plan.chunkRows = s.chunkRows;
        plan.prepare = [&](std::size_t first, std::size_t count, int slot) -> Result<DeviceRows> {
            const std::size_t p0 = first / s.ny, n = count / s.ny;
            TOMO_ASSIGN_OR_RETURN(DeviceBufferRef dst,
                                  sim.deviceBuffer("staging." + std::to_string(slot),
                                                   s.chunkRows / s.ny * plane * sizeof(float)));
            ++transposes;
            TOMO_RETURN_IF_ERROR(
                sim.kernel(QueueRole::Compute, "transpose", 1e-3,
                           {{cols.handle, false}, {dst.handle, true}}, [&sim, cols, dst, p0, n, s] {
                               const auto* src = reinterpret_cast<const float*>(sim.memory(cols));
                               auto* to = reinterpret_cast<float*>(sim.memory(dst));
                               for (std::size_t p = 0; p < n; ++p)
                                   for (std::size_t y = 0; y < s.ny; ++y)
                                       for (std::size_t x = 0; x < s.nx; ++x)
                                           to[(p * s.ny + y) * s.nx + x] =
                                               src[((p0 + p) * s.nx + x) * s.ny + y];
                           }));
            return DeviceRows{dst, 0};
        };
        Volume out = nanFilled(s);
        auto times = downloadSlab(sim, plan, out, 3);
        ASSERT_TRUE(times.isOk()) << times.status().message();
        expectRowsAndZeroPadding(out, values);
        const std::size_t chunks = (s.planes * s.ny + s.chunkRows - 1) / s.chunkRows;
        EXPECT_EQ(transposes, static_cast<int>(chunks));
        EXPECT_TRUE(sim.hazards().empty()) << sim.hazards().front();
        EXPECT_GT(times->prepare, 0.0);
        EXPECT_GT(times->download, 0.0);
        // Chunk k + 1's download is issued before the host waits for chunk k's (the store of
        // k runs beside the download of k + 1).
        std::vector<SimOp> downloads;
        for (const SimOp& op : sim.trace())
            if (op.what == "download") downloads.push_back(op);
        ASSERT_EQ(downloads.size(), chunks);
        for (std::size_t k = 0; k + 1 < downloads.size(); ++k)
            EXPECT_LT(downloads[k + 1].issue, downloads[k].end) << "chunk " << k + 1;
    }
}

// The ring that the symmetric FDK variants' download() allocates and their bytesFor() counts
// (one function for both): up to 8 Mi voxels a plane, two chunks within 16 Mi floats; above, two
// whole planes (32 Mi floats = 128 MiB at 4096^2, which a cap at 16 Mi floats missed by 64 MiB).
TEST(SlabDownload, TheStagingRingCountsWhatItHolds) {
    const std::size_t half = kStagingRingFloats / 2;
    struct Case {
        std::size_t plane, planes, maxChunk, chunk, slots;
    };
    const Case cases[] = {
        {2048 * 2048, 512, 1000, 2, 2},  // 2 planes a chunk: 16 Mi floats in all
        {2048 * 2048, 1, 1000, 1, 1},    // one plane: one buffer of it
        {2048 * 2048, 3, 1000, 2, 2},    // 3 planes: two chunks of 2 (4 planes' staging)
        {4096 * 4096, 64, 1000, 1, 2},   // a plane above half the ring: two whole planes
        {8192 * 8192, 2, 1000, 1, 2},      {512 * 512, 16, 1000, 16, 1},  // the slab fits one chunk
        {512 * 512, 1000, 1000, 32, 2},     // 32 planes of 512^2 = half the ring
        {64 * 64, 100000, 65535, 2048, 2},  // capped by half the ring before the grid limit
        {8, 100000, 65535, 65535, 2},       // tiny planes: the launch limit caps the chunk
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(testing::Message() << c.plane << " x " << c.planes);
        const StagingRing ring = stagingRing(c.plane, c.planes, c.maxChunk);
        EXPECT_EQ(ring.chunkPlanes, c.chunk);
        EXPECT_EQ(ring.slots, c.slots);
        EXPECT_EQ(ring.floats(c.plane), c.slots * c.chunk * c.plane);
        if (c.plane <= half) {
            EXPECT_LE(ring.floats(c.plane), kStagingRingFloats);
        }
    }
    EXPECT_EQ(stagingRing(4096 * 4096, 64, 1000).floats(4096 * 4096),
              std::size_t(32) << 20);  // 128 MiB: 64 MiB above the old 16 Mi floats cap
    EXPECT_EQ(stagingRing(0, 4, 4).floats(0), 0u);
}

TEST(SlabDownload, StoreRowsWritesEveryStoredFloatFromPitchedRowsOrZeros) {
    // Rows around the 64-row task, widths with and without padding, sizes over 4 MiB.
    for (const Shape& s : shapes()) {
        SCOPED_TRACE(testing::Message() << s.planes << "x" << s.ny << "x" << s.nx);
        const std::vector<float> values = slabValues(s);
        const std::size_t rows = s.planes * s.ny, half = rows / 2;
        for (int threads : {1, 3, 0}) {
            Volume out = nanFilled(s);
            storeRows(values.data(), s.nx, 0, half, out, threads);
            storeRows(values.data() + half * s.nx, s.nx, half, rows - half, out, threads);
            expectRowsAndZeroPadding(out, values);
            // From a pitched volume (SlabOutput's slabs), and zeros.
            Volume copy = nanFilled(s);
            storeRows(out.data(), out.pitch(), 0, rows, copy, threads);
            expectRowsAndZeroPadding(copy, values);
            storeRows(nullptr, 0, 0, rows, copy, threads);
            expectRowsAndZeroPadding(copy, std::vector<float>(values.size(), 0.0f));
        }
    }
}

}  // namespace
}  // namespace tomo::test
