#include "MbirTestData.h"

#include <gtest/gtest.h>

#include <cmath>

#include "core/phantom/Phantom.h"
#include "core/projectors/CpuBackProjectors.h"
#include "core/recon/Fbp.h"

namespace tomo::test {

MbirCase makeMbirCase(int size, int views, double counts, int slices) {
    ParallelGeometry::Params p;
    p.angles = uniformAngles(0, kPi, views);
    p.detectorCount = int(size * 1.45);
    p.rows = slices;
    MbirCase c{*ParallelGeometry::create(p), {size, size, slices, 1.0}, {}, {}, {}};
    const Phantom phantom = Phantom::sheppLogan2d(0.5 * size);
    EXPECT_TRUE(phantom.project(c.geom, c.sino, 4).isOk());
    EXPECT_TRUE(phantom.rasterize(c.vol, c.truth, 4).isOk());
    if (counts > 0) {
        EXPECT_TRUE(addPoissonNoise(c.sino, counts, 17, 0.05).isOk());
    }
    auto bp = makeCpuReferenceBackProjector(Interpolation::Linear);
    EXPECT_TRUE(reconstructFbp(c.sino, c.geom, c.vol, *bp, {}, c.fbp, {}).isOk());
    return c;
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
