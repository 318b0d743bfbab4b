// The arena argument from JIT (harena/jit.h): a pipeline written and compiled
// in the process, as Halide's tutorials and apps write one, realized
// repeatedly with new inputs of several sizes, planned against the same
// pipeline unplanned; on the host, and on CUDA where there is a device.
#include "harena/jit.h"

#include "cuda_driver.h"

#include <gtest/gtest.h>

#include <cstring>
#include <map>
#include <utility>
#include <random>
#include <string>
#include <vector>

namespace {

using namespace Halide;

// A detail-enhancing filter: gray, a separable blur of it, the detail the blur
// removed added back to each channel. Estimates only, no maxima.
struct DetailFilter {
    ImageParam input{Float(32), 3, "input"};
    Func output{"output"};

    explicit DetailFilter(const Target &target) {
        Var x("x"), y("y"), c("c"), xo("xo"), yo("yo"), xi("xi"), yi("yi");
        Func bounded = BoundaryConditions::repeat_edge(input);
        Func gray("gray"), blur_x("blur_x"), blur_y("blur_y"), detail("detail");
        gray(x, y) = 0.25f * bounded(x, y, 0) + 0.5f * bounded(x, y, 1) + 0.25f * bounded(x, y, 2);
        blur_x(x, y) = (gray(x - 1, y) + 2.0f * gray(x, y) + gray(x + 1, y)) * 0.25f;
        blur_y(x, y) = (blur_x(x, y - 1) + 2.0f * blur_x(x, y) + blur_x(x, y + 1)) * 0.25f;
        detail(x, y) = gray(x, y) - blur_y(x, y);
        output(x, y, c) = input(x, y, c) + 1.5f * detail(x, y);

        input.set_estimates({{0, 320}, {0, 240}, {0, 3}});
        output.set_estimates({{0, 320}, {0, 240}, {0, 3}});
        for (Func f : {gray, blur_x, blur_y, detail}) {
            f.compute_root();
            if (target.has_gpu_feature()) {
                f.gpu_tile(x, y, xo, yo, xi, yi, 16, 16);
            } else {
                f.vectorize(x, 8).parallel(y);
            }
        }
        if (target.has_gpu_feature()) {
            output.gpu_tile(x, y, xo, yo, xi, yi, 16, 16);
        } else {
            output.reorder(c, x, y).vectorize(x, 8).parallel(y);
        }
    }
};

Buffer<float> new_image(int call, int width, int height) {
    Buffer<float> image(width, height, 3);
    std::mt19937 random(3000 + call);
    std::uniform_real_distribution<float> value(0.0f, 1.0f);
    image.for_each_value([&](float &v) { v = value(random); });
    return image;
}

struct CallSize {
    int width, height;
};
const std::vector<CallSize> kCalls = {{320, 240}, {200, 150}, {320, 240}, {64, 48}, {320, 240}, {128, 96}};

class JitArena : public ::testing::TestWithParam<std::string> {
protected:
    void SetUp() override {
        target_ = get_host_target();
        if (GetParam() == "cuda") {
            if (!harena_test::cuda_usable()) {
                GTEST_SKIP() << "no usable CUDA device";
            }
            target_ = target_.with_feature(Target::CUDA);
        }
    }
    Target target_;
};

TEST_P(JitArena, PlannedRealizeMatchesUnplannedOnEveryCall) {
    DetailFilter plain(target_), planned(target_);
    Pipeline plain_pipeline(plain.output), planned_pipeline(planned.output);
    ImageParam arena(UInt(8), 1, "arena");
    const harena::ArgumentPlan plan = harena::plan_into_argument(planned_pipeline, arena, target_);
    ASSERT_GT(plan.bytes_at_estimates, 0u);
    Buffer<uint8_t> memory(static_cast<int>(plan.bytes_at_estimates));
    memory.fill(0);
    arena.set(memory);
    // One pair of output buffers per size, reused by every call of that size.
    std::map<std::pair<int, int>, std::pair<Buffer<float>, Buffer<float>>> outputs;
    for (size_t call = 0; call < kCalls.size(); call++) {
        SCOPED_TRACE("call " + std::to_string(call));
        const CallSize size = kCalls[call];
        Buffer<float> image = new_image(static_cast<int>(call), size.width, size.height);
        auto found = outputs.find({size.width, size.height});
        if (found == outputs.end()) {
            found = outputs
                        .emplace(std::make_pair(size.width, size.height),
                                 std::make_pair(Buffer<float>(size.width, size.height, 3),
                                                Buffer<float>(size.width, size.height, 3)))
                        .first;
        }
        Buffer<float> &expected = found->second.first;
        Buffer<float> &actual = found->second.second;
        expected.fill(-2.0f);
        actual.fill(-1.0f);
        expected.set_host_dirty();
        actual.set_host_dirty();
        plain.input.set(image);
        planned.input.set(image);
        plain_pipeline.realize(expected, target_);
        planned_pipeline.realize(actual, target_);
        expected.copy_to_host();
        actual.copy_to_host();
        ASSERT_EQ(0, std::memcmp(expected.data(), actual.data(), expected.size_in_bytes()));
    }
    if (target_.has_gpu_feature()) {
        EXPECT_NE(memory.raw_buffer()->device, 0u) << "the plan's device memory was not kept by the arena buffer";
    } else {
        bool written = false;
        memory.for_each_value([&](uint8_t v) { written |= v != 0; });
        EXPECT_TRUE(written) << "no intermediate was placed in the arena";
    }
}

TEST_P(JitArena, ATooSmallArenaFailsTheCallAndNamesTheSizes) {
    DetailFilter planned(target_);
    Pipeline pipeline(planned.output);
    ImageParam arena(UInt(8), 1, "arena");
    harena::plan_into_argument(pipeline, arena, target_, {"detail_filter", "", 0});
    Buffer<uint8_t> memory(64);
    memory.fill(0xA5);
    arena.set(memory);
    planned.input.set(new_image(0, 320, 240));
    Buffer<float> output(320, 240, 3);
    output.fill(7.0f);
    try {
        pipeline.realize(output, target_);
        FAIL() << "a call with a 64-byte arena succeeded";
    } catch (const Halide::RuntimeError &e) {
        EXPECT_NE(std::string(e.what()).find("arena argument 'arena' of detail_filter holds 64 bytes; this call needs"),
                  std::string::npos)
            << e.what();
    }
    memory.copy_to_host();
    output.copy_to_host();
    memory.for_each_value([](uint8_t v) { ASSERT_EQ(v, 0xA5); });
    output.for_each_value([](float v) { ASSERT_EQ(v, 7.0f); });
}

TEST(JitArenaOptions, AnArenaThatIsNotOneDimensionalUint8IsRefused) {
    DetailFilter planned(get_host_target());
    Pipeline pipeline(planned.output);
    ImageParam arena(Float(32), 2, "arena");
    EXPECT_THROW(harena::plan_into_argument(pipeline, arena, get_host_target()), Halide::CompileError);
}

INSTANTIATE_TEST_SUITE_P(Targets, JitArena, ::testing::Values("host", "cuda"),
                         [](const ::testing::TestParamInfo<std::string> &info) { return info.param; });

}  // namespace
