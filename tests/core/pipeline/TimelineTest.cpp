// The timeline report (core/pipeline/Timeline.h): busy time as the union of each stage's
// intervals per clock, the efficiency, bandwidths and the printed forms.
#include <gtest/gtest.h>

#include "core/pipeline/Timeline.h"

namespace tomo {
namespace {

TEST(Timeline, BusyTimeIsTheUnionOfAStagesIntervalsOnEachClock) {
    Timeline t;
    t.add(TimelineStage::Host, 0.0, 1.0);
    t.add(TimelineStage::Host, 0.5, 1.5);  // overlaps: counted once
    t.add(TimelineStage::Host, 3.0, 4.0);  // a gap
    t.add({TimelineStage::Kernels, TimelineClock::Device, 10.0, 12.0, 0});
    t.add({TimelineStage::Kernels, TimelineClock::Host, 0.2, 0.4, 0});  // another clock: added
    t.add({TimelineStage::Upload, TimelineClock::Device, 9.0, 11.0, 4000});
    t.setWall(4.0);
    const TimelineReport r = t.report();
    EXPECT_DOUBLE_EQ(r.busyOf(TimelineStage::Host), 2.5);
    EXPECT_DOUBLE_EQ(r.busyOf(TimelineStage::Kernels), 2.2);
    EXPECT_DOUBLE_EQ(r.busyOf(TimelineStage::Upload), 2.0);
    EXPECT_DOUBLE_EQ(r.busyOf(TimelineStage::Filter), 0.0);
    EXPECT_DOUBLE_EQ(r.efficiency(), (2.5 + 2.2 + 2.0) / 4.0);
    EXPECT_DOUBLE_EQ(r.bandwidth(TimelineStage::Upload), 2000.0);
    EXPECT_EQ(r.spans[static_cast<std::size_t>(TimelineStage::Host)], 3);
    EXPECT_EQ(formatTimeline(r),
              "wall 4.000 s | upload 2.000 s | kernels 2.200 s | host 2.500 s | efficiency 1.68");
    const std::string json = timelineJson(r);
    EXPECT_NE(json.find("\"wall\": 4"), std::string::npos);
    EXPECT_NE(json.find("\"upload_bytes\": 4000"), std::string::npos);
    EXPECT_NE(json.find("\"efficiency\": 1.675"), std::string::npos);
    TimelineReport sum = r;
    sum += r;
    EXPECT_DOUBLE_EQ(sum.wall, 8.0);
    EXPECT_DOUBLE_EQ(sum.efficiency(), r.efficiency());
}

}  // namespace
}  // namespace tomo
