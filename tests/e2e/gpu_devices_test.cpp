// One arena per GPU (harena_create_cuda), the way a program spreads its
// requests over several GPUs: each device's primary context, an arena bound
// to it, and pipelines called with that arena from a thread per GPU and then
// from several, with host buffers in and out, reused, new inputs every call.
// Every output is compared bit for bit with Halide's default on device 0, and
// every buffer a call allocated must be on the arena's device. The first test
// needs one GPU (the primary context is not the one Halide makes for itself);
// the others skip with fewer than two. Skips where no CUDA device is usable.
#include "cuda_driver.h"
#include "cuda_pipeline_table.h"
#include "gpu_graph_support.h"
#include "harena_libcuda.h"

#include <exception>
#include <string>
#include <thread>
#include <vector>

using Halide::Runtime::Buffer;
using namespace harena_test;

namespace {

const GeneratedPipeline &pipeline(const std::string &name) {
    for (const GeneratedPipeline &p : kCudaPipelines) {
        if (name == p.name) {
            return p;
        }
    }
    ADD_FAILURE() << "no CUDA test pipeline " << name;
    return kCudaPipelines[0];
}

// Every device's primary context, retained once for the process.
const std::vector<CUcontext> &device_contexts() {
    static const std::vector<CUcontext> contexts = primary_contexts();
    return contexts;
}

// What the driver says of a device address (CU_POINTER_ATTRIBUTE_*), or
// `otherwise` where it cannot.
template<typename T>
T pointer_attribute(uint64_t address, CUpointer_attribute attribute, T otherwise) {
    static const auto get = harena::detail::cuda_symbol<PFN_cuPointerGetAttribute_v4000>("cuPointerGetAttribute");
    T value = otherwise;
    return get != nullptr && get(&value, attribute, address) == CUDA_SUCCESS ? value : otherwise;
}

// The ordinal of the device whose memory holds a device address.
int device_of(uint64_t address) {
    return pointer_attribute(address, CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL, -1);
}

harena::Arena arena_on(int device, uint64_t bytes) {
    harena_cuda_binding binding{};
    binding.context = device_contexts()[device];
    return harena::Arena::cuda(halide_cuda_device_interface(), binding, bytes);
}

// `calls` calls of the planned pipeline with `arena`, host buffers in and out
// reused, each compared with Halide's default on the same values. Returns
// the first problem, or "".
std::string planned_calls(const GeneratedPipeline &p, harena::Arena &arena, int device, int n, int calls,
                          uint32_t seed) {
    Buffer<float> in(n, n), out(n, n), ref_in(n, n), ref(n, n);
    std::string problem;
    for (int call = 0; call < calls && problem.empty(); call++) {
        const int k = 1 + (call * 7 + device) % 16;
        fill_random(in, seed + call);
        fill_random(ref_in, seed + call);
        in.set_host_dirty();
        ref_in.set_host_dirty();
        if (p.plain(ref_in, k, ref) != 0 || ref.copy_to_host() != 0) {
            return "Halide's default failed: " + last_error();
        }
        if (p.planned(arena.get(), in, k, out) != 0 || out.copy_to_host(arena.get()) != 0) {
            return std::string(p.name) + " planned failed on device " + std::to_string(device) + ": " + last_error();
        }
        problem = first_difference(ref, out);
        if (!problem.empty()) {
            problem = std::string(p.name) + " on device " + std::to_string(device) + ", call " + std::to_string(call) +
                      ": " + problem;
        }
    }
    for (Buffer<float> *b : {&in, &out}) {
        if (problem.empty() && device_of(b->raw_buffer()->device) != device) {
            problem = std::string(p.name) + ": a buffer the call allocated is on device " +
                      std::to_string(device_of(b->raw_buffer()->device)) + ", not " + std::to_string(device);
        }
        (void)b->device_free(arena.get());
    }
    ref_in.device_free();
    ref.device_free();
    return problem;
}

// `threads_per_device` threads on each of the first `devices` GPUs, each with
// an arena of its own on its GPU, at once. Returns every thread's problems.
std::vector<std::string> on_devices_at_once(int devices, int threads_per_device) {
    std::vector<std::string> problems(devices * threads_per_device);
    std::vector<std::thread> threads;
    for (int t = 0; t < devices * threads_per_device; t++) {
        threads.emplace_back([&, t] {
            const int device = t % devices;
            try {
                harena::Arena arena = arena_on(device, 64 << 20);
                for (const char *name : {"chain", "pyramid", "reduction"}) {
                    for (int n : {48, 300}) {
                        std::string problem = planned_calls(pipeline(name), arena, device, n, 4, 1000u * t + n);
                        if (!problem.empty() && problems[t].empty()) {
                            problems[t] = problem;
                        }
                    }
                }
            } catch (const std::exception &e) {
                problems[t] = std::string("device ") + std::to_string(device) + ": " + e.what();
            }
        });
    }
    for (std::thread &t : threads) {
        t.join();
    }
    std::vector<std::string> found;
    for (const std::string &p : problems) {
        if (!p.empty()) {
            found.push_back(p);
        }
    }
    return found;
}

class GpuDevices : public ::testing::Test {
protected:
    void SetUp() override {
        if (!cuda_usable()) {
            GTEST_SKIP() << "no usable CUDA device";
        }
        ASSERT_GE(device_contexts().size(), 1u);
    }
    void need_two() {
        if (device_contexts().size() < 2) {
            GTEST_SKIP() << "needs two CUDA devices; this machine has " << device_contexts().size();
        }
    }
};

TEST_F(GpuDevices, AnArenaForAContextHasItsRegionAndItsCallsThere) {
    harena::Arena arena = arena_on(0, 64 << 20);
    const CUcontext none = nullptr;
    EXPECT_EQ(pointer_attribute(arena.base(), CU_POINTER_ATTRIBUTE_CONTEXT, none), device_contexts()[0]) << "the region belongs to the context the arena was made for";
    harena_cuda_binding binding{};
    ASSERT_EQ(harena_get_cuda_binding(arena.get(), &binding), HARENA_OK);
    EXPECT_EQ(binding.context, device_contexts()[0]);
    EXPECT_NE(binding.stream, nullptr) << "a stream of its own, made in that context";
    for (const char *name : {"chain", "pyramid", "reduction"}) {
        EXPECT_EQ(planned_calls(pipeline(name), arena, 0, 200, 4, 7), "");
    }
}

TEST_F(GpuDevices, OneThreadPerGpuGivesHalidesBitsOnEach) {
    need_two();
    const std::vector<std::string> problems = on_devices_at_once(static_cast<int>(device_contexts().size()), 1);
    EXPECT_TRUE(problems.empty()) << problems.front();
}

TEST_F(GpuDevices, SeveralThreadsPerGpuGiveHalidesBitsOnEach) {
    need_two();
    const std::vector<std::string> problems = on_devices_at_once(static_cast<int>(device_contexts().size()), 4);
    EXPECT_TRUE(problems.empty()) << problems.front();
}

TEST_F(GpuDevices, EachGpuReplaysItsOwnGraphs) {
    need_two();
    const GeneratedPipeline &p = pipeline("chain");
    ASSERT_TRUE(p.capturable);
    std::vector<std::string> problems(device_contexts().size());
    std::vector<int> replays(device_contexts().size(), 0);
    std::vector<std::thread> threads;
    for (int device = 0; device < static_cast<int>(device_contexts().size()); device++) {
        threads.emplace_back([&, device] {
            harena::Arena arena = arena_on(device, p.arena_bytes);
            harena::GraphCache graphs(arena, 2);
            Buffer<float> in(128, 128), out(128, 128), ref_in(128, 128), ref(128, 128);
            for (int call = 0; call < 6 && problems[device].empty(); call++) {
                const uint32_t seed = static_cast<uint32_t>(10 * device + call);
                write_input(arena, in, seed);
                poison(arena, out);
                // The reference in Halide's context on device 0, from its own copy of the values.
                fill_random(ref_in, seed);
                ref_in.set_host_dirty();
                if (p.plain(ref_in, 5, ref) != 0 || ref.copy_to_host() != 0 ||
                    graphs.run(p.planned, in.raw_buffer(), 5, out.raw_buffer()) != 0) {
                    problems[device] = "a call failed: " + last_error();
                    break;
                }
                harena::synchronize(arena);
                replays[device] += graphs.last_outcome() == HARENA_GRAPH_REPLAYED ? 1 : 0;
                if (out.copy_to_host(arena.get()) != 0) {
                    problems[device] = "copy to host failed";
                }
                problems[device] += first_difference(ref, out);
            }
            if (problems[device].empty() && device_of(out.raw_buffer()->device) != device) {
                problems[device] = "the output is not on device " + std::to_string(device);
            }
            (void)in.device_free(arena.get());
            (void)out.device_free(arena.get());
            ref_in.device_free();
            ref.device_free();
        });
    }
    for (std::thread &t : threads) {
        t.join();
    }
    for (size_t d = 0; d < problems.size(); d++) {
        EXPECT_EQ(problems[d], "") << "device " << d;
        EXPECT_EQ(replays[d], 4) << "device " << d << ": calls 3-6 replay the graph captured on call 2";
    }
}

}  // namespace
