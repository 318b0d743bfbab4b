// The bytes a call needs, asked of the pipeline itself: a call whose arena
// buffer is a bounds query (no host, no device memory) gets the arena's
// shape written into it, as Halide writes an input's, and runs nothing
// else. An arena of exactly the answer then runs the call, and one byte
// less is refused with the message naming both sizes; over several sizes,
// on the host and on CUDA where there is a device.
#include "argument_unsharp_arena.h"
#include "argument_unsharp_cuda_arena.h"
#include "argument_unsharp_cuda_plain.h"
#include "argument_unsharp_plain.h"
#include "cuda_driver.h"

#include "HalideBuffer.h"

#include <gtest/gtest.h>

#include <cstring>
#include <functional>
#include <string>

namespace {

using Halide::Runtime::Buffer;
using Pipeline = std::function<int(halide_buffer_t *input, halide_buffer_t *arena, halide_buffer_t *output)>;

std::string last_error;
void keep_error(void *, const char *message) {
    last_error = message;
}

struct Size {
    int width, height;
};

// The estimate (256 x 192), larger, smaller and of other shapes.
constexpr Size kSizes[] = {{256, 192}, {300, 220}, {128, 96}, {333, 201}, {64, 240}, {8, 1}};

// The bytes `planned` answers for a call at `size` (input and output real).
int query(const Pipeline &planned, const Size &size) {
    Buffer<float, 3> input(size.width, size.height, 3), output(size.width, size.height, 3);
    input.fill(0.5f);
    output.fill(-3.0f);
    Buffer<uint8_t, 1> arena(nullptr, 0);
    EXPECT_TRUE(arena.is_bounds_query());
    EXPECT_EQ(planned(input, arena, output), 0) << last_error;
    EXPECT_EQ(arena.dim(0).min(), 0);
    EXPECT_EQ(arena.dim(0).stride(), 1);
    // A query runs nothing: the output is as it was.
    output.for_each_value([](float v) { ASSERT_EQ(v, -3.0f); });
    return arena.dim(0).extent();
}

// For every size: the answer is positive, an arena of exactly it runs the
// call with the unplanned build's output, and one of a byte less is refused
// with both sizes, the answer the bytes it names.
void expect_answers_are_exact(const Pipeline &plain, const Pipeline &planned, bool gpu) {
    for (const Size &size : kSizes) {
        // The CUDA schedule's 16x16 output tiles shift inwards over an output
        // narrower than a tile and read the input at x = -8, which the plain
        // build refuses too: a GPU call needs at least one tile.
        if (gpu && (size.width < 16 || size.height < 16)) {
            continue;
        }
        SCOPED_TRACE(std::to_string(size.width) + "x" + std::to_string(size.height));
        const int bytes = query(planned, size);
        ASSERT_GT(bytes, 0);

        Buffer<float, 3> input(size.width, size.height, 3), expected(size.width, size.height, 3),
            actual(size.width, size.height, 3);
        input.for_each_element([&](int x, int y, int c) { input(x, y, c) = float((x * 7 + y * 3 + c) % 17) / 17.0f; });
        input.set_host_dirty();
        Buffer<uint8_t, 1> unused(1);
        ASSERT_EQ(plain(input, unused, expected), 0) << last_error;
        Buffer<uint8_t, 1> exact(bytes);
        ASSERT_EQ(planned(input, exact, actual), 0) << last_error;
        if (gpu) {
            expected.copy_to_host();
            actual.copy_to_host();
        }
        ASSERT_EQ(std::memcmp(expected.data(), actual.data(), expected.size_in_bytes()), 0);

        Buffer<uint8_t, 1> short_by_one(bytes - 1);
        short_by_one.fill(0x5A);
        last_error.clear();
        EXPECT_NE(planned(input, short_by_one, actual), 0);
        const std::string sizes =
            "holds " + std::to_string(bytes - 1) + " bytes; this call needs " + std::to_string(bytes) + ":";
        EXPECT_NE(last_error.find("arena argument 'arena' of "), std::string::npos) << last_error;
        EXPECT_NE(last_error.find(sizes), std::string::npos) << last_error;
        EXPECT_EQ(short_by_one.raw_buffer()->device, 0u);
        short_by_one.for_each_value([](uint8_t v) { ASSERT_EQ(v, 0x5A); });
    }
}

// RunGen's query: every input a bounds query of extent 0, the output real.
// The arena's answer is the same as with a real input, and Halide still
// answers the input's own query.
void expect_answer_beside_input_queries(const Pipeline &planned) {
    const Size size{300, 220};
    Buffer<float, 3> input(nullptr, 0, 0, 0), output(size.width, size.height, 3);
    Buffer<uint8_t, 1> arena(nullptr, 0);
    ASSERT_EQ(planned(input, arena, output), 0) << last_error;
    EXPECT_EQ(arena.dim(0).extent(), query(planned, size));
    EXPECT_GE(input.dim(0).extent(), size.width);
    EXPECT_GE(input.dim(1).extent(), size.height);
}

// A query buffer of the wrong dimensionality is refused, naming it.
void expect_two_dimensional_query_refused(const Pipeline &planned) {
    Buffer<float, 3> input(64, 48, 3), output(64, 48, 3);
    Buffer<uint8_t, 2> arena(nullptr, 0, 0);
    last_error.clear();
    EXPECT_NE(planned(input, arena, output), 0);
    EXPECT_NE(last_error.find("is a bounds query of 2 dimensions"), std::string::npos) << last_error;
}

class QueryHost : public ::testing::Test {
protected:
    void SetUp() override {
        halide_set_error_handler(keep_error);
    }
};

TEST_F(QueryHost, TheAnswerIsExactlyTheBytesTheCallNeeds) {
    expect_answers_are_exact(argument_unsharp_plain, argument_unsharp_arena, false);
}

TEST_F(QueryHost, TheAnswerStandsBesideHalidesOwnInputQueries) {
    expect_answer_beside_input_queries(argument_unsharp_arena);
}

TEST_F(QueryHost, AQueryOfTwoDimensionsIsRefused) {
    expect_two_dimensional_query_refused(argument_unsharp_arena);
}

class QueryCuda : public ::testing::Test {
protected:
    void SetUp() override {
        if (!harena_test::cuda_usable()) {
            GTEST_SKIP() << "no usable CUDA device";
        }
        halide_set_error_handler(keep_error);
    }
};

TEST_F(QueryCuda, TheAnswerIsExactlyTheBytesTheCallNeeds) {
    expect_answers_are_exact(argument_unsharp_cuda_plain, argument_unsharp_cuda_arena, true);
}

TEST_F(QueryCuda, TheAnswerStandsBesideHalidesOwnInputQueries) {
    expect_answer_beside_input_queries(argument_unsharp_cuda_arena);
}

}  // namespace
