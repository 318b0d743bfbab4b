// A planned pipeline's slice events (harena_pipeline_slice) and its frame's
// end (harena_pipeline_slices_end) on a host arena in guard mode: each event
// does what guard mode's own entry points do, naming the buffer from the
// table, and the call's first failure is kept until the frame ends.
#include "host_arena.h"

#include <cstdint>

using harena_test::HostArena;
using harena_test::last_error_mentions;

namespace {

harena_options guarded() {
    harena_options o = HostArena::defaults();
    o.guard = 1;
    o.guard_bytes = 256;
    return o;
}

void write_byte(uint64_t address) {
    *reinterpret_cast<volatile uint8_t *>(address) = 0;
}

constexpr const char *kNames = "p\nf\ng\n";

// Pipeline 'p' (buffers f and g) entered on a host arena: its frame's base
// and its call's slice table.
struct EnteredCall {
    explicit EnteredCall(const harena_options &options)
        : a(1 << 16, options), uc(a.arena) {
        EXPECT_EQ(harena_pipeline_enter(uc, "p", nullptr, 4096, 4096, HARENA_PIPELINE_GUARDS, 256), HARENA_OK);
        base = harena_pipeline_base(uc);
    }
    HostArena a;
    void *uc;
    uint64_t base = 0;
    harena_slice_table table{kNames, 0};
};

}  // namespace

TEST(PipelineSlices, AnOverrunIsReportedAtFreeNamingTheBufferAndFailsTheFramesEnd) {
    EnteredCall call(guarded());
    auto &[a, uc, base, table] = call;
    // g (index 1) at one band into the frame: 100 bytes used of a 256-byte slice.
    EXPECT_EQ(harena_pipeline_slice(uc, &table, 1, 1, base + 256, 256, 100), HARENA_OK);
    for (uint64_t i = 100; i < 256 + 256; i++) {
        EXPECT_EQ(*reinterpret_cast<const uint8_t *>(base + 256 + i), 0xA5) << i;
    }
    write_byte(base + 256 + 100);
    EXPECT_EQ(harena_pipeline_slice(uc, &table, 1, 0, base + 256, 0, 0), HARENA_ERROR_GUARD_DAMAGED);
    EXPECT_TRUE(last_error_mentions({"pipeline 'p'", "buffer 'g'", "from 1 to 1 bytes past its end"}));
    EXPECT_EQ(table.status, HARENA_ERROR_GUARD_DAMAGED);
    // The call goes on: f reuses the bytes, banded as usual; the first error stays.
    EXPECT_EQ(harena_pipeline_slice(uc, &table, 0, 1, base + 256, 256, 256), HARENA_OK);
    EXPECT_EQ(harena_pipeline_slice(uc, &table, 0, 0, base + 256, 0, 0), HARENA_OK);
    EXPECT_EQ(harena_pipeline_slices_end(uc, &table, base), HARENA_ERROR_GUARD_DAMAGED);
    harena_pipeline_exit_as_destructor(uc, reinterpret_cast<void *>(base));
    EXPECT_EQ(a.stats().guard_damaged, 1u);
    EXPECT_EQ(a.stats().frame_depth, 0u);
}

TEST(PipelineSlices, WithoutAFailedEventTheEndChecksTheBandThatStartsTheFrame) {
    EnteredCall call(guarded());
    auto &[a, uc, base, table] = call;
    EXPECT_EQ(harena_pipeline_slice(uc, &table, 0, 1, base + 256, 256, 256), HARENA_OK);
    EXPECT_EQ(harena_pipeline_slice(uc, &table, 0, 0, base + 256, 0, 0), HARENA_OK);
    EXPECT_EQ(table.status, HARENA_OK);
    write_byte(base + 255);
    EXPECT_EQ(harena_pipeline_slices_end(uc, &table, base), HARENA_ERROR_GUARD_DAMAGED);
    EXPECT_TRUE(last_error_mentions({"pipeline 'p' wrote before the first slice of its frame"}));
    harena_pipeline_exit_as_destructor(uc, reinterpret_cast<void *>(base));
    EXPECT_EQ(a.stats().frame_depth, 0u);
}

