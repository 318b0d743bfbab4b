// Without NVTX_INJECTION64_PATH no tool is loaded and device arenas work as
// ever. A process of its own: the runtime reads the variable once.
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <cstdlib>

#include "nvtx/state.h"
#include "nvtx_test_support.h"

namespace harena_test {
namespace {

TEST(NvtxAbsent, NothingIsLoadedAndTheCallsAreNoOps) {
    unsetenv("NVTX_INJECTION64_PATH");
    DeviceArena arena(4096);
    const harena_frame frame = arena.push(512);
    const uint64_t a = arena.alloc(100);
    EXPECT_EQ(harena::detail::nvtx_region(arena.arena, frame.base, 256, true), HARENA_OK);
    EXPECT_EQ(harena::detail::nvtx_region(arena.arena, frame.base, 256, false), HARENA_OK);
    EXPECT_EQ(harena_free(arena.arena, a, 100), HARENA_OK);
    EXPECT_EQ(harena_pop(arena.arena, frame), HARENA_OK);
    EXPECT_EQ(dlopen(kFakeNvtxPath, RTLD_NOW | RTLD_NOLOAD), nullptr);
}

}  // namespace
}  // namespace harena_test
