// C++ layer over harena/cuda.h: an arena's stream and a cache of planned
// calls captured as CUDA graphs.
//
//   harena::Arena arena = harena::Arena::device(halide_cuda_device_interface(), CHAIN_ARENA_BYTES);
//   harena::use_own_stream(arena);
//   harena::GraphCache graphs(arena);
//   // Inputs on the device are the caller's job, on the arena's stream (the
//   // arena as user_context) so that the copy is ordered before the replay:
//   input.copy_to_device(halide_cuda_device_interface(), arena.get());
//   for (...) {
//       graphs.run(chain, input.raw_buffer(), k, output.raw_buffer());
//       graphs.wait();  // the replay's result, without entering the driver
//   }
//
// run() calls pipeline(arena.get(), args...): buffer arguments (anything
// convertible to halide_buffer_t *) and scalar arguments (arithmetic types)
// both go into the key, with the function itself.
#pragma once

#include <algorithm>
#include <cstring>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "harena/arena.hpp"
#include "harena/cuda.h"

namespace harena {

// Gives the arena a non-blocking stream of its own (see harena_create_cuda_stream).
inline void use_own_stream(Arena &arena) {
    detail::check(harena_create_cuda_stream(arena.get()));
}

// Launches planned pipelines called with this arena on `binding`'s stream and context.
inline void bind_cuda(Arena &arena, const harena_cuda_binding &binding) {
    detail::check(harena_install_cuda_hooks());
    detail::check(harena_set_cuda_binding(arena.get(), &binding));
}

inline void synchronize(Arena &arena) {
    detail::check(harena_cuda_synchronize(arena.get()));
}

class GraphCache {
public:
    using Stats = harena_graph_stats;

    explicit GraphCache(Arena &arena, std::uint32_t capacity = 8) {
        detail::check(harena_graph_cache_create(arena.get(), capacity, &cache_));
    }
    GraphCache(const GraphCache &) = delete;
    GraphCache &operator=(const GraphCache &) = delete;
    ~GraphCache() {
        if (cache_ != nullptr) {
            (void)harena_graph_cache_destroy(cache_);
        }
    }

    // The pipeline's result; last_outcome() says how the call ran.
    template<typename... Params, typename... Args>
    int run(int (*pipeline)(Params...), Args &&...args) {
        static_assert(sizeof...(Params) == sizeof...(Args) + 1, "pass every argument but the arena");
        std::vector<char> key;
        std::vector<halide_buffer_t *> buffers;
        append(key, pipeline);
        (describe(key, buffers, args), ...);
        using Call = std::tuple<int (*)(Params...), Args &...>;
        Call call(pipeline, args...);
        auto trampoline = [](void *user_context, void *closure) {
            Call &c = *static_cast<Call *>(closure);
            return std::apply([&](auto fn, auto &...a) { return fn(user_context, a...); }, c);
        };
        return harena_graph_run(cache_, key.data(), key.size(), buffers.data(), static_cast<int>(buffers.size()),
                                trampoline, &call, &outcome_);
    }

    // Waits for the last run() (harena_graph_wait).
    void wait() {
        detail::check(harena_graph_wait(cache_));
    }

    // The C handle, for harena_graph_* calls.
    [[nodiscard]] harena_graph_cache *get() const noexcept {
        return cache_;
    }

    // enum harena_graph_outcome of the last run().
    [[nodiscard]] int last_outcome() const noexcept {
        return outcome_;
    }

    [[nodiscard]] Stats stats() const {
        Stats s;
        detail::check(harena_graph_get_stats(cache_, &s));
        return s;
    }

    // The cause of the latest fallback for `reason` (enum
    // harena_graph_fallback), empty while none fell back for it.
    [[nodiscard]] std::string fallback_cause(int reason) const {
        const int length = harena_graph_fallback_cause(cache_, reason, nullptr, 0);
        detail::check(std::min(length, 0));
        std::string cause(static_cast<size_t>(length) + 1, '\0');
        (void)harena_graph_fallback_cause(cache_, reason, cause.data(), cause.size());
        cause.resize(static_cast<size_t>(length));
        return cause;
    }

private:
    template<typename T>
    static void append(std::vector<char> &key, const T &value) {
        const char *p = reinterpret_cast<const char *>(&value);
        key.insert(key.end(), p, p + sizeof value);
    }

    template<typename A>
    static void describe(std::vector<char> &key, std::vector<halide_buffer_t *> &buffers, A &arg) {
        if constexpr (std::is_convertible_v<A &, halide_buffer_t *>) {
            buffers.push_back(static_cast<halide_buffer_t *>(arg));
        } else {
            static_assert(std::is_arithmetic_v<std::decay_t<A>>,
                          "a pipeline argument is a buffer (convertible to halide_buffer_t *) or a scalar");
            append(key, arg);
        }
    }

    harena_graph_cache *cache_ = nullptr;
    int outcome_ = HARENA_GRAPH_RAN;
};

}  // namespace harena