// A host target's pipeline reports slices handed out only: a band is checked
// when a later slice reuses its bytes, failing that event, ...
TEST(PipelineSlices, WithoutFreesABandIsCheckedWhenALaterSliceReusesItsBytes) {
    EnteredCall call(guarded());
    auto &[a, uc, base, table] = call;
    EXPECT_EQ(harena_pipeline_slice(uc, &table, 1, 1, base + 256, 256, 100), HARENA_OK);
    write_byte(base + 256 + 100);
    EXPECT_EQ(harena_pipeline_slice(uc, &table, 0, 1, base + 256, 512, 512), HARENA_ERROR_GUARD_DAMAGED);
    EXPECT_TRUE(last_error_mentions({"pipeline 'p'", "buffer 'g'", "from 1 to 1 bytes past its end"}));
    EXPECT_EQ(table.status, HARENA_ERROR_GUARD_DAMAGED);
    EXPECT_EQ(harena_pipeline_slices_end(uc, &table, base), HARENA_ERROR_GUARD_DAMAGED);
    harena_pipeline_exit_as_destructor(uc, reinterpret_cast<void *>(base));
    EXPECT_EQ(a.stats().guard_damaged, 1u);
}

// ... or, where none does, when the frame ends, which fails the call.
TEST(PipelineSlices, WithoutFreesTheEndChecksTheBandsOfEverySliceStillRecorded) {
    EnteredCall call(guarded());
    auto &[a, uc, base, table] = call;
    EXPECT_EQ(harena_pipeline_slice(uc, &table, 0, 1, base + 256, 256, 256), HARENA_OK);
    EXPECT_EQ(harena_pipeline_slice(uc, &table, 1, 1, base + 768, 256, 100), HARENA_OK);
    write_byte(base + 768 + 100);
    EXPECT_EQ(table.status, HARENA_OK);
    EXPECT_EQ(harena_pipeline_slices_end(uc, &table, base), HARENA_ERROR_GUARD_DAMAGED);
    EXPECT_TRUE(last_error_mentions({"pipeline 'p'", "buffer 'g'", "from 1 to 1 bytes past its end"}));
    EXPECT_EQ(a.stats().guard_damaged, 1u);
    // Checked once: the pop finds nothing left to check.
    const uint64_t checks = a.stats().guard_checks;
    harena_pipeline_exit_as_destructor(uc, reinterpret_cast<void *>(base));
    EXPECT_EQ(a.stats().guard_checks, checks);
    EXPECT_EQ(a.stats().guard_damaged, 1u);
    EXPECT_EQ(a.stats().frame_depth, 0u);
}

TEST(PipelineSlices, WithGuardModeOffEventsCheckNothing) {
    EnteredCall call(HostArena::defaults());
    auto &[a, uc, base, table] = call;
    EXPECT_EQ(harena_pipeline_slice(uc, &table, 0, 1, base, 256, 100), HARENA_OK);
    write_byte(base + 100);
    EXPECT_EQ(harena_pipeline_slice(uc, &table, 0, 0, base, 0, 0), HARENA_OK);
    EXPECT_EQ(harena_pipeline_slices_end(uc, &table, base), HARENA_OK);
    harena_pipeline_exit_as_destructor(uc, reinterpret_cast<void *>(base));
    EXPECT_EQ(a.stats().guard_checks, 0u);
}

TEST(PipelineSlices, ANullTableIsRefused) {
    HostArena a(1 << 16, guarded());
    EXPECT_EQ(harena_pipeline_slice(a.arena, nullptr, 0, 1, a.base(), 256, 1), HARENA_ERROR_INVALID_ARGUMENT);
    EXPECT_TRUE(last_error_mentions({"harena_pipeline_slice", "no slice table"}));
    EXPECT_EQ(harena_pipeline_slices_end(a.arena, nullptr, a.base()), HARENA_ERROR_INVALID_ARGUMENT);
}
