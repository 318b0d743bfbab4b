// The capture watch alone (core/capture_watch.h): a capture in progress and
// what the planned pipelines' entries saw of it. graph/cache_test.cpp covers
// it inside the graph cache's captures.
#include <gtest/gtest.h>

#include "core/capture_watch.h"

using namespace harena::detail;

namespace {

constexpr const char *kHostWork = "declared host work";

}  // namespace

TEST(CaptureWatch, OnlyAnActiveCaptureRefuses) {
    CaptureWatch c;
    EXPECT_FALSE(c.refuses("blur", kHostWork));
    c.begin();
    EXPECT_FALSE(c.refuses("blur", nullptr));
    const CaptureWatch::Seen seen = c.end();
    EXPECT_TRUE(seen.entered);
    EXPECT_EQ(seen.pipeline, "pipeline 'blur'");
    EXPECT_FALSE(seen.refused);
    EXPECT_FALSE(c.refuses("blur", kHostWork));
}

TEST(CaptureWatch, ARefusalStandsForTheWholeCaptureAndNamesTheFirstPipelineRefused) {
    CaptureWatch c;
    c.begin();
    EXPECT_FALSE(c.refuses("first", nullptr));
    EXPECT_TRUE(c.refuses("histogram", kHostWork));
    EXPECT_FALSE(c.refuses("last", nullptr));  // a later pipeline of the same call
    const CaptureWatch::Seen seen = c.end();
    EXPECT_TRUE(seen.refused);
    EXPECT_EQ(seen.pipeline, "pipeline 'first'");
    EXPECT_EQ(seen.refusal, "pipeline 'histogram' declared host work");
    c.begin();
    const CaptureWatch::Seen next = c.end();
    EXPECT_FALSE(next.entered);  // each capture starts afresh
    EXPECT_TRUE(next.refusal.empty());
}
