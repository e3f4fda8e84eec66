// The service's held output and in-memory source (app/recon/SlabOutput.cpp, SinogramSource.cpp;
// issue 27): the held volume is allocated uninitialised, each slab's planes are stored once on
// several threads and the planes no slab wrote are zeroed at commit; a stack's slices are
// copied into uninitialised memory. Every stored float, row padding included, is what the old
// zero-filled path gave. New allocations are filled with garbage meanwhile (glibc's
// M_PERTURB), as reused memory may hold, so that a float left unwritten shows.
#include <gtest/gtest.h>
#include <malloc.h>

#include <cmath>
#include <cstring>

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
