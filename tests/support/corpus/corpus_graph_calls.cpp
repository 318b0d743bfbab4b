#include "corpus_graph_calls.h"

#include <array>
#include <cstring>

namespace harena_corpus {

int run_planned_through_graphs(harena_graph_cache *cache, const Pipeline &pipeline, Workload &w, int *outcome) {
    // The key's bytes written one by one: a struct would carry padding of
    // indeterminate value, and equal calls could get different keys.
    char key[sizeof pipeline.planned + sizeof w.call];
    std::memcpy(key, &pipeline.planned, sizeof pipeline.planned);
    std::memcpy(key + sizeof pipeline.planned, &w.call, sizeof w.call);
    // On the stack: a replayed call costs no host allocation of ours (the
    // benchmark times it).
    std::array<halide_buffer_t *, 16> buffers{};
    size_t count = 0;
    for (auto *list : {&w.inputs, &w.outputs}) {
        for (Buffer<> &b : *list) {
            if (count == buffers.size()) {
                return HARENA_ERROR_INVALID_ARGUMENT;  // no corpus pipeline has this many buffers
            }
            buffers[count++] = b.raw_buffer();
        }
    }
    struct Closure {
        const Pipeline &pipeline;
        Workload &w;
    } closure{pipeline, w};
    auto call = [](void *arena, void *c) {
        auto &cl = *static_cast<Closure *>(c);
        return cl.pipeline.planned(arena, cl.w);
    };
    return harena_graph_run(cache, key, sizeof key, buffers.data(), static_cast<int>(count), call, &closure, outcome);
}

}  // namespace harena_corpus
