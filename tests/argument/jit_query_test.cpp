// JIT callers size the arena through Halide's own bounds inference: with the
// arena ImageParam left unbound, Pipeline::infer_input_bounds binds it to a
// buffer of exactly the bytes the call needs. That buffer runs the call; one
// byte less is refused naming both sizes. Over several sizes, on the host
// and on CUDA where there is a device.
#include "harena/jit.h"

#include "cuda_driver.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace {

using namespace Halide;

// A sharpening filter of two planned intermediates, estimates only.
struct Sharpen {
    ImageParam input{Float(32), 2, "input"};
    Func output{"output"};

    explicit Sharpen(const Target &target) {
        Var x("x"), y("y"), xo("xo"), yo("yo"), xi("xi"), yi("yi");
        Func clamped = BoundaryConditions::repeat_edge(input);
        Func blur_x("blur_x"), blur_y("blur_y");
        blur_x(x, y) = (clamped(x - 1, y) + clamped(x, y) + clamped(x + 1, y)) / 3.0f;
        blur_y(x, y) = (blur_x(x, y - 1) + blur_x(x, y) + blur_x(x, y + 1)) / 3.0f;
        output(x, y) = 2.0f * input(x, y) - blur_y(x, y);
        input.set_estimates({{0, 512}, {0, 384}});
        output.set_estimates({{0, 512}, {0, 384}});
        for (Func f : {blur_x, blur_y, output}) {
            if (f.name() != "output") {
                f.compute_root();
            }
            if (target.has_gpu_feature()) {
                f.gpu_tile(x, y, xo, yo, xi, yi, 16, 16);
            } else {
                f.vectorize(x, 8).parallel(y);
            }
        }
    }
};

class JitQuery : public ::testing::TestWithParam<std::string> {
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

TEST_P(JitQuery, InferInputBoundsSizesTheArenaExactly) {
    Sharpen planned(target_);
    Pipeline pipeline(planned.output);
    ImageParam arena(UInt(8), 1, "arena");
    harena::plan_into_argument(pipeline, arena, target_, {"sharpen", "", 0});
    const std::vector<std::pair<int, int>> sizes = {{512, 384}, {640, 480}, {100, 60}, {512, 384}, {24, 700}};
    for (const auto &[width, height] : sizes) {
        SCOPED_TRACE(std::to_string(width) + "x" + std::to_string(height));
        Buffer<float> image(width, height), result(width, height);
        image.fill(0.5f);
        planned.input.set(image);
        arena.reset();
        pipeline.infer_input_bounds(result, target_);
        Buffer<uint8_t> sized = arena.get();
        ASSERT_TRUE(sized.defined()) << "infer_input_bounds bound no arena";
        const int bytes = sized.dim(0).extent();
        ASSERT_GT(bytes, 0);
        EXPECT_EQ(sized.dim(0).min(), 0);
        result.fill(-1.0f);
        result.set_host_dirty();
        pipeline.realize(result, target_);
        result.copy_to_host();
        result.for_each_value([](float v) { ASSERT_EQ(v, 0.5f); });

        arena.set(Buffer<uint8_t>(bytes - 1));
        try {
            pipeline.realize(result, target_);
            FAIL() << "a call with an arena a byte short of the answer succeeded";
        } catch (const Halide::RuntimeError &e) {
            const std::string expected = "arena argument 'arena' of sharpen holds " + std::to_string(bytes - 1) +
                                         " bytes; this call needs " + std::to_string(bytes) + ":";
            EXPECT_NE(std::string(e.what()).find(expected), std::string::npos) << e.what();
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Targets, JitQuery, ::testing::Values("host", "cuda"),
                         [](const ::testing::TestParamInfo<std::string> &info) { return info.param; });

}  // namespace
