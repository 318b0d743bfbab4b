#include "corpus_graph_calls.h"

#include <vector>

namespace harena_corpus {

int run_planned_through_graphs(harena_graph_cache *cache, const Pipeline &pipeline, Workload &w, int *outcome) {
    struct Key {
        int (*planned)(void *, Workload &);
        int call;
    } key{pipeline.planned, w.call};
    std::vector<halide_buffer_t *> buffers;
    for (auto *list : {&w.inputs, &w.outputs}) {
        for (Buffer<> &b : *list) {
            buffers.push_back(b.raw_buffer());
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
    return harena_graph_run(cache, &key, sizeof key, buffers.data(), static_cast<int>(buffers.size()), call,
                            &closure, outcome);
}

}  // namespace harena_corpus
