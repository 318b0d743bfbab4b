#include "host_arena.h"

using harena_test::dummy_interface;
using harena_test::HostArena;
using harena_test::last_error_mentions;

TEST(PipelineAbi, EnterBaseExitOpenAndCloseOneFrame) {
    HostArena a(1 << 20);
    ASSERT_EQ(harena_pipeline_enter(a.arena, "blur", nullptr, 5000, 9000, 0, 256), HARENA_OK);
    const uint64_t base = harena_pipeline_base(a.arena);
    EXPECT_EQ(base, a.base());
    EXPECT_EQ(base % 256, 0u);
    EXPECT_EQ(a.stats().bytes_in_use, 5120u);
    // Unplanned allocations of the run go after the planned bytes.
    EXPECT_EQ(harena_active_arena(nullptr), a.arena);
    EXPECT_EQ(a.alloc(10), base + 5120);
    harena_pipeline_exit_as_destructor(a.arena, reinterpret_cast<void *>(base));
    EXPECT_EQ(a.stats().frame_depth, 0u);
    EXPECT_EQ(a.stats().bytes_in_use, 0u);
    EXPECT_EQ(harena_active_arena(nullptr), nullptr);
}

TEST(PipelineAbi, PipelinesNestAndRunBackToBack) {
    HostArena a(1 << 20);
    harena_frame user = a.push();
    a.alloc(1000);
    for (int run = 0; run < 3; run++) {
        ASSERT_EQ(harena_pipeline_enter(a.arena, "outer", nullptr, 4096, 4096, 0, 256), HARENA_OK);
        const uint64_t outer = harena_pipeline_base(a.arena);
        EXPECT_EQ(outer, a.base() + 1024);
        ASSERT_EQ(harena_pipeline_enter(a.arena, "inner", nullptr, 256, 256, 0, 256), HARENA_OK);
        const uint64_t inner = harena_pipeline_base(a.arena);
        EXPECT_EQ(inner, outer + 4096);
        harena_pipeline_exit_as_destructor(a.arena, reinterpret_cast<void *>(inner));
        EXPECT_EQ(harena_pipeline_base(a.arena), outer);
        harena_pipeline_exit_as_destructor(a.arena, reinterpret_cast<void *>(outer));
    }
    EXPECT_EQ(a.stats().frame_depth, 1u);
    EXPECT_EQ(a.stats().max_frame_depth, 3u);
    EXPECT_EQ(harena_pop(a.arena, user), HARENA_OK);
}

TEST(PipelineAbi, BaseSkipsFramesThePipelineDidNotPush) {
    HostArena a(1 << 20);
    ASSERT_EQ(harena_pipeline_enter(a.arena, "p", nullptr, 512, 512, 0, 256), HARENA_OK);
    const uint64_t base = harena_pipeline_base(a.arena);
    harena_frame inner = a.push(100);
    EXPECT_EQ(harena_pipeline_base(a.arena), base);
    // The pipeline's exit refuses to pop while another frame sits on top.
    harena_pipeline_exit_as_destructor(a.arena, reinterpret_cast<void *>(base));
    EXPECT_TRUE(last_error_mentions({"not the top frame", "was not popped"}));
    EXPECT_EQ(a.stats().frame_depth, 2u);
    EXPECT_EQ(harena_pop(a.arena, inner), HARENA_OK);
    harena_pipeline_exit_as_destructor(a.arena, reinterpret_cast<void *>(base));
    EXPECT_EQ(a.stats().frame_depth, 0u);
}

