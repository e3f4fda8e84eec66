// The projector pair of paper 001 on the executable's GPU backend (gpu/opencl/locality in
// tomo_gpu_tests, gpu/cuda/locality in tomo_gpu_cuda_tests; test::makeDeviceLocalityOperator of
// the linked <Backend>TestBackend.cpp) against core/locality's CPU operator: forward projection
// in every ordering and back-projection within 1e-4 of the CPU, subsets writing only their rows
// and summing to the whole back-projection, the dot-product ratio of the (unmatched) pair equal
// to the CPU pair's, SIRT through reconstructIterative's operator hook equal to SIRT on the CPU,
// wrong sizes and subsets rejected without writing, and the slice-count check before any device
// is opened. The device cases skip at run time when the backend opens no device (PoCL runs the
// OpenCL ones on the CPU).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "GpuTestSupport.h"
#include "core/iterative/IterativeReconstruction.h"
#include "core/locality/DeviceLocality.h"
#include "core/locality/LocalityOperator.h"
#include "core/phantom/Phantom.h"

namespace tomo {
namespace {

/// A non-square grid with offsets and a shifted axis, so that both orientation groups, edge
/// rays and partial tiles and blocks occur.
struct Problem {
    ParallelGeometry geom;
    VolumeGeometry vol;
};

Problem makeProblem(int angles = 45, int slices = 2) {
    ParallelGeometry::Params p;
    p.angles = uniformAngles(0.0, kPi, angles);
    p.detectorCount = 70;
    p.rows = slices;
    p.detectorPitch = 1.25;
    p.centerOfRotation = 34.3;
    auto geom = ParallelGeometry::create(p);
    EXPECT_TRUE(geom.isOk());
    VolumeGeometry vol;
    vol.nx = 53;
    vol.ny = 41;
    vol.nz = slices;
    vol.voxelSize = 1.5;
    vol.offsetX = 1.2;
    vol.offsetY = -0.7;
    return {*geom, vol};
}

/// Deterministic values in [0, 1) (a linear congruential generator).
std::vector<float> pseudoRandom(std::size_t n, unsigned seed) {
    std::vector<float> v(n);
    for (float& x : v) {
        seed = seed * 1664525u + 1013904223u;
        x = static_cast<float>(seed >> 8) / 16777216.0f;
    }
    return v;
}

/// max |a - b| / max |b|.
double relativeError(const std::vector<float>& a, const std::vector<float>& b) {
    double diff = 0, ref = 0;
    for (std::size_t i = 0; i < b.size(); ++i) {
        diff = std::max(diff, std::abs(double(a[i]) - double(b[i])));
        ref = std::max(ref, std::abs(double(b[i])));
    }
    return ref > 0 ? diff / ref : diff;
}

/// The backend's operator, or a skip when there is no device.
#define MAKE_DEVICE_OPERATOR(var, problem, ordering)                                            \
    auto var##Made = test::makeDeviceLocalityOperator((problem).geom, (problem).vol, ordering); \
    if (!var##Made && var##Made.status().code() == ErrorCode::NotFound)                         \
        TOMO_DEVICE_SKIP(var##Made.status().message());                                         \
    ASSERT_TRUE(var##Made.isOk()) << var##Made.status().toString();                             \
    SubsetOperator& var = **var##Made

TEST(DeviceLocality, ForwardEqualsTheCpuOperatorInEveryOrdering) {
    const Problem pr = makeProblem();
    auto cpu = LocalityOperator::create(pr.geom, pr.vol);
    ASSERT_TRUE(cpu.isOk());
    const std::vector<float> x = pseudoRandom((*cpu)->domainSize(), 7);
    std::vector<float> expected((*cpu)->rangeSize());
    ASSERT_TRUE((*cpu)->forward(x, expected, {}).isOk());
    for (RayOrdering o : {RayOrdering::Unordered, RayOrdering::Strips,
                          RayOrdering::StripsConsecutiveAngles, RayOrdering::StripSegments}) {
        SCOPED_TRACE(rayOrderingName(o));
        MAKE_DEVICE_OPERATOR(gpu, pr, o);
        EXPECT_EQ(gpu.domainSize(), (*cpu)->domainSize());
        EXPECT_EQ(gpu.rangeSize(), (*cpu)->rangeSize());
        std::vector<float> y(gpu.rangeSize(), -1.0f);
        ASSERT_TRUE(gpu.forward(x, y, {}).isOk());
        EXPECT_LT(relativeError(y, expected), 1e-4);
    }
}

TEST(DeviceLocality, BackProjectionEqualsTheCpuOperator) {
    const Problem pr = makeProblem();
    auto cpu = LocalityOperator::create(pr.geom, pr.vol);
    ASSERT_TRUE(cpu.isOk());
    MAKE_DEVICE_OPERATOR(gpu, pr, RayOrdering::StripsConsecutiveAngles);
    const std::vector<float> y = pseudoRandom(gpu.rangeSize(), 11);
    std::vector<float> expected(gpu.domainSize()), x(gpu.domainSize(), -1.0f);
    ASSERT_TRUE((*cpu)->adjoint(y, expected, {}).isOk());
    ASSERT_TRUE(gpu.adjoint(y, x, {}).isOk());
    EXPECT_LT(relativeError(x, expected), 1e-4);
}

TEST(DeviceLocality, SubsetsTouchOnlyTheirRowsAndSumToTheWhole) {
    const Problem pr = makeProblem();
    MAKE_DEVICE_OPERATOR(gpu, pr, RayOrdering::StripSegments);
    const int subsets = 4, angles = gpu.angleCount(), det = gpu.detectorCount();
    const std::vector<float> x = pseudoRandom(gpu.domainSize(), 3);
    const std::vector<float> y = pseudoRandom(gpu.rangeSize(), 5);
    std::vector<float> full(gpu.rangeSize()), adjointFull(gpu.domainSize());
    ASSERT_TRUE(gpu.forward(x, full, {}).isOk());
    ASSERT_TRUE(gpu.adjoint(y, adjointFull, {}).isOk());
    std::vector<double> adjointSum(gpu.domainSize(), 0.0);
    for (int s = 0; s < subsets; ++s) {
        std::vector<float> part(gpu.rangeSize(), 123.0f), back(gpu.domainSize());
        ASSERT_TRUE(gpu.forwardSubset(x, part, s, subsets, {}).isOk());
        for (std::size_t z = 0; z < gpu.sliceCount(); ++z)
            for (int p = 0; p < angles; ++p)
                for (int j = 0; j < det; ++j) {
                    const std::size_t i = (z * angles + std::size_t(p)) * det + std::size_t(j);
                    ASSERT_EQ(part[i], p % subsets == s ? full[i] : 123.0f) << z << " " << p;
                }
        ASSERT_TRUE(gpu.adjointSubset(y, back, s, subsets, {}).isOk());
        for (std::size_t i = 0; i < back.size(); ++i)
            adjointSum[i] += back[i];
    }
    // The subsets' back-projections add up to the whole one (float summation order differs).
    std::vector<float> sum(adjointSum.begin(), adjointSum.end());
    EXPECT_LT(relativeError(sum, adjointFull), 1e-5);
}

TEST(DeviceLocality, ChunksOfOneSliceGiveTheBitsOfOneChunk) {
    // The host loop is core's pipeline (core/locality/DeviceLocality.h): a slice's kernels do
    // not depend on the chunk it is in, so slice-by-slice chunks with their uploads, kernels
    // and downloads overlapping give the bits of one chunk, in both directions and subsets.
    const Problem pr = makeProblem(45, 5);
    MAKE_DEVICE_OPERATOR(gpu, pr, RayOrdering::StripSegments);
    auto* device = dynamic_cast<DeviceLocalityOperator*>(&gpu);
    ASSERT_NE(device, nullptr) << gpu.name() << " is not on core's host loop";
    const std::vector<float> x = pseudoRandom(gpu.domainSize(), 3);
    const std::vector<float> y = pseudoRandom(gpu.rangeSize(), 5);
    std::vector<std::vector<float>> results;
    for (const std::size_t cap : {std::size_t(5), std::size_t(1), std::size_t(2)}) {
        device->setChunkSlices(cap);
        std::vector<float> fwd(gpu.rangeSize(), 9.f), sub(gpu.rangeSize(), 9.f);
        std::vector<float> back(gpu.domainSize()), subBack(gpu.domainSize());
        ASSERT_TRUE(gpu.forward(x, fwd, {}).isOk());
        ASSERT_TRUE(gpu.forwardSubset(x, sub, 2, 3, {}).isOk());
        ASSERT_TRUE(gpu.adjoint(y, back, {}).isOk());
        ASSERT_TRUE(gpu.adjointSubset(y, subBack, 1, 3, {}).isOk());
        for (auto* v : {&fwd, &sub, &back, &subBack})
            results.push_back(std::move(*v));
    }
    for (std::size_t i = 4; i < results.size(); ++i)
        EXPECT_EQ(results[i], results[i % 4]) << "chunk run " << i / 4 << ", result " << i % 4;
    // The calls' timeline: kernels ran, and both transfers moved bytes.
    const TimelineReport& t = device->timeline();
    EXPECT_GT(t.busyOf(TimelineStage::Kernels), 0.0);
    EXPECT_GT(t.bytes[static_cast<std::size_t>(TimelineStage::Upload)], 0u);
    EXPECT_GT(t.bytes[static_cast<std::size_t>(TimelineStage::Download)], 0u);
}

TEST(DeviceLocality, RejectsWrongSizesAndSubsetsWithoutWriting) {
    const Problem pr = makeProblem(12, 1);
    MAKE_DEVICE_OPERATOR(gpu, pr, RayOrdering::StripSegments);
    std::vector<float> x(gpu.domainSize(), 1.0f);
    std::vector<float> shortY(gpu.rangeSize() - 1, 7.0f), y(gpu.rangeSize(), 7.0f);
    const Status sizes = gpu.forward(x, shortY, {});
    EXPECT_EQ(sizes.code(), ErrorCode::InvalidArgument);
    EXPECT_NE(sizes.message().find(gpu.name()), std::string::npos) << sizes.message();
    EXPECT_NE(sizes.message().find(std::to_string(gpu.rangeSize() - 1)), std::string::npos);
    EXPECT_EQ(gpu.forwardSubset(x, y, 3, 3, {}).code(), ErrorCode::InvalidArgument);
    EXPECT_EQ(gpu.adjointSubset(y, x, 0, 13, {}).code(), ErrorCode::InvalidArgument);  // > angles
    EXPECT_TRUE(std::all_of(y.begin(), y.end(), [](float v) { return v == 7.0f; }));
    EXPECT_TRUE(std::all_of(x.begin(), x.end(), [](float v) { return v == 1.0f; }));
}

TEST(DeviceLocality, DotProductTestOfThePair) {
    // <A x, y> = <x, A^T y> for a matched pair; this pair is voxel-driven against ray-driven
    // (as on the CPU and in ASTRA), so the two agree to interpolation error, not rounding.
    const Problem pr = makeProblem(90, 1);
    MAKE_DEVICE_OPERATOR(gpu, pr, RayOrdering::StripSegments);
    EXPECT_FALSE(gpu.matchedAdjoint());
    const std::vector<float> x = pseudoRandom(gpu.domainSize(), 17);
    const std::vector<float> y = pseudoRandom(gpu.rangeSize(), 19);
    std::vector<float> ax(gpu.rangeSize()), aty(gpu.domainSize());
    ASSERT_TRUE(gpu.forward(x, ax, {}).isOk());
    ASSERT_TRUE(gpu.adjoint(y, aty, {}).isOk());
    double lhs = 0, rhs = 0;
    for (std::size_t i = 0; i < y.size(); ++i)
        lhs += double(ax[i]) * y[i];
    for (std::size_t i = 0; i < x.size(); ++i)
        rhs += double(x[i]) * aty[i];
    EXPECT_NEAR(lhs / rhs, 1.0, 0.01);
    EXPECT_GT(lhs, 0.0);
    // The CPU pair's ratio is the same to float rounding.
    auto cpu = LocalityOperator::create(pr.geom, pr.vol);
    ASSERT_TRUE(cpu.isOk());
    ASSERT_TRUE((*cpu)->forward(x, ax, {}).isOk());
    ASSERT_TRUE((*cpu)->adjoint(y, aty, {}).isOk());
    double cpuLhs = 0, cpuRhs = 0;
    for (std::size_t i = 0; i < y.size(); ++i)
        cpuLhs += double(ax[i]) * y[i];
    for (std::size_t i = 0; i < x.size(); ++i)
        cpuRhs += double(x[i]) * aty[i];
    EXPECT_NEAR(lhs / rhs, cpuLhs / cpuRhs, 1e-5);
}

TEST(DeviceLocality, SirtThroughTheOperatorHookEqualsSirtOnTheCpu) {
    const Problem pr = makeProblem(60, 2);
    auto probe = test::makeDeviceLocalityOperator(pr.geom, pr.vol, RayOrdering::StripSegments);
    if (!probe && probe.status().code() == ErrorCode::NotFound)
        TOMO_DEVICE_SKIP(probe.status().message());
    ASSERT_TRUE(probe.isOk()) << probe.status().toString();
    Sinograms sino;
    ASSERT_TRUE(Phantom::sheppLogan2d(40.0).project(pr.geom, sino, 1, {}).isOk());
    auto spec = findAlgorithm("sirt");
    ASSERT_TRUE(spec.isOk());
    auto params = ParameterValues::resolve(
        *spec, {{"iterations", "12"}, {"projector", "locality"}, {"ordering", "segments"}});
    ASSERT_TRUE(params.isOk()) << params.status().toString();
    IterativeRequest request;
    request.algorithm = "sirt";
    request.parameters = *params;
    Volume cpuImage, gpuImage;
    SolverSummary cpuSummary, gpuSummary;
    ASSERT_TRUE(
        reconstructIterative(sino, pr.geom, pr.vol, request, {}, cpuImage, cpuSummary, {}).isOk());
    request.makeOperator = [](const ParallelGeometry& g, const VolumeGeometry& v,
                              const ParameterValues&) {
        return test::makeDeviceLocalityOperator(g, v, RayOrdering::StripSegments);
    };
    ASSERT_TRUE(
        reconstructIterative(sino, pr.geom, pr.vol, request, {}, gpuImage, gpuSummary, {}).isOk());
    ASSERT_EQ(gpuSummary.iterations, cpuSummary.iterations);
    for (std::size_t i = 0; i < cpuSummary.history.size(); ++i)
        EXPECT_NEAR(gpuSummary.history[i].residualNorm, cpuSummary.history[i].residualNorm,
                    1e-4 * cpuSummary.history[i].residualNorm)
            << "iteration " << i;
    double diff = 0, ref = 0;
    for (std::size_t z = 0; z < cpuImage.dim(0); ++z)
        for (std::size_t y = 0; y < cpuImage.dim(1); ++y)
            for (std::size_t x = 0; x < cpuImage.dim(2); ++x) {
                diff = std::max(diff, double(std::abs(gpuImage(z, y, x) - cpuImage(z, y, x))));
                ref = std::max(ref, double(std::abs(cpuImage(z, y, x))));
            }
    EXPECT_LT(diff, 1e-4 * ref);
    EXPECT_GT(ref, 0.1);  // the solve did something
}

TEST(DeviceLocality, RejectsMismatchedSlicesBeforeTouchingADevice) {
    Problem pr = makeProblem(10, 2);
    pr.vol.nz = 3;
    auto op = test::makeDeviceLocalityOperator(pr.geom, pr.vol, RayOrdering::StripSegments);
    ASSERT_FALSE(op.isOk());
    EXPECT_EQ(op.status().code(), ErrorCode::InvalidArgument);
    EXPECT_NE(op.status().message().find("3 slices"), std::string::npos);
}

}  // namespace
}  // namespace tomo
