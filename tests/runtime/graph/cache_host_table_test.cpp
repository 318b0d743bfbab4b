// The graph cache with a host stage that tabulates from the scalars (a
// key-host buffer): each captured graph keeps its own key's table in a
// pinned block it owns. With the stand-in backend of fake_graph_backend.h.
#include <cstdlib>
#include <memory>
#include <vector>

#include "fake_graph_backend.h"
#include "graph/host_blocks.h"
#include "harena/graph.hpp"

using namespace harena_test;

namespace {

// Pinned host memory, counted.
struct FakePinned {
    int allocated = 0, freed = 0;
};
FakePinned pinned;

const harena::detail::PinnedHostBackend kFakePinned = {
    [](size_t bytes, void **host) {
        *host = std::malloc(bytes);
        pinned.allocated++;
        return 0;
    },
    [](void *host) {
        std::free(host);
        pinned.freed++;
    },
    [](void *graph, harena::detail::CopySource *sources, size_t capacity, size_t *count) {
        const auto &copies = static_cast<FakeGraph *>(graph)->copy_sources;
        *count = copies.size();
        for (size_t i = 0; i < copies.size() && i < capacity; i++) {
            sources[i] = harena::detail::CopySource{copies[i], true};
        }
        return 0;
    },
};

// Outside a capture a table's host part is Halide's (halide_malloc); here one
// the test owns.
float ordinary_host_table = 0;
const halide_device_interface_t *table_interface() {
    static halide_device_interface_t iface = [] {
        halide_device_interface_t i{};
        i.device_and_host_malloc = [](void *, halide_buffer_t *buf, const halide_device_interface_t *) {
            buf->host = reinterpret_cast<uint8_t *>(&ordinary_host_table);
            return 0;
        };
        return i;
    }();
    return &iface;
}

// A planned pipeline with a host stage that tabulates from the scalar k alone
// (a key-host buffer, as the pass emits it): out = in + 10 k, the table
// uploaded before the kernel that reads it.
struct TablePipeline {
    float device_table = 0;
    bool upload = true;  // false: the stage's result never reaches the graph
    int operator()(void *user_context, halide_buffer_t *in, float k, halide_buffer_t *out) {
        if (int r = harena_pipeline_enter(user_context, "table", nullptr, 256, 256, HARENA_PIPELINE_CAPTURABLE, 256)) {
            return r;
        }
        halide_dimension_t dim{0, 1, 1, 0};
        halide_buffer_t table{};
        table.type = halide_type_of<float>();
        table.dimensions = 1;
        table.dim = &dim;
        table.device = reinterpret_cast<uint64_t>(&device_table);
        if (int r = harena_key_host_malloc(user_context, &table, table_interface())) {
            return r;
        }
        float *host = reinterpret_cast<float *>(table.host);
        *host = 10 * k;  // the host stage
        if (upload) {
            launch_copy(&device_table, host);
        } else {
            device_table = *host;  // as a copy outside the capture would
        }
        float *src = reinterpret_cast<float *>(in->device), *dst = reinterpret_cast<float *>(out->device);
        const float *t = &device_table;
        launch_kernel([src, dst, t] { *dst = *src + *t; });
        out->set_device_dirty(true);
        (void)harena_planned_host_free(user_context, &table);
        harena_pipeline_exit_as_destructor(user_context, reinterpret_cast<void *>(harena_pipeline_base(user_context)));
        return 0;
    }
};

TablePipeline *current_table = nullptr;
int call_table(void *uc, halide_buffer_t *in, float k, halide_buffer_t *out) {
    return (*current_table)(uc, in, k, out);
}

struct PinnedInstalled {
    PinnedInstalled() {
        pinned = FakePinned{};
        harena::detail::set_pinned_host_backend(&kFakePinned);
    }
    ~PinnedInstalled() {
        harena::detail::set_pinned_host_backend(nullptr);
    }
    PinnedInstalled(const PinnedInstalled &) = delete;
    PinnedInstalled &operator=(const PinnedInstalled &) = delete;
};

// Declared before the cache it outlives (see FakeBackendInstalled).
class GraphCacheHostTable : public ::testing::Test {
protected:
    void SetUp() override {
        current_table = &table;
        harena_cuda_binding binding{};
        binding.stream = &stream_stand_in;
        ASSERT_EQ(harena_set_cuda_binding(arena.get(), &binding), HARENA_OK);
    }

