// Device arenas with an NVTX tool attached: the fake injection library stands
// in for compute-sanitizer and records what the runtime registers.
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <map>
#include <set>
#include <vector>

#include "fake_nvtx_injection.h"
#include "graph/backend.h"
#include "harena/cuda.h"
#include "host_arena.h"
#include "nvtx/state.h"
#include "nvtx_test_support.h"

namespace harena_test {
namespace {

// The runtime reads NVTX_INJECTION64_PATH once, at its first device arena.
class PointAtFakeTool : public ::testing::Environment {
public:
    void SetUp() override {
        setenv("NVTX_INJECTION64_PATH", kFakeNvtxPath, 1);
    }
};
const auto *const environment = ::testing::AddGlobalTestEnvironment(new PointAtFakeTool);

using Kind = FakeNvtxEvent::Kind;

// The log of the library the runtime loaded; loading it takes a device arena.
FakeNvtxLog &tool() {
    static FakeNvtxLog *log = [] {
        DeviceArena first(256);
        void *library = dlopen(kFakeNvtxPath, RTLD_NOW | RTLD_NOLOAD);
        EXPECT_NE(library, nullptr) << "the runtime did not load the injection library";
        return reinterpret_cast<FakeNvtxLogFunction>(dlsym(library, kFakeNvtxLogSymbol))();
    }();
    return *log;
}

class Nvtx : public ::testing::Test {
protected:
    void SetUp() override {
        mark_ = tool().events.size();
    }

    void TearDown() override {
        EXPECT_TRUE(tool().errors.empty()) << tool().errors.front();
        expect_balanced(tool().events);
    }

    // What the runtime registered since the test began.
    std::vector<FakeNvtxEvent> events() const {
        return std::vector<FakeNvtxEvent>(tool().events.begin() + mark_, tool().events.end());
    }

    // Replays the whole log: a region is unregistered only while registered,
    // in a registered heap; every heap and region registered has ended once
    // the test's arenas are destroyed.
    static void expect_balanced(const std::vector<FakeNvtxEvent> &log) {
        std::map<void *, std::set<uint64_t>> heaps;
        std::set<uint64_t> live;
        for (const FakeNvtxEvent &e : log) {
            switch (e.kind) {
            case Kind::heap_register:
                EXPECT_TRUE(heaps.emplace(e.heap, std::set<uint64_t>{}).second);
                break;
            case Kind::heap_unregister:
                ASSERT_EQ(heaps.count(e.heap), 1u);
                for (uint64_t a : heaps[e.heap]) {
                    live.erase(a);
                }
                heaps.erase(e.heap);
                break;
            case Kind::region_register:
                ASSERT_EQ(heaps.count(e.heap), 1u);
                EXPECT_TRUE(live.insert(e.address).second) << "0x" << std::hex << e.address << " registered twice";
                heaps[e.heap].insert(e.address);
                break;
            case Kind::region_unregister:
                EXPECT_EQ(live.erase(e.address), 1u) << "0x" << std::hex << e.address << " was not registered";
                for (auto &h : heaps) {
                    h.second.erase(e.address);
                }
                break;
            }
        }
        EXPECT_TRUE(heaps.empty());
        EXPECT_TRUE(live.empty());
    }

    static void expect_event(const FakeNvtxEvent &e, Kind kind, uint64_t address, uint64_t bytes = 0) {
        EXPECT_EQ(e.kind, kind);
        EXPECT_EQ(e.address, address);
        if (kind == Kind::region_register || kind == Kind::heap_register) {
            EXPECT_EQ(e.bytes, bytes);
        }
        EXPECT_EQ(e.domain, tool().domain);
    }

