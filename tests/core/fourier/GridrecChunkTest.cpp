// The CUDA gridrec's chunk (gpu/cuda/fourier/GridrecKernels.cu) emulated on the CPU with the
// kernels' own per-element arithmetic (GridrecChunkMath.h: rows packed, samples, pixels;
// GatherMath.h: the gather) and the transforms cuFFT runs (forward rows, unnormalised inverse
// 2-D), against the CPU gridrec of the same plan: pairs and a single slice, half lines, an
// off-centre axis. It checks the indexing that has never run on a GPU.
#include <gtest/gtest.h>

#include <complex>
#include <random>
#include <vector>

#include "core/filter/ComplexRowFft.h"
#include "core/fourier/GatherPlan.h"
#include "core/fourier/Gridrec.h"
#include "core/fourier/GridrecChunkMath.h"

namespace tomo {
namespace {

using cf = std::complex<float>;

/// @p count transforms of @p length elements @p stride apart, the first @p distance apart.
void transform(std::vector<cf>& data, std::size_t length, std::size_t count, std::size_t stride,
               std::size_t distance, bool inverse) {
    const std::size_t padded = (length + 7) / 8 * 8;
    auto fft = ComplexRowFft::create(length, 1, padded);
    ASSERT_TRUE(fft.isOk()) << fft.status().message();
    std::vector<cf> row(padded);
    for (std::size_t r = 0; r < count; ++r) {
        for (std::size_t j = 0; j < length; ++j)
            row[j] = data[r * distance + j * stride];
        inverse ? fft->inverse(row.data(), 1) : fft->forward(row.data(), 1);
        for (std::size_t j = 0; j < length; ++j)
            data[r * distance + j * stride] = row[j];
    }
}

/// One chunk of all of @p sino's slices as CudaGridrec enqueues it, on the CPU.
Volume emulateChunk(const Sinograms& sino, const FourierPlan& plan, const GatherPlan& gather) {
    const int slices = static_cast<int>(sino.dim(0));
    GridrecChunk c;
    c.groups = (slices + 1) / 2;
    c.lastSingle = slices % 2 == 1;
    c.views = static_cast<int>(plan.views().size());
    c.detectors = plan.detectors();
    c.rowLength = plan.rowLength();
    c.sampleStride = c.rowLength + 1;
    c.gridX = plan.gridX();
    c.gridY = plan.gridY();
    c.nx = plan.nx();
    c.ny = plan.ny();
    const auto views = std::size_t(c.views), det = std::size_t(c.detectors);
    const auto l = std::size_t(c.rowLength), g = std::size_t(c.groups);
    std::vector<float> dense;  // the staged sinograms, [S][views][detectors]
    for (std::size_t s = 0; s < sino.dim(0); ++s)
        for (std::size_t p = 0; p < views; ++p)
            for (float v : sino.row(s, p))
                dense.push_back(v);
    std::vector<cf> rows(g * views * l);
    for (int q = 0; q < c.groups; ++q)
        for (int p = 0; p < c.views; ++p) {
            long long a = -1, b = -1;
            gridrecRowSource(c, q, p, a, b);
            for (std::size_t j = 0; j < det; ++j)
                rows[(std::size_t(q) * views + std::size_t(p)) * l + j] =
                    cf(a >= 0 ? dense[std::size_t(a) + j] : 0.f,
                       b >= 0 ? dense[std::size_t(b) + j] : 0.f);
        }
    transform(rows, l, g * views, 1, l, false);
    std::vector<float> samples(2 * g * views * std::size_t(c.sampleStride));
    for (int q = 0; q < c.groups; ++q)
        for (int p = 0; p < c.views; ++p) {
            int first = 0, count = 0;
            gridrecSampleRange(c, q, first, count);
            const FourierPlan::View& v = plan.views()[std::size_t(p)];
            float* out =
                samples.data() + 2 * (std::size_t(q) * views + std::size_t(p)) * c.sampleStride;
            for (int i = 0; i < count; ++i)
                gridrecSample(c, q, p, i, reinterpret_cast<const float*>(rows.data()),
                              plan.response().data(), v.weight, v.phase / kPi, out[2 * i],
                              out[2 * i + 1]);
        }
    const auto mx = std::size_t(c.gridX), my = std::size_t(c.gridY);
    std::vector<cf> grids(g * mx * my);
    for (int q = 0; q < c.groups; ++q) {
        const int kMin = gridrecSingle(c, q) ? 0 : -c.rowLength / 2;
        gather.gatherAll(plan, gather.geometry(plan, kMin, kMin, c.sampleStride),
                         samples.data() + 2 * std::size_t(q) * views * c.sampleStride,
                         reinterpret_cast<float*>(grids.data() + std::size_t(q) * mx * my));
        std::vector<cf> grid(grids.begin() + std::ptrdiff_t(q * mx * my),
                             grids.begin() + std::ptrdiff_t((q + 1) * mx * my));
        transform(grid, mx, my, 1, mx, true);  // rows, then columns: the 2-D inverse
        transform(grid, my, mx, mx, 1, true);
        std::copy(grid.begin(), grid.end(), grids.begin() + std::ptrdiff_t(q * mx * my));
    }
    std::vector<float> images(std::size_t(slices) * std::size_t(c.nx) * std::size_t(c.ny));
    for (int q = 0; q < c.groups; ++q)
        for (int iy = 0; iy < c.ny; ++iy)
            for (int ix = 0; ix < c.nx; ++ix) {
                float a = 0, b = 0;
                long long at = 0, bt = 0;
                const float d =
                    plan.deapodisationY()[std::size_t(iy)] * plan.deapodisationX()[std::size_t(ix)];
                gridrecPixel(c, q, ix, iy, plan.gridRow(iy), plan.gridColumn(ix), d,
                             reinterpret_cast<const float*>(grids.data()), a, b, at, bt);
                images[std::size_t(at)] = a;
                if (bt >= 0) images[std::size_t(bt)] = b;
            }
    Volume out(std::size_t(slices), std::size_t(c.ny), std::size_t(c.nx));
    for (std::size_t s = 0; s < out.dim(0); ++s)
        for (std::size_t y = 0; y < out.dim(1); ++y)
            for (std::size_t x = 0; x < out.dim(2); ++x)
                out.row(s, y)[x] = images[(s * out.dim(1) + y) * out.dim(2) + x];
    return out;
}

/// max |emulated - CPU gridrec| / max |CPU gridrec| over @p slices slices.
double chunkAgainstCpu(int slices, double shift, double voxel) {
    ParallelGeometry::Params p;
    p.angles = uniformAngles(0.05, kPi + 0.05, 27);  // odd: a single slice's last row is half
    p.detectorCount = 44;
    p.rows = slices;
    p.centerOfRotation = 21.5 + shift;
    const ParallelGeometry geom = *ParallelGeometry::create(p);
    const VolumeGeometry vol{37, 30, slices, voxel, 0.4, -1.1};
    Sinograms sino(std::size_t(slices), 27, 44);
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> value(-1.f, 1.f);
    for (std::size_t s = 0; s < sino.dim(0); ++s)
        for (std::size_t a = 0; a < sino.dim(1); ++a)
            for (float& v : sino.row(s, a))
                v = value(rng);
    GridrecOptions options;
    options.kernelWidth = 6;
    options.oversampling = 1.5;
    const FourierPlan plan =
        *FourierPlan::create(geom, vol, options, cpuFftSizeRule(), cpuFourierCost());
    const GatherPlan gather = *GatherPlan::create(plan, 16);
    const Volume emulated = emulateChunk(sino, plan, gather);
    Volume cpu;
    EXPECT_TRUE(reconstructGridrec(sino, geom, vol, options, cpu, {}).isOk());
    double diff = 0, peak = 0;
    for (std::size_t s = 0; s < cpu.dim(0); ++s)
        for (std::size_t y = 0; y < cpu.dim(1); ++y)
            for (std::size_t x = 0; x < cpu.dim(2); ++x) {
                peak = std::max(peak, double(std::abs(cpu.row(s, y)[x])));
                diff = std::max(diff, double(std::abs(cpu.row(s, y)[x] - emulated.row(s, y)[x])));
            }
    EXPECT_GT(peak, 0.0);
    return diff / peak;
}

TEST(GridrecChunk, TheCudaChunksArithmeticGivesTheCpuGridrec) {
    for (int slices : {1, 2, 3, 4})  // a single slice, pairs, pairs and a single slice
        for (double shift : {0.0, -3.6})
            for (double voxel : {1.0, 2.3})
                EXPECT_LT(chunkAgainstCpu(slices, shift, voxel), 5e-6)
                    << slices << " slices, shift " << shift << ", voxel " << voxel;
}

}  // namespace
}  // namespace tomo