TEST(PipelineAbi, OverflowNamesThePipelineAndTheSizes) {
    HostArena a(8192);
    harena_frame user = a.push(1000);
    EXPECT_EQ(harena_pipeline_enter(a.arena, "resnet_block", nullptr, 10000, 20000, 0, 256), HARENA_ERROR_OVERFLOW);
    EXPECT_TRUE(last_error_mentions({"pipeline 'resnet_block'", "needs 10000 bytes", "20000 bytes",
                                     "7168 bytes (7.00 KiB) left", "of 8192 bytes", "1024 bytes",
                                     "at least 11264 bytes", "21248 bytes"}));
    EXPECT_EQ(a.stats().frame_depth, 1u);
    EXPECT_EQ(a.stats().overflows, 1u);
    EXPECT_EQ(harena_pop(a.arena, user), HARENA_OK);
}

TEST(PipelineAbi, AnOverflowOfAPipelineWithoutAWorstCaseSaysHowToSizeTheArena) {
    HostArena a(8192);
    EXPECT_EQ(harena_pipeline_enter(a.arena, "level_pyramid", nullptr, 10000, 0, 0, 256), HARENA_ERROR_OVERFLOW);
    EXPECT_TRUE(last_error_mentions({"pipeline 'level_pyramid'", "needs 10000 bytes", "no worst case",
                                     "harena::measure", "harena_options.grow"}));
    EXPECT_FALSE(last_error_mentions({"cover every run"}));
}

TEST(PipelineAbi, TheUserContextMustBeALiveArena) {
    EXPECT_EQ(harena_pipeline_enter(nullptr, "p", nullptr, 10, 10, 0, 256), HARENA_ERROR_INVALID_ARGUMENT);
    EXPECT_TRUE(last_error_mentions({"pipeline 'p'", "NULL user_context"}));
    int not_an_arena = 0;
    EXPECT_EQ(harena_pipeline_enter(&not_an_arena, "p", nullptr, 10, 10, 0, 256), HARENA_ERROR_NOT_AN_ARENA);
    EXPECT_TRUE(last_error_mentions({"pipeline 'p'", "not a live harena arena"}));
    harena_arena *destroyed = nullptr;
    ASSERT_EQ(harena_create(nullptr, nullptr, 4096, nullptr, &destroyed), HARENA_OK);
    ASSERT_EQ(harena_destroy(destroyed), HARENA_OK);
    EXPECT_EQ(harena_pipeline_enter(destroyed, "p", nullptr, 10, 10, 0, 256), HARENA_ERROR_NOT_AN_ARENA);
    EXPECT_EQ(harena_pipeline_base(destroyed), 0u);
    harena_pipeline_exit_as_destructor(destroyed, nullptr);
    EXPECT_TRUE(last_error_mentions({"harena_pipeline_exit", "not a live arena"}));
}

TEST(PipelineAbi, TheDeviceInterfaceMustMatch) {
    HostArena a(4096);
    EXPECT_EQ(harena_pipeline_enter(a.arena, "gpu_pipe", dummy_interface(), 10, 10, 0, 256),
              HARENA_ERROR_INCOMPATIBLE_DEVICE_INTERFACE);
    EXPECT_TRUE(last_error_mentions({"pipeline 'gpu_pipe'", "device memory", "holds host memory"}));
    EXPECT_EQ(a.stats().frame_depth, 0u);
}

TEST(PipelineAbi, OnlyThePipelinePopsItsFrame) {
    HostArena a(4096);
    ASSERT_EQ(harena_pipeline_enter(a.arena, "p", nullptr, 256, 256, 0, 256), HARENA_OK);
    harena_stats s = a.stats();
    // Frame ids are sequential; a guess at the pipeline's must not pop it.
    harena_frame guess{s.frames_pushed, harena_pipeline_base(a.arena)};
    EXPECT_EQ(harena_pop(a.arena, guess), HARENA_ERROR_FRAME_NOT_TOP);
    EXPECT_TRUE(last_error_mentions({"belongs to a planned pipeline"}));
    EXPECT_EQ(harena_active_arena(nullptr), a.arena);
    harena_pipeline_exit_as_destructor(a.arena, reinterpret_cast<void *>(guess.base));
    EXPECT_EQ(a.stats().frame_depth, 0u);
    EXPECT_EQ(harena_active_arena(nullptr), nullptr);
}

