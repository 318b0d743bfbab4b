// The runtime fuzz target's driver: decodes the input into calls on at most
// one live host arena at a time, makes each call on the runtime and on the
// model, and checks that they agree (runtime_fuzz.cpp holds the checks,
// runtime_calls.cpp the calls).
//
// Input: one byte per call, whose value modulo 16 picks it (run()), then the
// bytes of its arguments in the order the call reads them; a size is one
// byte of kind (small, two- or three-byte, exactly what is left, just over,
// near 2^64, near 1 TiB; request()) and its bytes. The input ends the calls.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "fuzz_support.h"
#include "harena/runtime.h"
#include "runtime_model.h"

namespace harena_fuzz {

class RuntimeCalls {
public:
    RuntimeCalls(const uint8_t *data, size_t size)
        : in_(data, size) {
    }

    // Runs the calls the input describes, at most kMaxCalls.
    void run();
    // Ends every scope, pops every frame and destroys the arena, each call
    // checked too, so that nothing outlives the input (scopes are per thread).
    void finish();

private:
    static constexpr int kScopes = 6;
    static constexpr int kMaxCalls = 512;
    // Growing arenas take requests up to this size, or beyond what any arena
    // can hold: one in between would grow the arena to match, and libFuzzer
    // reports allocations of gigabytes as out-of-memory.
    static constexpr uint64_t kGrowRequestLimit = uint64_t(1) << 20;

    struct ScopeModel {
        bool active = false;
        bool attached = false;
        uint64_t frame_id = 0;
    };

    // Calls.
    void create();
    // The ways to create: each makes the model's arena and returns true, or
    // checks that the runtime refused and returns false.
    bool create_owned(const harena_options &o, uint64_t size, harena_arena *&created);
    bool create_from_memory(const harena_options &o, uint64_t size, harena_arena *&created);
    // Arguments the runtime must refuse.
    void create_refused(harena_options o, uint64_t size);
    void destroy();
    void push();
    void pop_frame(uint64_t depth_below_top);
    void pop();
    void alloc();
    void alloc_buffer();
    void free();
    void invalid_free();
    void begin_scope(bool attach);
    void end_scope(int slot);
    void reset_stats();
    void shrink_to_fit();
    void query();
    void misuse();

    // Decoding.
    uint64_t request();
    harena_options options();

    // Checks (runtime_fuzz.cpp).
    void begin_call();
    void expect(const Expect &e, const char *what, int code);
    void check_state();
    void check_placement(uint64_t address, uint64_t offset) const;
    void write_tag(ModelAllocation &a, uint8_t tag);
    void check_tag(const ModelAllocation &a) const;
    // The arena for a call that must fail when none is live: the destroyed
    // one (not an arena) or NULL, with the code that failure returns.
    harena_arena *absent_arena(int *code);

    ByteReader in_;
    harena_arena *arena_ = nullptr;
    harena_arena *destroyed_ = nullptr;  // the last destroyed, while no arena is live
    uint64_t base_ = 0;
    ArenaModel model_;
    std::unique_ptr<uint8_t[]> user_memory_;  // under harena_create_from_memory
    std::array<harena_scope, kScopes> scopes_{};
    std::array<ScopeModel, kScopes> scope_model_{};
    std::vector<int> chain_;  // active scope slots, innermost last
    uint8_t next_tag_ = 1;
};

}  // namespace harena_fuzz
