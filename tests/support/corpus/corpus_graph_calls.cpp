#include "corpus_graph_calls.h"

#include <array>
#include <cstring>

namespace harena_corpus {

namespace {

// The argument buffers of a call, on the stack: a replayed call costs no
// host allocation of ours (the benchmark times it). False when there are
// more than it holds.
struct Arguments {
    std::array<halide_buffer_t *, 16> buffers{};
    int count = 0;

    bool gather(Workload &w) {
        for (auto *list : {&w.inputs, &w.outputs}) {
            for (Buffer<> &b : *list) {
                if (count == static_cast<int>(buffers.size())) {
                    return false;  // no corpus pipeline has this many buffers
                }
                buffers[static_cast<size_t>(count++)] = b.raw_buffer();
            }
        }
        return true;
    }
};

struct Closure {
    const Pipeline &pipeline;
    Workload &w;
};

// The key's bytes written one by one: a struct would carry padding of
// indeterminate value, and equal calls could get different keys.
template<typename Function>
int run_through_graphs(harena_graph_cache *cache, Function function, Workload &w, harena_graph_call call,
                       Closure &closure, int *outcome) {
    char key[sizeof function + sizeof w.call];
    std::memcpy(key, &function, sizeof function);
    std::memcpy(key + sizeof function, &w.call, sizeof w.call);
    Arguments arguments;
    if (!arguments.gather(w)) {
        return HARENA_ERROR_INVALID_ARGUMENT;
    }
    return harena_graph_run(cache, key, sizeof key, arguments.buffers.data(), arguments.count, call, &closure,
                            outcome);
}

}  // namespace

int run_planned_through_graphs(harena_graph_cache *cache, const Pipeline &pipeline, Workload &w, int *outcome) {
    Closure closure{pipeline, w};
    auto call = [](void *arena, void *c) {
        auto &cl = *static_cast<Closure *>(c);
        return cl.pipeline.planned(arena, cl.w);
    };
    return run_through_graphs(cache, pipeline.planned, w, call, closure, outcome);
}

int run_plain_through_graphs(harena_graph_cache *cache, const Pipeline &pipeline, Workload &w, int *outcome) {
    Closure closure{pipeline, w};
    auto call = [](void *, void *c) {
        auto &cl = *static_cast<Closure *>(c);
        return cl.pipeline.plain(cl.w);
    };
    return run_through_graphs(cache, pipeline.plain, w, call, closure, outcome);
}

}  // namespace harena_corpus
