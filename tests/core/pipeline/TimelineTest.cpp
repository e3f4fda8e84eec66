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
    EXPECT_TRUE(sum.parts.empty());
    EXPECT_EQ(json.find("parts"), std::string::npos);
}

TEST(Timeline, PartsSumPerNameInTheOrderFirstAddedAndMergeByName) {
    Timeline t;
    t.add(TimelineStage::Kernels, 0.0, 1.0);
    t.addPart("gather", 0.5);
    t.addPart("grid FFT", 0.25);
    t.addPart("gather", 0.125);
    const TimelineReport r = t.report();
    ASSERT_EQ(r.parts.size(), 2u);
    EXPECT_EQ(r.parts[0].name, "gather");
    EXPECT_DOUBLE_EQ(r.parts[0].seconds, 0.625);
    EXPECT_EQ(r.parts[0].count, 2);
    EXPECT_EQ(r.part("grid FFT")->count, 1);
    EXPECT_EQ(r.part("pack"), nullptr);
    EXPECT_DOUBLE_EQ(r.busySum(), 1.0);  // parts are inside their stage, not added to it
    EXPECT_EQ(formatTimelineParts(r), "gather 0.625 s | grid FFT 0.250 s");
    const std::string json = timelineJson(r);
    EXPECT_NE(json.find(", \"parts\": {\"gather\": 0.625, \"grid FFT\": 0.25}}"), std::string::npos)
        << json;
    TimelineReport other;
    other.parts = {{"pack", 1.0, 1}, {"gather", 1.0, 1}};
    TimelineReport sum = r;
    sum += other;
    ASSERT_EQ(sum.parts.size(), 3u);
    EXPECT_DOUBLE_EQ(sum.part("gather")->seconds, 1.625);
    EXPECT_EQ(sum.part("gather")->count, 3);
    EXPECT_EQ(sum.parts[2].name, "pack");
}

}  // namespace
}  // namespace tomo
