// Guard mode on the GPU (tests/generators/planted_overflow.cpp, CUDA builds): a CUDA
// kernel writes one element past the end of its device buffer, one row past
// it, or one row before its start. Planned, the call fails with the report;
// through the halide_device_malloc override (plain pipeline in a scope), the
// report comes when Halide frees the buffer. Correct calls before and after
// stay bit-identical to Halide's default, on the same host buffers. Skips
// where no CUDA device is usable.
#include "cuda_driver.h"
#include "pipeline_harness.h"
#include "planted_overruns.h"

#include "HalideRuntimeCuda.h"
#include "e2e_planted_overflow_cuda_arena.h"
#include "e2e_planted_overflow_cuda_plain.h"
#include "harena/arena.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <memory>
#include <string>

using Halide::Runtime::Buffer;
using namespace harena_test;

namespace {

bool mentions(const std::string &piece) {
    return last_error().find(piece) != std::string::npos;
}

enum class Path { planned,
                  override_scope };
void PrintTo(Path p, std::ostream *os) {
    *os << (p == Path::planned ? "planned" : "override_scope");
}

class GpuGuard : public ::testing::TestWithParam<Path> {
protected:
    void SetUp() override {
        if (!cuda_usable()) {
            GTEST_SKIP() << "no usable CUDA device";
        }
        harena::Options o;
        o.guard = true;
        o.guard_bytes = kPlantedBand;
        arena = std::make_unique<harena::Arena>(
            harena::Arena::device(halide_cuda_device_interface(), 16 << 20, o));
    }

    // One call on the path under test; the status the caller sees.
    int call(Buffer<float> &in, int x, int y, Buffer<float> &out) {
        if (GetParam() == Path::planned) {
            return e2e_planted_overflow_cuda_arena(arena->get(), in, x, y, out);
        }
        harena_scope scope;
        EXPECT_EQ(harena_scope_begin(&scope, arena->get()), HARENA_OK);
        const int result = e2e_planted_overflow_cuda_plain(in, x, y, out);
        const int end = harena_scope_end(&scope);
        return result != 0 ? result : end;
    }

    uint64_t damaged() const {
        return arena->stats().guard_damaged;
    }

    std::unique_ptr<harena::Arena> arena;
};

}  // namespace

TEST_P(GpuGuard, CorrectCallsMatchHalidesDefaultAndEveryPlantedWriteIsReported) {
    uint64_t reports = 0;
    for (const PlantedSize &z : kPlantedSizes) {
        Buffer<float> in(z.w, z.h), ref(z.w, z.h), got(z.w, z.h);
        for (const Overrun &o : kOverruns) {
            SCOPED_TRACE(std::string(o.name) + " at " + std::to_string(z.w) + "x" + std::to_string(z.h));
            fill_random(in, static_cast<uint32_t>(z.w + o.y));
            in.set_host_dirty();
            clear_last_error();
            ASSERT_EQ(e2e_planted_overflow_cuda_plain(in, 0, 0, ref), 0) << last_error();
            ASSERT_EQ(ref.copy_to_host(), 0);
            ASSERT_EQ(call(in, 0, 0, got), 0) << last_error();
            ASSERT_EQ(got.copy_to_host(), 0);
            EXPECT_EQ(first_difference(ref, got), "");
            EXPECT_EQ(damaged(), reports);

            const int status = call(in, o.x, o.y, got);
            EXPECT_EQ(damaged(), ++reports) << last_error();
            if (GetParam() == Path::planned) {
                EXPECT_EQ(status, HARENA_ERROR_GUARD_DAMAGED);
                EXPECT_TRUE(mentions("pipeline 'e2e_planted_overflow_cuda_arena'")) << last_error();
                EXPECT_TRUE(mentions(o.y < 0 ? "before the first slice of its frame" : "past the end of buffer 'written'"))
                    << last_error();
            } else {
                // halide_device_free's result does not reach the caller when
                // Halide frees through a destructor: the report is the error.
                EXPECT_TRUE(status == 0 || status == HARENA_ERROR_GUARD_DAMAGED) << status;
                EXPECT_TRUE(mentions(o.y < 0 ? "before the first slice of frame #" : "(float32, ")) << last_error();
            }
            EXPECT_TRUE(mentions(expected_extent(o, z.w))) << last_error();
            EXPECT_EQ(arena->stats().frame_depth, 0u);
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Cuda, GpuGuard, ::testing::Values(Path::planned, Path::override_scope),
                         [](const ::testing::TestParamInfo<Path> &info) {
                             return std::string(info.param == Path::planned ? "Planned" : "OverrideScope");
                         });

// For compute-sanitizer with NVTX memory regions (README, "Finding
// out-of-bounds writes"): one stray write with guard mode off, planned or
// through the override, inside the arena's device allocation. memcheck
// reports it only where the arena declares its slices, so the test passes on
// its own and the sanitizer's report is the result; run one case per process
// (the first report ends the context). Runs where HARENA_TEST_PLANTED_WRITES=1,
// so that an ordinary memcheck run of the suite stays clean.
struct PlantedWrite {
    const char *name;
    Path path;
    Overrun overrun;
};
void PrintTo(const PlantedWrite &w, std::ostream *os) {
    *os << w.name;
}

class GpuPlantedWrite : public ::testing::TestWithParam<PlantedWrite> {};

TEST_P(GpuPlantedWrite, OutsideItsSliceWithGuardModeOff) {
    const char *wanted = std::getenv("HARENA_TEST_PLANTED_WRITES");
    if (wanted == nullptr || std::string(wanted) != "1") {
        GTEST_SKIP() << "set HARENA_TEST_PLANTED_WRITES=1 (for compute-sanitizer runs)";
    }
    if (!cuda_usable()) {
        GTEST_SKIP() << "no usable CUDA device";
    }
    const PlantedWrite &w = GetParam();
    harena::Arena arena = harena::Arena::device(halide_cuda_device_interface(), 16 << 20);
    Buffer<float> in(64, 64), out(64, 64);
    fill_random(in, 1);
    if (w.path == Path::planned) {
        EXPECT_EQ(e2e_planted_overflow_cuda_arena(arena.get(), in, w.overrun.x, w.overrun.y, out), 0) << last_error();
    } else {
        // A first, correct call leaves the arguments holding device memory
        // (moved out of its frame), as in any loop of calls: in the next
        // frame the intermediate is the last slice, so its stray write lands
        // outside every slice rather than in the output's.
        {
            harena::Scope first(arena);
            ASSERT_EQ(e2e_planted_overflow_cuda_plain(in, 0, 0, out), 0) << last_error();
        }
        harena::Scope scope(arena);
        EXPECT_EQ(e2e_planted_overflow_cuda_plain(in, w.overrun.x, w.overrun.y, out), 0) << last_error();
    }
    EXPECT_EQ(out.copy_to_host(), 0);
}

INSTANTIATE_TEST_SUITE_P(Cuda, GpuPlantedWrite,
                         ::testing::Values(PlantedWrite{"PlannedElement", Path::planned, kOverruns[0]},
                                           PlantedWrite{"PlannedRow", Path::planned, kOverruns[1]},
                                           PlantedWrite{"OverrideElement", Path::override_scope, kOverruns[0]},
                                           PlantedWrite{"OverrideRow", Path::override_scope, kOverruns[1]}),
                         [](const ::testing::TestParamInfo<PlantedWrite> &info) { return std::string(info.param.name); });
