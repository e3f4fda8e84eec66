#include "MbirTestData.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <utility>

#include "core/phantom/Phantom.h"
#include "core/projectors/CpuBackProjectors.h"
#include "core/recon/Fbp.h"

namespace tomo::test {

namespace {

ParallelGeometry::Params caseParams(int size, int views, int slices) {
    ParallelGeometry::Params p;
    p.angles = uniformAngles(0, kPi, views);
    p.detectorCount = int(size * 1.45);
    p.rows = slices;
    return p;
}

MbirCase makeCase(const Phantom& phantom, int size, int views, double counts, int slices) {
    MbirCase c{*ParallelGeometry::create(caseParams(size, views, slices)),
               {size, size, slices, 1.0},
               {},
               {},
               {}};
    EXPECT_TRUE(phantom.project(c.geom, c.sino, 4).isOk());
    EXPECT_TRUE(phantom.rasterize(c.vol, c.truth, 4).isOk());
    if (counts > 0) {
        EXPECT_TRUE(addPoissonNoise(c.sino, counts, 17, 0.05).isOk());
    }
    auto bp = makeCpuReferenceBackProjector(Interpolation::Linear);
    EXPECT_TRUE(reconstructFbp(c.sino, c.geom, c.vol, *bp, {}, c.fbp, {}).isOk());
    return c;
}

}  // namespace

MbirCase makeMbirCase(int size, int views, double counts, int slices) {
    return makeCase(Phantom::sheppLogan2d(0.5 * size), size, views, counts, slices);
}

MbirCase makeMbirStackCase(int size, int views, double counts, int slices) {
    return makeCase(Phantom::sheppLogan3d(0.5 * size), size, views, counts, slices);
}

MbirCase sliceOf(const MbirCase& c, int z) {
    const std::size_t views = c.sino.dim(1), channels = c.sino.dim(2);
    const int size = c.vol.nx;
    MbirCase one{*ParallelGeometry::create(caseParams(size, int(views), 1)),
                 {size, size, 1, c.vol.voxelSize},
                 {},
                 {},
                 {}};
    auto sino = Sinograms::create(1, views, channels);
    auto truth = Volume::create(1, std::size_t(size), std::size_t(size));
    auto fbp = Volume::create(1, std::size_t(size), std::size_t(size));
    EXPECT_TRUE(sino.isOk() && truth.isOk() && fbp.isOk());
    one.sino = std::move(*sino);
    one.truth = std::move(*truth);
    one.fbp = std::move(*fbp);
    EXPECT_EQ(one.geom.detectorCount(), int(channels));
    for (std::size_t a = 0; a < views; ++a)
        for (std::size_t d = 0; d < channels; ++d)
            one.sino(0, a, d) = c.sino(std::size_t(z), a, d);
    for (std::size_t iy = 0; iy < std::size_t(size); ++iy) {
        std::copy_n(c.truth.row(std::size_t(z), iy).data(), size, one.truth.row(0, iy).data());
        std::copy_n(c.fbp.row(std::size_t(z), iy).data(), size, one.fbp.row(0, iy).data());
    }
    return one;
}

double rmseOf(const Volume& a, const Volume& b) {
    double sum = 0;
    std::size_t n = 0;
    for (std::size_t r = 0; r < a.dim(0) * a.dim(1); ++r) {
        auto ra = a.rows().row(r);
        auto rb = b.rows().row(r);
        for (std::size_t i = 0; i < ra.size(); ++i, ++n)
            sum += (double(ra[i]) - rb[i]) * (double(ra[i]) - rb[i]);
    }
    return std::sqrt(sum / double(n));
}

MbirRun solveCase(const MbirCase& c, const MbirOptions& o, int threads,
                  const IterationCallback& callback, const Volume* initial,
                  MbirMatrixCache* cache) {
    MbirRun r;
    ExecContext ctx;
    ctx.threads = threads;
    r.status = solveMbir(c.sino, c.geom, c.vol, o, initial ? initial : &c.fbp, &c.truth, callback,
                         r.image, r.summary, r.report, ctx, cache);
    return r;
}

}  // namespace tomo::test