    size_t mark_ = 0;
};

TEST_F(Nvtx, TheToolIsInitializedOnceWithTheMemoryModuleAndADomain) {
    DeviceArena a(1024), b(1024);
    EXPECT_EQ(tool().core_inits, 1);
    EXPECT_EQ(tool().extension_inits, 1);
    EXPECT_EQ(tool().domain_name, "harena");
    EXPECT_NE(tool().domain, nullptr);
}

TEST_F(Nvtx, TheHeapIsTheWholeDeviceAllocationUntilDestroy) {
    void *heap;
    {
        DeviceArena arena(4096);
        const std::vector<FakeNvtxEvent> e = events();
        ASSERT_EQ(e.size(), 1u);
        // 4096 bytes at 256 alignment: the device interface allocates one row more.
        expect_event(e[0], Kind::heap_register, HostMemoryDevice::last_allocation, 4096 + 256);
        EXPECT_LE(e[0].address, arena.base());
        EXPECT_LE(arena.base() + 4096, e[0].address + e[0].bytes);
        heap = e[0].heap;
    }
    const std::vector<FakeNvtxEvent> e = events();
    ASSERT_EQ(e.size(), 2u);
    EXPECT_EQ(e[1].kind, Kind::heap_unregister);
    EXPECT_EQ(e[1].heap, heap);
}

TEST_F(Nvtx, AnAllocationIsARegionOfItsBytesUntilItsFree) {
    DeviceArena arena(4096);
    const harena_frame frame = arena.push();
    mark_ = tool().events.size();
    const uint64_t a = arena.alloc(100);
    const uint64_t b = arena.alloc(300);
    EXPECT_EQ(harena_free(arena.arena, b, 300), HARENA_OK);  // the most recent: its bytes come back
    const uint64_t c = arena.alloc(50);
    EXPECT_EQ(harena_free(arena.arena, a, 100), HARENA_OK);  // not the most recent: bytes stay until the pop
    arena.alloc(0);                                          // no region: nothing may be accessed
    const std::vector<FakeNvtxEvent> e = events();
    ASSERT_EQ(e.size(), 5u);
    expect_event(e[0], Kind::region_register, a, 100);
    expect_event(e[1], Kind::region_register, b, 300);
    expect_event(e[2], Kind::region_unregister, b);
    expect_event(e[3], Kind::region_register, c, 50);
    expect_event(e[4], Kind::region_unregister, a);
    EXPECT_EQ(e[0].heap, e[1].heap);
    EXPECT_EQ(harena_pop(arena.arena, frame), HARENA_OK);
    ASSERT_EQ(events().size(), 6u);
    expect_event(events()[5], Kind::region_unregister, c);
}

TEST_F(Nvtx, APopEndsItsFramesRegionsInOneCallAndNoOthers) {
    DeviceArena arena(8192);
    const harena_frame outer = arena.push();
    const uint64_t kept = arena.alloc(64);
    const harena_frame inner = arena.push(512);
    const uint64_t first = arena.alloc(128);
    const uint64_t second = arena.alloc(256);
    mark_ = tool().events.size();
    EXPECT_EQ(harena_pop(arena.arena, inner), HARENA_OK);
    const std::vector<FakeNvtxEvent> e = events();
    ASSERT_EQ(e.size(), 3u);
    expect_event(e[0], Kind::region_unregister, inner.base);  // the reservation
    expect_event(e[1], Kind::region_unregister, first);
    expect_event(e[2], Kind::region_unregister, second);
    for (const FakeNvtxEvent &event : e) {
        EXPECT_EQ(event.batch, 3u);
    }
    mark_ = tool().events.size();
    EXPECT_EQ(harena_pop(arena.arena, outer), HARENA_OK);
    ASSERT_EQ(events().size(), 1u);
    expect_event(events()[0], Kind::region_unregister, kept);
}

TEST_F(Nvtx, AReservationIsOneRegionUntilItsPusherDeclaresSlices) {
    DeviceArena arena(8192);
    mark_ = tool().events.size();
    const harena_frame frame = arena.push(1024);
    const uint64_t f = frame.base;
    EXPECT_EQ(harena::detail::nvtx_region(arena.arena, f + 256, 128, true), HARENA_OK);
    EXPECT_EQ(harena::detail::nvtx_region(arena.arena, f, 256, true), HARENA_OK);
    EXPECT_EQ(harena::detail::nvtx_region(arena.arena, f + 256, 128, false), HARENA_OK);
    EXPECT_EQ(harena::detail::nvtx_region(arena.arena, f + 256, 128, false), HARENA_OK);  // no longer registered: nothing
    std::vector<FakeNvtxEvent> e = events();
    ASSERT_EQ(e.size(), 5u);
    expect_event(e[0], Kind::region_register, f, 1024);
    expect_event(e[1], Kind::region_unregister, f);
    expect_event(e[2], Kind::region_register, f + 256, 128);
    expect_event(e[3], Kind::region_register, f, 256);
    expect_event(e[4], Kind::region_unregister, f + 256);
    EXPECT_EQ(harena::detail::nvtx_region(arena.arena, arena.base() + 8192, 1, true), HARENA_ERROR_NOT_IN_ARENA);
    EXPECT_EQ(harena::detail::nvtx_region(arena.arena, arena.base() + 8000, 256, true), HARENA_ERROR_NOT_IN_ARENA);
    EXPECT_EQ(harena::detail::nvtx_region(&arena, f, 1, true), HARENA_ERROR_NOT_AN_ARENA);
    EXPECT_EQ(harena_pop(arena.arena, frame), HARENA_OK);
    e = events();
    ASSERT_EQ(e.size(), 6u);
    expect_event(e[5], Kind::region_unregister, f);  // the slice still declared live
}

TEST_F(Nvtx, GrowingReplacesTheHeapBeforeTheOldRegionIsFreed) {
    DeviceArena arena(1024, /*grow=*/1);
    void *old_heap = events().at(0).heap;
    mark_ = tool().events.size();
    const harena_frame frame = arena.push(4096);
    const std::vector<FakeNvtxEvent> e = events();
    ASSERT_EQ(e.size(), 3u);
    EXPECT_EQ(e[0].kind, Kind::heap_unregister);
    EXPECT_EQ(e[0].heap, old_heap);
    expect_event(e[1], Kind::heap_register, HostMemoryDevice::last_allocation, HostMemoryDevice::last_bytes);
    expect_event(e[2], Kind::region_register, frame.base, 4096);
    EXPECT_EQ(e[2].heap, e[1].heap);
    EXPECT_EQ(harena_pop(arena.arena, frame), HARENA_OK);
}

TEST_F(Nvtx, AnArenaOverCallerMemoryHasTheGivenRangeAsHeap) {
    std::vector<uint8_t> memory(5000);
    const uint64_t address = reinterpret_cast<uint64_t>(memory.data()) + 1;
    harena_arena *arena = nullptr;
    ASSERT_EQ(harena_create_from_memory(HostMemoryDevice::interface(), address, 4000, nullptr, &arena), HARENA_OK);
    ASSERT_EQ(events().size(), 1u);
    expect_event(events()[0], Kind::heap_register, address, 4000);
    EXPECT_EQ(harena_destroy(arena), HARENA_OK);
    ASSERT_EQ(events().size(), 2u);
    EXPECT_EQ(events()[1].kind, Kind::heap_unregister);
}

// A graph backend whose launch notes what the tool had been told by then.
size_t events_at_launch = 0;
const harena::detail::GraphBackend kRecordingGraphs = {
    [](void *) { return 0; },
    [](void *, void **graph) {
        static int recorded;
        *graph = &recorded;
        return 0;
    },
    [](void *graph, void **exec) {
        *exec = graph;
        return 0;
    },
    [](void *, void *) {
        events_at_launch = tool().events.size();
        return 0;
    },
    [](void *, void *) {},
    [](harena::detail::ReplaySignal *, void *) { return 1; },  // no replay signal: graphs without it
    [](const harena::detail::ReplaySignal &, void *) { return 1; },
    [](harena::detail::ReplaySignal *) {},
    [](void *) { return 0; },
};

TEST_F(Nvtx, AGraphLaunchHasTheBytesAboveTheTopLiveWhileItRuns) {
    harena::detail::set_graph_backend(&kRecordingGraphs);
    DeviceArena arena(8192);
    int stream = 0;
    harena_cuda_binding binding{};
    binding.stream = &stream;
    ASSERT_EQ(harena_set_cuda_binding(arena.arena, &binding), HARENA_OK);
    harena_graph_cache *graphs = nullptr;
    ASSERT_EQ(harena_graph_cache_create(arena.arena, 1, &graphs), HARENA_OK);
    const harena_frame outer = arena.push();
    const uint64_t top = arena.alloc(256);  // the calls run above it
    const harena_graph_call planned_call = [](void *user_context, void *) {
        if (int err = harena_pipeline_enter(user_context, "planned", HostMemoryDevice::interface(), 1024, 1024,
                                            HARENA_PIPELINE_CAPTURABLE, 256)) {
            return err;
        }
        harena_pipeline_exit_as_destructor(user_context, reinterpret_cast<void *>(harena_pipeline_base(user_context)));
        return 0;
    };
    int outcome = -1;
    for (int expected : {HARENA_GRAPH_RAN, HARENA_GRAPH_CAPTURED, HARENA_GRAPH_REPLAYED}) {
        mark_ = tool().events.size();
        ASSERT_EQ(harena_graph_run(graphs, nullptr, 0, nullptr, 0, planned_call, nullptr, &outcome), 0);
        EXPECT_EQ(outcome, expected);
    }
    const std::vector<FakeNvtxEvent> e = events();
    ASSERT_EQ(e.size(), 2u);
    expect_event(e[0], Kind::region_register, top + 256, arena.base() + 8192 - (top + 256));
    expect_event(e[1], Kind::region_unregister, top + 256);
    EXPECT_EQ(events_at_launch, mark_ + 1);  // registered before the launch, unregistered after
    EXPECT_EQ(harena_graph_cache_destroy(graphs), HARENA_OK);
    harena::detail::set_graph_backend(nullptr);
    EXPECT_EQ(harena_pop(arena.arena, outer), HARENA_OK);
}

TEST_F(Nvtx, HostArenasRegisterNothing) {
    HostArena arena(4096);
    const harena_frame frame = arena.push(256);
    const uint64_t a = arena.alloc(100);
    EXPECT_EQ(harena::detail::nvtx_region(arena.arena, a, 100, true), HARENA_OK);
    EXPECT_EQ(harena_free(arena.arena, a, 100), HARENA_OK);
    EXPECT_EQ(harena_pop(arena.arena, frame), HARENA_OK);
    EXPECT_TRUE(events().empty());
}

}  // namespace
}  // namespace harena_test
