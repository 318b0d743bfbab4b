#include "pipelines.h"

#include "cuda_corpus.h"

#include <cstdlib>
#include <cstring>
#include <string>

namespace corpus_bench {
namespace {

// The number after `"key": ` in the plan JSON, or 0.
uint64_t json_number(const char *json, const char *key) {
    const std::string quoted = std::string("\"") + key + "\": ";
    const char *at = std::strstr(json, quoted.c_str());
    return at != nullptr ? std::strtoull(at + quoted.size(), nullptr, 10) : 0;
}

// The header names the plan's bytes ARENA_BYTES or ARENA_BYTES_AT_ESTIMATES
// depending on whether the pipeline is bounded, so that code expecting a
// worst case does not compile against an unbounded one; the JSON has both
// forms under one key each, which one table entry can read.
PlanReport report(const char *json, uint64_t lower_bound, int planned_buffers) {
    PlanReport r;
    r.bounded = std::strstr(json, "\"bounded\": true") != nullptr;
    r.bytes = json_number(json, r.bounded ? "arena_bytes" : "arena_bytes_at_estimates");
    r.lower_bound = lower_bound;
    r.planned_buffers = planned_buffers;
    // One buffer per line; names and reasons are JSON strings, whose quotes
    // are escaped, so these key patterns only match the keys themselves.
    for (const char *line = std::strstr(json, "{\"name\": "); line != nullptr;
         line = std::strstr(line + 1, "{\"name\": ")) {
        const char *end = std::strchr(line, '\n');
        const std::string entry = end != nullptr ? std::string(line, end) : std::string(line);
        if (entry.find("\"kind\": \"device") != std::string::npos) {
            r.device_intermediates++;
            r.planned_device += entry.find("\"planned\": true") != std::string::npos;
        }
    }
    return r;
}

}  // namespace

const std::vector<CorpusPipeline> &corpus() {
    static const std::vector<CorpusPipeline> pipelines = [] {
        std::vector<CorpusPipeline> p;
        for (const harena_corpus::CudaCorpusEntry &e : harena_corpus::cuda_corpus()) {
            p.push_back({e.pipeline, report(e.plan_json, e.lower_bound, e.planned_buffers)});
        }
        return p;
    }();
    return pipelines;
}

}  // namespace corpus_bench
