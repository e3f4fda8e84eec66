// The CUDA SpMV formats against the CPU CSR kernel on a MemXCT system matrix (skipped without
// a CUDA device).
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "GpuTestSupport.h"
#include "core/memxct/MemxctSystem.h"
#include "gpu/cuda/sparse/CudaSparseMatrix.h"

namespace tomo::cuda {
namespace {

class CudaSparse : public ::testing::Test {
  protected:
    void SetUp() override {
        if (!cudaDeviceAvailable()) TOMO_DEVICE_SKIP("no CUDA device");
        ParallelGeometry::Params p;
        p.angles = uniformAngles(0.0, kPi, 45);
        p.detectorCount = 48;
        auto geom = ParallelGeometry::create(p);
        ASSERT_TRUE(geom.isOk());
        MemxctOptions o;
        o.kernel = MemxctKernel::Csr;
        o.tileSize = 8;
        auto sys = MemxctSystem::build(*geom, VolumeGeometry::forDetector(*geom, 48), o, {});
        ASSERT_TRUE(sys.isOk());
        m_a = sys->forwardCsr();
        m_at = sys->adjointCsr();
    }
    /// Compares y = M x on the device with spmvCsr for a random x.
    void expectMatches(const CsrMatrix& m, CudaSparseMatrix& d) {
        std::mt19937 rng(3);
        std::uniform_real_distribution<float> u(0.0f, 1.0f);
        std::vector<float> x(m.cols), ref(m.rows), y(m.rows, -1.0f);
        for (float& v : x)
            v = u(rng);
        ASSERT_TRUE(spmvCsr(m, x, ref, {}).isOk());
        ASSERT_TRUE(d.multiply(x, y).isOk());
        for (std::size_t r = 0; r < m.rows; ++r)
            EXPECT_NEAR(y[r], ref[r], 1e-5f * (std::abs(ref[r]) + 1.0f)) << r;
    }
    CsrMatrix m_a, m_at;
};

TEST_F(CudaSparse, EllWithPerBlockPaddingEqualsCsr) {
    for (const CsrMatrix* m : {&m_a, &m_at}) {
        auto d = CudaSparseMatrix::upload(*m, SparseFormat::Ell, 64);
        ASSERT_TRUE(d.isOk()) << d.status().toString();
        EXPECT_GE(d->storedEntries(), m->nonzeros());
        expectMatches(*m, *d);
    }
}

TEST_F(CudaSparse, SharedMemoryBufferedEqualsCsr) {
    for (const CsrMatrix* m : {&m_a, &m_at}) {
        // 128-row blocks and 256-float stages: several stages per block.
        auto b = buildBuffered(*m, 128, 256, {});
        ASSERT_TRUE(b.isOk());
        ASSERT_GT(b->stages(), b->partitions());
        auto d = CudaSparseMatrix::upload(*b);
        ASSERT_TRUE(d.isOk()) << d.status().toString();
        expectMatches(*m, *d);
    }
}

TEST_F(CudaSparse, CusparseCsrEqualsCsr) {
    auto d = CudaSparseMatrix::upload(m_a, SparseFormat::CusparseCsr);
    ASSERT_TRUE(d.isOk()) << d.status().toString();
    EXPECT_EQ(d->storedEntries(), m_a.nonzeros());
    expectMatches(m_a, *d);
}

TEST_F(CudaSparse, RejectsBadBlocks) {
    EXPECT_EQ(CudaSparseMatrix::upload(m_a, SparseFormat::Ell, 16).status().code(),
              ErrorCode::InvalidArgument);
    auto b = buildBuffered(m_a, 100, 256, {});
    ASSERT_TRUE(b.isOk());
    EXPECT_EQ(CudaSparseMatrix::upload(*b).status().code(), ErrorCode::InvalidArgument);
}

}  // namespace
}  // namespace tomo::cuda
