// harena::SliceResource and harena::ResourceArena (runtime/rmm) on the host:
// the resource's calls on one stream never reach the driver, so an arena over
// host memory (standing in for device memory) exercises them without a GPU.
#include <gtest/gtest.h>

#include <rmm/error.hpp>
#include <rmm/resource_ref.hpp>

#include <cstdlib>
#include <string>
#include <vector>

#include "harena/rmm.hpp"

namespace {

const halide_device_interface_t *identity_interface() {
    static const halide_device_interface_t iface{};
    return &iface;
}

// A device resource of host memory that counts its calls.
struct CountingResource {
    int *allocations;
    int *deallocations;
    void *allocate(cuda::stream_ref, std::size_t bytes, std::size_t = 256) {
        ++*allocations;
        return std::aligned_alloc(256, (bytes + 255) / 256 * 256);
    }
    void deallocate(cuda::stream_ref, void *p, std::size_t, std::size_t = 256) noexcept {
        ++*deallocations;
        std::free(p);
    }
    void *allocate_sync(std::size_t bytes, std::size_t alignment = 256) {
        return allocate(cuda::stream_ref{cudaStream_t{nullptr}}, bytes, alignment);
    }
    void deallocate_sync(void *p, std::size_t bytes, std::size_t alignment = 256) noexcept {
        deallocate(cuda::stream_ref{cudaStream_t{nullptr}}, p, bytes, alignment);
    }
    bool operator==(const CountingResource &o) const noexcept {
        return allocations == o.allocations;
    }
    bool operator!=(const CountingResource &o) const noexcept {
        return !(*this == o);
    }
    friend void get_property(const CountingResource &, cuda::mr::device_accessible) noexcept {
    }
};

const cuda::stream_ref kStream{cudaStream_t{nullptr}};

struct SliceArena {
    explicit SliceArena(uint64_t bytes, int32_t policy = HARENA_OVERFLOW_ERROR)
        : memory(bytes) {
        harena_options o;
        harena_options_init(&o);
        o.overflow_policy = policy;
        EXPECT_EQ(harena_create_from_memory(identity_interface(), reinterpret_cast<uint64_t>(memory.data()), bytes, &o,
                                            &arena),
                  HARENA_OK);
        EXPECT_EQ(harena_push_on_stream(arena, 0, nullptr, &frame), HARENA_OK);
    }
    ~SliceArena() {
        EXPECT_EQ(harena_pop(arena, frame), HARENA_OK);
        EXPECT_EQ(harena_destroy(arena), HARENA_OK);
    }
    std::vector<char> memory;
    harena_arena *arena = nullptr;
    harena_frame frame{};
};

TEST(SliceResource, SlicesAre256ByteAlignedAndANewestFreeComesBackAtOnce) {
    SliceArena a(1 << 20);
    harena::SliceResource resource(a.arena);
    void *x = resource.allocate(kStream, 1000);
    void *y = resource.allocate(kStream, 3);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(x) % 256, 0u);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(y) % 256, 0u);
    EXPECT_EQ(static_cast<char *>(y) - static_cast<char *>(x), 1024);
    resource.deallocate(kStream, y, 3);
    EXPECT_EQ(resource.allocate(kStream, 200), y);
}

TEST(SliceResource, CountsAsRmmsStatisticsAdaptorDoes) {
    SliceArena a(1 << 20);
    harena::SliceResource resource(a.arena);
    void *x = resource.allocate(kStream, 1000);
    void *y = resource.allocate(kStream, 2000);
    resource.deallocate(kStream, y, 2000);
    const harena::SliceResourceStatistics s = resource.statistics();
    EXPECT_EQ(s.bytes_current, 1000u);
    EXPECT_EQ(s.bytes_peak, 3000u);
    EXPECT_EQ(s.bytes_total, 3000u);
    EXPECT_EQ(s.allocations_current, 1u);
    EXPECT_EQ(s.allocations_peak, 2u);
    EXPECT_EQ(s.allocations_total, 2u);
    EXPECT_EQ(s.fallback_allocations, 0u);
    resource.deallocate(kStream, x, 1000);
}

TEST(SliceResource, AFullArenaThrowsOutOfMemoryWithTheArenasMessage) {
    SliceArena a(64 << 10);
    harena::SliceResource resource(a.arena);
    try {
        (void)resource.allocate(kStream, 128 << 10);
        FAIL() << "an allocation larger than the arena succeeded";
    } catch (const rmm::out_of_memory &e) {
        const std::string what = e.what();
        EXPECT_NE(what.find("harena::SliceResource"), std::string::npos) << what;
        EXPECT_NE(what.find("128.00 KiB"), std::string::npos) << what;
        EXPECT_NE(what.find("fallback"), std::string::npos) << what;
    }
}

TEST(SliceResource, AFallbackResourceServesWhatDoesNotFit) {
    SliceArena a(64 << 10, HARENA_OVERFLOW_FALLBACK);
    int allocations = 0, deallocations = 0;
    harena::SliceResource resource(a.arena, harena::DeviceResource{CountingResource{&allocations, &deallocations}});
    void *small = resource.allocate(kStream, 1024);
    void *large = resource.allocate(kStream, 128 << 10);
    EXPECT_EQ(allocations, 1);
    EXPECT_EQ(resource.statistics().fallback_allocations, 1u);
    resource.deallocate(kStream, large, 128 << 10);
    EXPECT_EQ(deallocations, 1);
    resource.deallocate(kStream, small, 1024);
    EXPECT_EQ(deallocations, 1) << "the arena's slice goes back to the arena";
}

TEST(SliceResource, AllocatingWithoutAFrameSaysToPushOne) {
    std::vector<char> memory(1 << 16);
    harena_arena *arena = nullptr;
    ASSERT_EQ(harena_create_from_memory(identity_interface(), reinterpret_cast<uint64_t>(memory.data()), memory.size(),
                                        nullptr, &arena),
              HARENA_OK);
    harena::SliceResource resource(arena);
    try {
        (void)resource.allocate(kStream, 64);
        ADD_FAILURE() << "an allocation without a frame succeeded";
    } catch (const rmm::logic_error &e) {
        EXPECT_NE(std::string(e.what()).find("push one"), std::string::npos) << e.what();
    }
    EXPECT_EQ(harena_destroy(arena), HARENA_OK);
}

TEST(SliceResource, IsAnRmmDeviceResource) {
    SliceArena a(1 << 20);
    harena::SliceResource resource(a.arena);
    rmm::device_async_resource_ref ref{resource};
    void *x = ref.allocate(kStream, 512, 256);
    EXPECT_EQ(resource.statistics().allocations_current, 1u);
    ref.deallocate(kStream, x, 512, 256);
    EXPECT_EQ(resource.statistics().allocations_current, 0u);
    harena::SliceResource copy = resource;
    EXPECT_TRUE(copy == resource) << "copies share one state";
}

TEST(ResourceArena, TakesItsRegionFromAnRmmResourceAndGivesItBack) {
    int allocations = 0, deallocations = 0;
    {
        harena::ResourceArena arena(harena::DeviceResource{CountingResource{&allocations, &deallocations}}, 1 << 20,
                                    kStream);
        harena_info info{};
        ASSERT_EQ(harena_get_info(arena.get(), &info), HARENA_OK);
        EXPECT_EQ(info.capacity, uint64_t(1) << 20);
        EXPECT_EQ(info.owns_memory, 0);
        EXPECT_EQ(allocations, 1);
    }
    EXPECT_EQ(deallocations, 1);
}

}  // namespace
