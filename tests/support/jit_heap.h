#pragma once
// What the JIT tests share: an allocator that counts the halide_malloc calls
// of the pipelines given it, and the thread count of the thread pool every
// JIT-compiled pipeline shares.
#include "Halide.h"

#include <atomic>
#include <cstdint>
#include <cstdlib>

namespace harena_test {

// halide_malloc calls of the pipelines given count_heap_allocations, since
// the caller last set it to 0.
inline std::atomic<long> jit_heap_allocations{0};

// Halide's own alignment (128 bytes), the block to free kept just below.
inline void *counted_jit_malloc(Halide::JITUserContext *, size_t bytes) {
    jit_heap_allocations++;
    void *block = std::malloc(bytes + 128 + sizeof(void *));
    auto aligned = (reinterpret_cast<uintptr_t>(block) + sizeof(void *) + 127) & ~uintptr_t(127);
    reinterpret_cast<void **>(aligned)[-1] = block;
    return reinterpret_cast<void *>(aligned);
}
inline void counted_jit_free(Halide::JITUserContext *, void *p) {
    std::free(reinterpret_cast<void **>(p)[-1]);
}

inline void count_heap_allocations(Halide::Pipeline &pipeline) {
    pipeline.jit_handlers().custom_malloc = counted_jit_malloc;
    pipeline.jit_handlers().custom_free = counted_jit_free;
}

// Sets the thread count of the pool JIT-compiled pipelines share and returns
// the old count: a pipeline of its own that calls the runtime's
// halide_set_num_threads (Halide 14's libHalide has no C entry for it).
inline int set_jit_threads(int threads) {
    Halide::Func set("set_threads");
    set() = Halide::Internal::Call::make(Halide::Int(32), "halide_set_num_threads", {Halide::Expr(threads)},
                                         Halide::Internal::Call::Extern);
    Halide::Buffer<int> old = set.realize();
    return old();
}

// The pool's thread count for a scope, restored when it ends.
class ScopedJitThreads {
public:
    explicit ScopedJitThreads(int threads)
        : previous_(set_jit_threads(threads)) {
    }
    ~ScopedJitThreads() {
        set_jit_threads(previous_);
    }
    ScopedJitThreads(const ScopedJitThreads &) = delete;
    ScopedJitThreads &operator=(const ScopedJitThreads &) = delete;

private:
    int previous_;
};

}  // namespace harena_test
