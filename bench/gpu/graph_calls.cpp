#include "graph_calls.h"

#include <array>
#include <cstdio>
#include <cstdlib>

namespace bench {
namespace {

void check(int result, const char *what) {
    if (result != 0) {
        std::fprintf(stderr, "harena-gpu-bench: %s failed (%d): %s\n", what, result, harena_last_error());
        std::exit(1);
    }
}

// Enough for every planned build here (at most five arguments); a copy on
// the stack, because a replayed call must cost no host allocation of ours.
constexpr size_t kMaxArguments = 16;

struct Call {
    Entry planned;
    const std::vector<void *> *args;
};

// The cache passes the arena it was made for as user_context; the planned
// build takes it through its first argument, so the call uses that rather
// than whatever the step's first argument points at.
int call_planned(void *user_context, void *closure) {
    const Call &call = *static_cast<const Call *>(closure);
    std::array<void *, kMaxArguments> argv{};
    for (size_t i = 1; i < call.args->size(); i++) {
        argv[i] = (*call.args)[i];
    }
    argv[0] = &user_context;
    return call.planned(argv.data());
}

}  // namespace

GraphCalls::GraphCalls(harena_arena *arena, uint32_t capacity) {
    check(harena_create_cuda_stream(arena), "harena_create_cuda_stream");
    check(harena_graph_cache_create(arena, capacity, &cache_), "harena_graph_cache_create");
}

GraphCalls::~GraphCalls() {
    (void)harena_graph_cache_destroy(cache_);
}

int run_through_graphs(harena_graph_cache *cache, const App &app, const Step &step) {
    if (step.planned_args.size() > kMaxArguments) {
        std::fprintf(stderr, "harena-gpu-bench: the planned %s takes %zu arguments; graph calls pass at most %zu\n",
                     app.name.c_str(), step.planned_args.size(), kMaxArguments);
        std::exit(1);
    }
    Call call{app.planned, &step.planned_args};
    return harena_graph_run(cache, step.graph_key.data(), step.graph_key.size(), step.graph_buffers.data(),
                            static_cast<int>(step.graph_buffers.size()), call_planned, &call, nullptr);
}

int GraphCalls::run(const App &app, const Step &step) {
    return run_through_graphs(cache_, app, step);
}

harena_graph_stats GraphCalls::stats() const {
    harena_graph_stats s{};
    check(harena_graph_get_stats(cache_, &s), "harena_graph_get_stats");
    return s;
}

}  // namespace bench
