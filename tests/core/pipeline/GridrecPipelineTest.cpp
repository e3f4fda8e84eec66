// Gridrec's device path on the simulated device (SimulatedQueues.h): the I/O every GPU gridrec
// hands the pipeline driver (core/fourier/GridrecPipeline.h: dense rows, float32 or binary16),
// the driver's event order, the chunks' pairing of slices and the timeline, with two stages
// shaped as CUDA's (spectra, then gridding through a buffer between them) that compute with the
// CPU's gridrec on the simulated buffers: the result must equal the CPU's bit for bit, into an
// image allocated uninitialised (garbage until unpacked), padding included.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>

#include "core/data/Half.h"
#include "core/fourier/GridrecPipeline.h"
#include "tests/core/pipeline/SimulatedQueues.h"

namespace tomo {
namespace {

using test::SimulatedQueues;

struct Case {
    ParallelGeometry geom;
    VolumeGeometry vol;
    Sinograms sino;
};

/// @p slices different sinograms of 48 views x 40 detectors, on a 40^2 grid.
Case makeCase(int slices) {
    ParallelGeometry::Params p;
    p.angles = uniformAngles(0, kPi, 48);
    p.detectorCount = 40;
    p.rows = slices;
    Case c{*ParallelGeometry::create(p), {}, Sinograms(std::size_t(slices), 48, 40)};
    c.vol = VolumeGeometry::forDetector(c.geom, 40);
    c.vol.nz = slices;
    for (std::size_t s = 0; s < c.sino.dim(0); ++s)
        for (std::size_t a = 0; a < 48; ++a)
            for (std::size_t d = 0; d < 40; ++d)
                c.sino(s, a, d) = float(1 + std::sin(0.3 * d + 0.1 * a + s) * (s + 1));
    return c;
}

/// The two stages of a device gridrec on the simulator. Spectra: the chunk's dense input
/// (float or binary16) decoded into the buffer between the stages; gridding: the CPU's gridrec
/// of the chunk from it, its images encoded into the chunk's output.
class SimGridrecStage final : public ChunkStage {
  public:
    SimGridrecStage(SimulatedQueues& sim, const Case& c, bool half, bool spectra)
        : m_sim(sim), m_case(c), m_half(half), m_spectra(spectra) {}
    TimelineStage timelineStage() const override {
        return m_spectra ? TimelineStage::Filter : TimelineStage::Kernels;
    }
    Status prepare(std::size_t slices, std::size_t) override {
        TOMO_ASSIGN_OR_RETURN(m_between, m_sim.deviceBuffer("between", slices * rowBytes()));
        return Status::ok();
    }
    int steps(const PipelineChunk&) const override { return 1; }
    double work(const PipelineChunk& c, int) const override { return double(c.count); }
    Status run(const PipelineChunk& c, const ChunkBuffers& b, int, const ExecContext&) override {
        if (m_spectra)
            return m_sim.kernel(QueueRole::Compute, "spectra", 1e-3,
                                {{b.input.handle, false}, {m_between->handle, true}},
                                [this, c, b] { decode(c, b); });
        return m_sim.kernel(QueueRole::Compute, "gridding", 3e-3,
                            {{m_between->handle, false}, {b.output.handle, true}},
                            [this, c, b] { grid(c, b); });
    }
    /// The gridding stage shares the spectra stage's buffer.
    void share(const SimGridrecStage& spectra) { m_shared = &spectra.m_between; }