    int run(float x, float k) {
        in.value = x;
        out.value = -1;
        out.buf.set_device_dirty(false);
        const int result = graphs->run(call_table, &in.buf, k, &out.buf);
        EXPECT_EQ(result, 0);
        EXPECT_EQ(out.value, x + 10 * k) << "x " << x << ", k " << k;
        return graphs->last_outcome();
    }

    FakeBackendInstalled backend;
    PinnedInstalled pinned_installed;
    int stream_stand_in = 0;
    harena::Arena arena = harena::Arena::host(1 << 16);
    std::unique_ptr<harena::GraphCache> graphs = std::make_unique<harena::GraphCache>(arena, 2);
    TablePipeline table;
    DeviceFloat in, out;
};

}  // namespace

// Two keys (k) alternating call by call: each graph replays the upload of
// its own key's table, from a block it owns, which no later call overwrites.
TEST_F(GraphCacheHostTable, EachGraphReplaysItsOwnKeysTableWithTwoKeysInterleaved) {
    const std::vector<int> expected = {HARENA_GRAPH_RAN, HARENA_GRAPH_RAN, HARENA_GRAPH_CAPTURED,
                                       HARENA_GRAPH_CAPTURED, HARENA_GRAPH_REPLAYED, HARENA_GRAPH_REPLAYED,
                                       HARENA_GRAPH_REPLAYED, HARENA_GRAPH_REPLAYED};
    for (size_t call = 0; call < expected.size(); call++) {
        const float k = call % 2 == 0 ? 2.0f : 3.0f;
        EXPECT_EQ(run(static_cast<float>(call), k), expected[call]) << "call " << call;
    }
    EXPECT_EQ(pinned.allocated, 2) << "one block per captured graph";
    EXPECT_EQ(pinned.freed, 0) << "the blocks live as long as their graphs";
    graphs.reset();
    EXPECT_EQ(pinned.freed, 2) << "and go with them";
}

TEST_F(GraphCacheHostTable, AnEvictedGraphFreesItsBlock) {
    run(1, 2);
    run(1, 2);  // captured: one block
    run(1, 3);
    run(1, 3);  // captured: two
    run(1, 4);  // a third key evicts the least recently used graph
    EXPECT_EQ(pinned.allocated, 2);
    EXPECT_EQ(pinned.freed, 1);
}

// A host stage whose result the graph does not copy (the upload ran once,
// outside it): a replay would read a stale table, so the graph is refused.
TEST_F(GraphCacheHostTable, ATableNotUploadedInsideTheGraphRefusesTheCapture) {
    table.upload = false;
    EXPECT_EQ(run(1, 2), HARENA_GRAPH_RAN);
    EXPECT_EQ(run(2, 2), HARENA_GRAPH_FELL_BACK);
    EXPECT_EQ(run(3, 2), HARENA_GRAPH_FELL_BACK);
    EXPECT_EQ(graphs->stats().fallbacks[HARENA_GRAPH_CAPTURE_FAILED], 2u);
    EXPECT_EQ(pinned.allocated, pinned.freed) << "the refused graph's block is freed with it";
}

// Without pinned memory the table would live in memory the call frees.
TEST_F(GraphCacheHostTable, WithoutPinnedMemoryTheCallIsNotCaptured) {
    harena::detail::set_pinned_host_backend(nullptr);  // the stand-in graphs have no CUDA behind them
    EXPECT_EQ(run(1, 2), HARENA_GRAPH_RAN);
    EXPECT_EQ(run(2, 2), HARENA_GRAPH_FELL_BACK);
    EXPECT_EQ(graphs->stats().fallbacks[HARENA_GRAPH_NOT_CAPTURABLE], 1u);
}
