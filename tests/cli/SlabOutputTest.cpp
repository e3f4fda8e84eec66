// The service's held output and in-memory source (app/recon/SlabOutput.cpp, SinogramSource.cpp;
// issue 27): the held volume is allocated uninitialised, each slab's planes are stored once on
// several threads and the planes no slab wrote are zeroed at commit; a stack's slices are
// copied into uninitialised memory. Every stored float, row padding included, is what the old
// zero-filled path gave. New allocations are filled with garbage meanwhile (glibc's
// M_PERTURB), as reused memory may hold, so that a float left unwritten shows.
#include <gtest/gtest.h>
#include <malloc.h>

#include <sys/resource.h>

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <vector>

#include "app/data/DataFormats.h"
#include "app/recon/ReconService.h"
#include "app/recon/ReconSteps.h"
#include "app/recon/SinogramSource.h"

namespace tomo {
namespace {

/// A volume whose element (z, y, x) is 1 + z * 1000 + y * 10 + x * 0.5 (never zero).
Volume ramp(std::size_t nz, std::size_t ny, std::size_t nx, std::size_t z0 = 0) {
    Volume v = Volume::create(nz, ny, nx).value();
    for (std::size_t z = 0; z < nz; ++z)
        for (std::size_t y = 0; y < ny; ++y)
            for (std::size_t x = 0; x < nx; ++x)
                v(z, y, x) = 1.0f + float(z0 + z) * 1000 + float(y) * 10 + float(x) * 0.5f;
    return v;
}

/// While alive, every heap allocation that is not calloc's holds garbage (glibc's M_PERTURB:
/// bytes 0xAA, a float of -3.0e-13), as reused memory may: what is not written shows.
struct GarbageHeap {
    GarbageHeap() { mallopt(M_PERTURB, 0x55); }
    ~GarbageHeap() { mallopt(M_PERTURB, 0); }
};

/// Plane z of @p v: @p expected's plane z when @p held, else zeros; +0 in the padding.
std::size_t wrongFloats(const Volume& v, const Volume& expected, std::size_t z, bool held) {
    std::size_t bad = 0;
    for (std::size_t y = 0; y < v.dim(1); ++y) {
        const float* row = v.data() + (z * v.dim(1) + y) * v.pitch();
        for (std::size_t x = 0; x < v.pitch(); ++x) {
            const float want = held && x < v.dim(2) ? expected(z, y, x) : 0.0f;
            bad += std::memcmp(&row[x], &want, sizeof(float)) != 0;
        }
    }
    return bad;
}

TEST(SlabOutputHeld, SlabsAreStoredOnceAndUnwrittenPlanesAreZero) {
    const std::size_t nz = 10, ny = 9, nx = 17;  // rows of 17 floats in a pitch of 32
    const Volume all = ramp(nz, ny, nx);
    app::ReconReport report;
    auto out = app::detail::SlabOutput::open({{}, {nz, ny, nx}, {}, nullptr, 1u << 30}, report);
    ASSERT_TRUE(out.isOk()) << out.status().message();
    const GarbageHeap garbage;
    ASSERT_TRUE(out->put(2, ramp(3, ny, nx, 2)).isOk());
    ASSERT_TRUE(out->zeros(5, 2).isOk());  // planes 5 and 6: empty (left to commit)
    ASSERT_TRUE(out->put(7, ramp(2, ny, nx, 7)).isOk());
    ASSERT_TRUE(out->commit(report).isOk());
    const Volume& v = report.image;
    ASSERT_EQ(v.dims(), all.dims());
    for (std::size_t z = 0; z < nz; ++z) {
        const bool held = (z >= 2 && z < 5) || (z >= 7 && z < 9);
        EXPECT_EQ(wrongFloats(v, all, z, held), 0u) << "plane " << z;
    }
}

// A streamed file: the planes a stopped run never reached are written as blocks of zero planes
// (one 16-plane block zeroed once and written again, a shorter last block), between slabs.
TEST(SlabOutputStreamed, UnreachedPlanesAreZeroInTheFile) {
    const std::size_t nz = 45, ny = 9, nx = 17;
    const Volume all = ramp(nz, ny, nx);
    const std::filesystem::path dir = std::filesystem::path(::testing::TempDir()) / "slab-zeros";
    std::filesystem::create_directories(dir);
    for (const std::string ext : {".raw", ".h5"}) {
        SCOPED_TRACE(ext);
        const std::filesystem::path file = dir / ("zeros" + ext);
        std::filesystem::remove(file);
        app::ReconReport report;
        auto out =
            app::detail::SlabOutput::open({file, {nz, ny, nx}, {}, nullptr, 1u << 30}, report);
        ASSERT_TRUE(out.isOk()) << out.status().message();
        ASSERT_TRUE(report.streamed);
        {
            const GarbageHeap garbage;
            ASSERT_TRUE(out->put(0, ramp(3, ny, nx)).isOk());
            ASSERT_TRUE(out->zeros(3, 37).isOk());  // two 16-plane blocks and one of 5
            ASSERT_TRUE(out->put(40, ramp(5, ny, nx, 40)).isOk());
        }
        ASSERT_TRUE(out->commit(report).isOk());
        auto formats = app::makeFormatRegistry();
        ASSERT_TRUE(formats.isOk());
        ReadOptions options;
        options.shape = std::array<std::size_t, 3>{nz, ny, nx};
        auto v = formats->readVolume(file, options);
        ASSERT_TRUE(v.isOk()) << v.status().message();
        ASSERT_EQ(v->dims(), all.dims());
        for (std::size_t z = 0; z < nz; ++z)
            EXPECT_EQ(wrongFloats(*v, all, z, z < 3 || z >= 40), 0u) << "plane " << z;
        if (ext == ".raw") {  // the file is the floats themselves, nothing else
            EXPECT_EQ(std::filesystem::file_size(file), nz * ny * nx * sizeof(float));
            std::vector<float> bytes(nz * ny * nx);
            std::ifstream(file, std::ios::binary)
                .read(reinterpret_cast<char*>(bytes.data()), std::streamsize(bytes.size() * 4));
            std::size_t bad = 0;
            for (std::size_t z = 0; z < nz; ++z)
                for (std::size_t y = 0; y < ny; ++y)
                    for (std::size_t x = 0; x < nx; ++x) {
                        const float want = z < 3 || z >= 40 ? all(z, y, x) : 0.0f;
                        bad += std::memcmp(&bytes[(z * ny + y) * nx + x], &want, 4) != 0;
                    }
            EXPECT_EQ(bad, 0u);
        }
    }
}

// The cost of zeros() on a streamed .raw file: 128 planes of 1024^2 (512 MiB) into
// $TOMO_ZEROS_DIR (default the test's temp folder; /dev/shm leaves the disk out). Prints wall
// and process CPU seconds; disabled (run with --gtest_also_run_disabled_tests
// --gtest_filter='SlabOutputStreamed.DISABLED_*').
TEST(SlabOutputStreamed, DISABLED_ZerosCost) {
    const std::size_t nz = 128, n = 1024;
    const char* where = std::getenv("TOMO_ZEROS_DIR");
    const std::filesystem::path file =
        std::filesystem::path(where ? where : ::testing::TempDir()) / "zeros-cost.raw";
    std::filesystem::remove(file);
    app::ReconReport report;
    auto out = app::detail::SlabOutput::open({file, {nz, n, n}, {}, nullptr, 1u << 30}, report);
    ASSERT_TRUE(out.isOk()) << out.status().message();
    const auto cpu = [] {
        rusage u{};
        getrusage(RUSAGE_SELF, &u);
        return double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
               1e-6 * double(u.ru_utime.tv_usec + u.ru_stime.tv_usec);
    };
    const double cpu0 = cpu();
    const auto t0 = std::chrono::steady_clock::now();
    ASSERT_TRUE(out->zeros(0, nz).isOk());
    const double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const double used = cpu() - cpu0;
    ASSERT_TRUE(out->commit(report).isOk());
    std::cout << "zeros(0, " << nz << ") of " << n << "^2 planes: " << wall << " s wall, " << used
              << " s CPU\n";
    std::filesystem::remove(file);
}

TEST(SlabOutputHeld, AStackInMemoryIsReadAsSlicesWithZeroPadding) {
    const std::size_t nz = 12, ny = 7, nx = 21;
    auto all = std::make_shared<Sinograms>(ramp(nz, ny, nx));
    const auto source = app::memorySource(all);
    for (int threads : {1, 3}) {
        const GarbageHeap garbage;
        ExecContext ctx;
        ctx.threads = threads;
        auto part = source->read(4, 5, ctx);
        ASSERT_TRUE(part.isOk()) << part.status().message();
        const Volume expected = ramp(5, ny, nx, 4);
        for (std::size_t z = 0; z < 5; ++z)
            EXPECT_EQ(wrongFloats(*part, expected, z, true), 0u) << "slice " << z;
    }
}

}  // namespace
}  // namespace tomo
