// harena_cuda_launch on a real GPU (skips where no CUDA device is usable):
// pipelines called from many threads at once, and in a second context, give
// the bits of a single-threaded call in Halide's context, which itself agrees
// with the host build (within rounding: the GPU may fuse operations).
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <random>
#include <thread>
#include <vector>

#include "HalideBuffer.h"
#include "HalideRuntimeCuda.h"
#include "cuda_test.h"
#include "harena_libcuda.h"
#include "harena_rt_chain_cuda.h"
#include "harena_rt_chain_host.h"

namespace {

constexpr int kWidth = 4096;
const int kValues[] = {3, 17, 8, 31, 1, 12, 64, 5};

// The context the calling thread's pipelines run in, where set; Halide's
// own otherwise.
thread_local void *thread_context = nullptr;
halide_cuda_acquire_context_t halide_acquire = nullptr;

int acquire_thread_context(void *user_context, void **ctx, bool create) {
    if (thread_context != nullptr) {
        *ctx = thread_context;
        return 0;
    }
    return halide_acquire(user_context, ctx, create);
}

std::vector<float> input_values() {
    std::vector<float> values(kWidth);
    std::mt19937 rng(5);
    std::uniform_real_distribution<float> value(-1.0f, 1.0f);
    for (float &v : values) {
        v = value(rng);
    }
    return values;
}

// One call on fresh buffers, so that their device memory belongs to the
// thread's context (freed in it too, before returning).
template<typename Pipeline>
std::vector<float> call(Pipeline pipeline, int k) {
    static const std::vector<float> values = input_values();
    Halide::Runtime::Buffer<float> input(kWidth), output(kWidth);
    std::memcpy(input.data(), values.data(), kWidth * sizeof(float));
    input.set_host_dirty();
    const int result = pipeline(input, k, output);
    EXPECT_EQ(result, 0);
    EXPECT_EQ(output.copy_to_host(), 0);
    return std::vector<float>(output.begin(), output.end());
}

class LaunchGpu : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        if (harena_test::cuda_usable() && halide_acquire == nullptr) {
            halide_acquire = halide_set_cuda_acquire_context(acquire_thread_context);
        }
    }
    void SetUp() override {
        if (!harena_test::cuda_usable()) {
            GTEST_SKIP() << "no usable CUDA device";
        }
        for (int k : kValues) {
            expected.push_back(call(harena_rt_chain_cuda, k));
            const std::vector<float> host = call(harena_rt_chain_host, k);
            for (int x = 0; x < kWidth; x++) {
                ASSERT_NEAR(expected.back()[x], host[x], 1e-4f * std::max(1.0f, std::abs(host[x])))
                    << "k " << k << ", x " << x;
            }
        }
    }

    // Every k on the CUDA build, compared with the reference's bits.
    int mismatches() {
        int count = 0;
        for (size_t i = 0; i < std::size(kValues); i++) {
            count += call(harena_rt_chain_cuda, kValues[i]) == expected[i] ? 0 : 1;
        }
        return count;
    }

    std::vector<std::vector<float>> expected;
};

TEST_F(LaunchGpu, CallsFromManyThreadsAtOnceGiveTheSameBits) {
    std::atomic<int> mismatched{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < 8; t++) {
        threads.emplace_back([&] {
            for (int round = 0; round < 5; round++) {
                mismatched += mismatches();
            }
        });
    }
    for (auto &t : threads) {
        t.join();
    }
    EXPECT_EQ(mismatched.load(), 0);
}

TEST_F(LaunchGpu, ASecondContextLoadsItsOwnModule) {
    using harena::detail::cuda_symbol;
    auto device_get = cuda_symbol<PFN_cuDeviceGet_v2000>("cuDeviceGet");
    auto primary_retain = cuda_symbol<PFN_cuDevicePrimaryCtxRetain_v7000>("cuDevicePrimaryCtxRetain");
    ASSERT_NE(device_get, nullptr);
    ASSERT_NE(primary_retain, nullptr);
    CUdevice device = 0;
    CUcontext primary = nullptr;
    ASSERT_EQ(device_get(&device, 0), CUDA_SUCCESS);
    // Kept for the process: Halide's allocation cache holds blocks freed in it.
    ASSERT_EQ(primary_retain(&primary, device), CUDA_SUCCESS);
    void *halide_context = nullptr;
    ASSERT_EQ(halide_acquire(nullptr, &halide_context, true), 0);
    ASSERT_NE(static_cast<void *>(primary), halide_context) << "Halide creates a context of its own";

    EXPECT_EQ(mismatches(), 0) << "in Halide's context";
    thread_context = primary;
    EXPECT_EQ(mismatches(), 0) << "in the device's primary context";
    thread_context = nullptr;
    EXPECT_EQ(mismatches(), 0) << "in Halide's context again";
}

}  // namespace