TEST(PipelineAbi, BaseWithoutAPipelineFrameIsAnError) {
    HostArena a(4096);
    EXPECT_EQ(harena_pipeline_base(a.arena), 0u);
    EXPECT_TRUE(last_error_mentions({"no frame pushed by harena_pipeline_enter"}));
}

// A pipeline's slices lie at its frame's base plus offsets that are multiples
// of the alignment it was planned at: the arena's frames must be aligned at
// least as strictly.
TEST(PipelineAbi, ThePlansAlignmentMustDivideTheArenas) {
    harena_options options = HostArena::defaults();
    options.alignment = 64;
    HostArena fine(4096, options);
    EXPECT_EQ(harena_pipeline_enter(fine.arena, "planned_at_256", nullptr, 256, 256, 0, 256),
              HARENA_ERROR_INCOMPATIBLE_ALIGNMENT);
    EXPECT_TRUE(last_error_mentions({"pipeline 'planned_at_256'", "aligns its buffers to 256 bytes",
                                     "created with alignment 64", "harena_options.alignment of at least 256"}));
    EXPECT_EQ(fine.stats().frame_depth, 0u);
    EXPECT_EQ(harena_pipeline_enter(fine.arena, "planned_at_3", nullptr, 256, 256, 0, 3),
              HARENA_ERROR_INVALID_ARGUMENT);
    EXPECT_TRUE(last_error_mentions({"pipeline 'planned_at_3'", "not a power of two"}));
    // An arena aligned more strictly than the plan serves it: 64 divides 4096.
    options.alignment = 4096;
    HostArena coarse(1 << 16, options);
    ASSERT_EQ(harena_pipeline_enter(coarse.arena, "planned_at_64", nullptr, 256, 256, 0, 64), HARENA_OK);
    EXPECT_EQ(harena_pipeline_base(coarse.arena) % 4096, 0u);
    harena_pipeline_exit_as_destructor(coarse.arena, reinterpret_cast<void *>(harena_pipeline_base(coarse.arena)));
    EXPECT_EQ(coarse.stats().frame_depth, 0u);
}

// A pipeline that plans nothing needs no arena: its declaration accepts any
// user_context and, outside a graph capture, neither pushes a frame nor fails.
TEST(PipelineAbi, ADeclarationTakesAnyUserContextAndTouchesNoArena) {
    HostArena a(4096);
    int programs_own_struct = 0;
    for (uint32_t traits : {0u, static_cast<uint32_t>(HARENA_PIPELINE_CAPTURABLE)}) {
        EXPECT_EQ(harena_pipeline_declare(nullptr, traits), HARENA_OK);
        EXPECT_EQ(harena_pipeline_declare(&programs_own_struct, traits), HARENA_OK);
        EXPECT_EQ(harena_pipeline_declare(a.arena, traits), HARENA_OK);
    }
    EXPECT_EQ(a.stats().frame_depth, 0u);
    EXPECT_EQ(a.stats().bytes_in_use, 0u);
    EXPECT_EQ(harena_active_arena(nullptr), nullptr);
}

