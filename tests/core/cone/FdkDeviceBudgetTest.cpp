// runFdk's slabs on a simulated device (issue 27 item 6): a back-projector reporting a device
// budget (ConeBackProjector::deviceBudget) gets slabs whose device bytes (bytesFor, plus the
// pipeline's two staging rings of a batch) fit it, whatever the host's budget; a huge device
// gets one slab. The CPU back-projector does the work, so the volume is checked bit for bit.
#include <gtest/gtest.h>

#include <memory>

#include "ConeTestSupport.h"
#include "core/cone/Fdk.h"

namespace tomo {
namespace {

/// cpu.fdk.standard with the memory of a simulated device.
class DeviceSized final : public ConeBackProjector {
  public:
    explicit DeviceSized(std::size_t budget) : m_budget(budget) {
        registerCpuConeBackProjectors(m_registry);
        m_cpu = m_registry.create("cpu.fdk.standard").value();
    }
    const ConeBackProjectorInfo& info() const override { return m_cpu->info(); }
    Status begin(const ConeGeometry& g, const ConeVolumeGrid& grid, int firstPlane, int planes,
                 const ExecContext& ctx) override {
        ++begun;
        return m_cpu->begin(g, grid, firstPlane, planes, ctx);
    }
    Status add(int first, const Array3<float>& views, const ExecContext& ctx) override {
        return m_cpu->add(first, views, ctx);
    }
    Result<Volume> finish(const ExecContext& ctx) override { return m_cpu->finish(ctx); }
    std::size_t bytesFor(std::size_t plane, std::size_t planes,
                         std::size_t batchPixels) const override {
        return m_cpu->bytesFor(plane, planes, batchPixels);
    }
    int preferredBatch() const override { return m_cpu->preferredBatch(); }
    std::size_t deviceBudget() const override { return m_budget; }
    int begun = 0;

  private:
    std::size_t m_budget;
    ConeBackProjectorRegistry m_registry;
    std::unique_ptr<ConeBackProjector> m_cpu;
};

TEST(FdkDeviceBudget, SlabsFitTheDevicesMemoryAndGiveTheSameBits) {
    test::ConeCase c = test::coneCase("ellipsoids:6:3", 360, 60);
    c.options.memoryBudget = std::size_t(1) << 32;  // the host holds everything
    DeviceSized huge(std::size_t(140) << 30);
    FdkReport one;
    const Volume whole = test::runToVolume(c, huge, 0, &one).value();
    EXPECT_EQ(one.slabs, 1);
    EXPECT_EQ(one.slabPlanes, c.grid.nz);

    // Room on the device for 10 planes, the batch and the two staging rings.
    const int batch = fdkBatch(c.geometry, c.options, huge);
    const DetectorGrid& d = c.geometry.detector();
    const std::size_t batchPixels = std::size_t(batch) * d.nu * d.nv;
    const std::size_t plane = std::size_t(c.grid.nx) * c.grid.ny;
    DeviceSized small(huge.bytesFor(plane, 10, batchPixels) + 8 * batchPixels);
    FdkReport cut;
    const Volume slabs = test::runToVolume(c, small, 0, &cut).value();
    EXPECT_EQ(cut.slabPlanes, 10);
    EXPECT_EQ(cut.slabs, (c.grid.nz + 9) / 10);
    EXPECT_EQ(small.begun, cut.slabs);
    EXPECT_EQ(test::relativeRmse(slabs, whole), 0.0);

    // A device smaller than one plane still runs, one plane at a time (its own refusal, if any,
    // comes from begin() as a message).
    DeviceSized tiny(1);
    FdkReport planes;
    ASSERT_TRUE(test::runToVolume(c, tiny, 0, &planes).isOk());
    EXPECT_EQ(planes.slabPlanes, 1);
}

}  // namespace
}  // namespace tomo
