#pragma once
// A graph cache's statistics in one line, as both GPU benchmarks print them.
#include "harena/cuda.h"

#include <cstdio>
#include <string>

namespace bench {

inline std::string graph_cache_counts(const harena_graph_stats &s) {
    char text[256];
    std::snprintf(text, sizeof(text),
                  "calls %llu: captures %llu, replays %llu, misses %llu, ordinary %llu, evictions %llu, "
                  "invalidated %llu, captured edges removed %llu; fallbacks:",
                  (unsigned long long)s.calls, (unsigned long long)s.captures, (unsigned long long)s.replays,
                  (unsigned long long)s.misses, (unsigned long long)s.ordinary, (unsigned long long)s.evictions,
                  (unsigned long long)s.invalidated, (unsigned long long)s.unordered_edges);
    std::string line = text;
    bool any = false;
    for (int reason = 0; reason < HARENA_GRAPH_FALLBACK_REASONS; reason++) {
        if (s.fallbacks[reason] != 0) {
            std::snprintf(text, sizeof(text), "%s %s %llu", any ? "," : "", harena_graph_fallback_name(reason),
                          (unsigned long long)s.fallbacks[reason]);
            line += text;
            any = true;
        }
    }
    return line + (any ? "" : " none");
}

}  // namespace bench