  private:
    std::size_t rowBytes() const { return 48 * 40 * sizeof(float); }
    void decode(const PipelineChunk& c, const ChunkBuffers& b) {
        auto* dst = reinterpret_cast<float*>(m_sim.memory(*m_between));
        const std::byte* src = m_sim.memory(b.input);
        for (std::size_t i = 0; i < c.count * 48 * 40; ++i) {
            std::uint16_t h;
            if (m_half) std::memcpy(&h, src + 2 * i, 2);
            dst[i] = m_half ? halfToFloat(h) : reinterpret_cast<const float*>(src)[i];
        }
    }
    void grid(const PipelineChunk& c, const ChunkBuffers& b) {
        Sinograms sino(c.count, 48, 40);
        const auto* src = reinterpret_cast<const float*>(m_sim.memory(**m_shared));
        for (std::size_t r = 0; r < c.count * 48; ++r)
            std::memcpy(sino.rows().row(r).data(), src + r * 40, 40 * sizeof(float));
        VolumeGeometry vol = m_case.vol;
        vol.nz = int(c.count);
        Volume image;
        if (!reconstructGridrec(sino, m_case.geom, vol, {}, image, {1, {}, nullptr}).isOk())
            image.fill(std::nanf(""));
        std::byte* dst = m_sim.memory(b.output);
        for (std::size_t r = 0; r < c.count * 40; ++r)
            for (std::size_t x = 0; x < 40; ++x) {
                const float v = image.rows().row(r)[x];
                const std::uint16_t h = floatToHalf(v);
                if (m_half)
                    std::memcpy(dst + 2 * (r * 40 + x), &h, 2);
                else
                    std::memcpy(dst + 4 * (r * 40 + x), &v, 4);
            }
    }
    SimulatedQueues& m_sim;
    const Case& m_case;
    bool m_half, m_spectra;
    std::optional<DeviceBufferRef> m_between;
    const std::optional<DeviceBufferRef>* m_shared = nullptr;
};

struct DeviceRun {
    Volume out;
    TimelineReport timeline;
    std::vector<std::string> hazards;
};

DeviceRun runOnSimulator(const Case& c, std::size_t chunk, bool half) {
    SimulatedQueues sim;
    DeviceRun r;
    SimGridrecStage spectra(sim, c, half, true), gridding(sim, c, half, false);
    gridding.share(spectra);
    // As CUDA's gridrec allocates it: uninitialised. Garbage (NaN) in every value and the rows'
    // padding, so that a value or a padding the unpacking misses shows.
    r.out = Volume::createUninitialised(c.sino.dim(0), 40, 40).value();
    std::fill_n(r.out.data(), r.out.dim(0) * r.out.dim(1) * r.out.pitch(), std::nanf("1"));
    Timeline timeline;
    const Status s = runPipeline(&sim, gridrecDeviceIo(c.sino, r.out, chunk, half),
                                 {&spectra, &gridding}, {}, &timeline);
    EXPECT_TRUE(s.isOk()) << s.message();
    r.timeline = timeline.report();
    r.hazards = sim.hazards();
    return r;
}

/// The same values and the same (zero) padding of every row.
bool sameBits(const Volume& a, const Volume& b) {
    if (a.dims() != b.dims() || a.pitch() != b.pitch()) return false;
    return std::memcmp(a.data(), b.data(), a.dim(0) * a.dim(1) * a.pitch() * sizeof(float)) == 0;
}

TEST(GridrecPipeline, TheDevicePathEqualsTheCpuGridrecBitForBit) {
    const Case c = makeCase(7);  // chunks of 4: 0-3, 4-6 (the last slice alone)
    Volume cpu;
    ASSERT_TRUE(reconstructGridrec(c.sino, c.geom, c.vol, {}, cpu, {1, {}, nullptr}).isOk());
    const DeviceRun device = runOnSimulator(c, 4, false);
    EXPECT_TRUE(device.hazards.empty()) << device.hazards.front();
    EXPECT_TRUE(sameBits(device.out, cpu));
    const TimelineReport& t = device.timeline;
    using S = TimelineStage;
    EXPECT_EQ(t.bytes[std::size_t(S::Upload)], 7u * 48 * 40 * 4);  // dense rows, once
    EXPECT_EQ(t.bytes[std::size_t(S::Download)], 7u * 40 * 40 * 4);
    EXPECT_EQ(t.spans[std::size_t(S::Filter)], 2);
    EXPECT_EQ(t.spans[std::size_t(S::Kernels)], 2);
}

TEST(GridrecPipeline, HalfPrecisionMovesBinary16BothWays) {
    const Case c = makeCase(5);
    Case rounded = makeCase(5);
    for (std::size_t r = 0; r < rounded.sino.dim(0) * 48; ++r)
        for (float& v : rounded.sino.rows().row(r))
            v = halfToFloat(floatToHalf(v));
    Volume cpu;
    ASSERT_TRUE(reconstructGridrec(rounded.sino, c.geom, c.vol, {}, cpu, {1, {}, nullptr}).isOk());
    for (std::size_t r = 0; r < cpu.dim(0) * cpu.dim(1); ++r)
        for (float& v : cpu.rows().row(r))
            v = halfToFloat(floatToHalf(v));
    const DeviceRun device = runOnSimulator(c, 2, true);
    EXPECT_TRUE(device.hazards.empty()) << device.hazards.front();
    EXPECT_TRUE(sameBits(device.out, cpu));
    const TimelineReport& t = device.timeline;
    EXPECT_EQ(t.bytes[std::size_t(TimelineStage::Upload)], 5u * 48 * 40 * 2);
    EXPECT_EQ(t.bytes[std::size_t(TimelineStage::Download)], 5u * 40 * 40 * 2);
}

}  // namespace
}  // namespace tomo