// The names the pass gives its calls (harena/pipeline_abi.h) are those of the
// declared entry points, which the runtime defines: a renamed function whose
// name constant was left behind fails here, not at a pipeline's link.
#define HARENA_EXPECT_ABI_NAME(name, function)                   \
    do {                                                         \
        EXPECT_STREQ(name, #function);                           \
        EXPECT_NE(reinterpret_cast<void *>(&function), nullptr); \
    } while (0)

TEST(PipelineAbi, EachNameTheGeneratedCodeCallsIsADefinedEntryPoint) {
    HARENA_EXPECT_ABI_NAME(HARENA_ABI_PIPELINE_ENTER, harena_pipeline_enter);
    HARENA_EXPECT_ABI_NAME(HARENA_ABI_PIPELINE_DECLARE, harena_pipeline_declare);
    HARENA_EXPECT_ABI_NAME(HARENA_ABI_PIPELINE_BASE, harena_pipeline_base);
    HARENA_EXPECT_ABI_NAME(HARENA_ABI_PIPELINE_EXIT_AS_DESTRUCTOR, harena_pipeline_exit_as_destructor);
    HARENA_EXPECT_ABI_NAME(HARENA_ABI_PLANNED_HOST_FREE, harena_planned_host_free);
    HARENA_EXPECT_ABI_NAME(HARENA_ABI_PLANNED_HOST_FREE_AS_DESTRUCTOR, harena_planned_host_free_as_destructor);
    HARENA_EXPECT_ABI_NAME(HARENA_ABI_KEY_HOST_MALLOC, harena_key_host_malloc);
    HARENA_EXPECT_ABI_NAME(HARENA_ABI_ARGUMENT_COPY_TO_DEVICE, harena_argument_copy_to_device);
    HARENA_EXPECT_ABI_NAME(HARENA_ABI_ARGUMENT_DEVICE_MALLOC, harena_argument_device_malloc);
    HARENA_EXPECT_ABI_NAME(HARENA_ABI_ARGUMENT_DEVICE_AND_HOST_MALLOC, harena_argument_device_and_host_malloc);
    HARENA_EXPECT_ABI_NAME(HARENA_ABI_PIPELINE_GUARD_BYTES, harena_pipeline_guard_bytes);
    HARENA_EXPECT_ABI_NAME(HARENA_ABI_NVTX_ATTACHED, harena_nvtx_attached);
    HARENA_EXPECT_ABI_NAME(HARENA_ABI_PIPELINE_SLICE, harena_pipeline_slice);
    HARENA_EXPECT_ABI_NAME(HARENA_ABI_PIPELINE_SLICES_END, harena_pipeline_slices_end);
    HARENA_EXPECT_ABI_NAME(HARENA_ABI_PIPELINE_HOST_ENTER, harena_pipeline_host_enter);
    HARENA_EXPECT_ABI_NAME(HARENA_ABI_PIPELINE_HOST_BASE, harena_pipeline_host_base);
    HARENA_EXPECT_ABI_NAME(HARENA_ABI_PIPELINE_HOST_EXIT_AS_DESTRUCTOR, harena_pipeline_host_exit_as_destructor);
    HARENA_EXPECT_ABI_NAME(HARENA_ABI_PIPELINE_SLOTS, harena_pipeline_slots);
    HARENA_EXPECT_ABI_NAME(HARENA_ABI_SLOT_POOL_INIT, harena_slot_pool_init);
    HARENA_EXPECT_ABI_NAME(HARENA_ABI_SLOT_TAKE, harena_slot_take);
    HARENA_EXPECT_ABI_NAME(HARENA_ABI_SLOT_GIVE, harena_slot_give);
}

// The default every side uses: the pass, harena_options_init and the C++ layer.
TEST(PipelineAbi, ArenasAreCreatedAtTheDefaultPlanAlignment) {
    harena_options options;
    harena_options_init(&options);
    EXPECT_EQ(options.alignment, uint64_t(HARENA_DEFAULT_ALIGNMENT));
}

// The guard-band layout: the band a pipeline leaves is the arena's, a
// multiple of the arena's alignment, which a pipeline uses as it is.
TEST(PipelineAbi, TheGuardBandIsAMultipleOfTheArenasAlignment) {
    for (uint64_t alignment : {64u, 256u, 1024u}) {
        harena_options options = HostArena::defaults();
        options.alignment = alignment;
        options.guard = 1;
        options.guard_bytes = 100;
        HostArena a(1 << 16, options);
        const uint64_t band = harena_pipeline_guard_bytes(a.arena);
        EXPECT_GE(band, 100u);
        EXPECT_EQ(band % alignment, 0u) << "alignment " << alignment;
    }
}
