// Cancelling the MemXCT matrix build inside each of its stages: a progress sink requests a stop
// at the first report of the stage; the build must return Cancelled having done at most a few
// work items after that (measured in progress, not in time, so the test is deterministic on a
// loaded machine). A stage that checks its stop token only between whole per-worker blocks (as
// the transpose once did) runs to the end of its block and fails the bound.
#include <gtest/gtest.h>

#include <algorithm>
#include <mutex>
#include <stop_token>
#include <string>

#include "core/geometry/ParallelGeometry.h"
#include "core/memxct/MemxctSystem.h"

namespace tomo {
namespace {

/// Requests a stop at the first report of stage @p target; records the overall fraction then
/// and the largest fraction reported at all.
class StopAtStage final : public ProgressSink {
  public:
    StopAtStage(std::string target, std::stop_source& source)
        : m_target(std::move(target)), m_source(source) {}
    void onProgress(double fraction, std::string_view stage) override {
        std::lock_guard lock(m_mutex);
        m_max = std::max(m_max, fraction);
        if (m_atStop < 0 && stage == m_target) {
            m_atStop = fraction;
            m_source.request_stop();
        }
    }
    double atStop() const { return m_atStop; }
    double maxFraction() const { return m_max; }

  private:
    std::string m_target;
    std::stop_source& m_source;
    std::mutex m_mutex;
    double m_atStop = -1.0, m_max = 0.0;
};

class MemxctCancel : public testing::TestWithParam<const char*> {};

TEST_P(MemxctCancel, StopsWithinAFewWorkItemsOfTheStage) {
    // 256x256 grid, 360 angles x 368 detectors: ~28 M nonzeros; 518 trace chunks, 518
    // partitions per matrix, 132480 rows of A to transpose.
    ParallelGeometry::Params params;
    params.angles = uniformAngles(0.0, kPi, 360);
    params.detectorCount = 368;
    const ParallelGeometry geom = ParallelGeometry::create(params).value();
    const VolumeGeometry vol = VolumeGeometry::forDetector(geom, 256);
    MemxctOptions options;
    options.circleMask = false;

    std::stop_source source;
    StopAtStage sink(GetParam(), source);
    Progress root(&sink);
    ExecContext ctx;
    ctx.threads = 2;
    ctx.stop = source.get_token();
    ctx.progress = &root;
    Result<MemxctSystem> built = MemxctSystem::build(geom, vol, options, ctx);
    ASSERT_GE(sink.atStop(), 0.0) << "stage '" << GetParam() << "' never reported progress";
    ASSERT_FALSE(built.isOk()) << "the build ran to the end after the stop request";
    EXPECT_EQ(built.status().code(), ErrorCode::Cancelled) << built.status().toString();
    // Each of the 2 workers may finish the item it holds: tracing 2 of 518 chunks (0.1% of the
    // build), transposing 2 x 256 rows, staging 2 partitions. 1% of the build is ample; a
    // stage that runs to the end of a block does 15-30%.
    std::printf("stop at %.4f of the build, reached %.4f (%s)\n", sink.atStop(), sink.maxFraction(),
                GetParam());
    EXPECT_LT(sink.maxFraction() - sink.atStop(), 0.01);
}

INSTANTIATE_TEST_SUITE_P(EveryStage, MemxctCancel,
                         testing::Values("MemXCT: tracing rays", "MemXCT: transposing",
                                         "MemXCT: staging buffers"),
                         [](const testing::TestParamInfo<const char*>& p) {
                             std::string name = std::string(p.param).substr(8);
                             std::replace(name.begin(), name.end(), ' ', '_');
                             return name;
                         });

}  // namespace
}  // namespace tomo
