// Guard mode (harena_options.guard): a band of a known pattern after every
// slice, checked before anything can legitimately write its bytes again.
// The band's size is part of the arena's layout (ArenaCore::band_bytes);
// the bands not yet checked and the counts are owned by guard/guard.cpp.
#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

namespace harena::detail {

struct ArenaCore;

// The band after a slice, offsets from the arena's base. The slice is
// [slice, begin), the band [begin, end); a band before a frame's first slice
// has slice == begin and `before` set.
struct GuardBand {
    uint64_t slice;
    uint64_t begin;
    uint64_t end;
    bool before;
    std::string buffer;    // for messages: "buffer 'f'", "halide_buffer_t 0x... (float32, 64x64)"
    std::string pipeline;  // "pipeline 'p'", or empty when not known
};

// Who a band operation runs for: user_context for messages (the caller's,
// or nullptr), copy_context for the band's device copies, so that they go
// on the stream the kernels used (guard_call in checking/state.h).
struct GuardCall {
    void *user_context;
    void *copy_context;
};

struct GuardCounts {
    uint64_t checks = 0;
    uint64_t damaged = 0;
};

class GuardBands {
public:
    // Checks the bands of earlier slices that `band`'s bytes overlap (dead
    // buffers), fills `band` and records it.
    int slice(const ArenaCore &arena, GuardCall call, GuardBand band);
    // Checks and forgets the band of the slice at offset `slice`; where that
    // band starts a frame, also the bands of every slice above it.
    int release(const ArenaCore &arena, GuardCall call, uint64_t slice);
    // Checks and forgets the bands of a frame popping at frame_offset.
    int pop(const ArenaCore &arena, GuardCall call, uint64_t frame_offset);

    [[nodiscard]] GuardCounts counts() const;
    void reset_counts();

private:
    int check(const ArenaCore &arena, GuardCall call, const GuardBand &band);
    template<typename Pick>
    int check_and_forget(const ArenaCore &arena, GuardCall call, Pick &&pick);

    std::mutex mutex_;
    std::vector<GuardBand> bands_;
    // Atomic so that the statistics read them without the lock, which a
    // band check holds while it reports.
    std::atomic<uint64_t> checks_{0};
    std::atomic<uint64_t> damaged_{0};
};

// A planned pipeline's slice (harena_pipeline_slice, guard/abi.cpp):
// `bytes` at `address` in the arena that is user_context, its band the
// `band_bytes` after it, named after the buffer and pipeline in reports;
// `opens_slot`: no slice, the band that opens a parallel loop's slot at
// `address`, named by `buffer` ("the first slice of a slot of loop 'l'").
// HARENA_OK where guard mode is off.
int guard_slice(void *user_context, const char *pipeline, const char *buffer, uint64_t address, uint64_t bytes,
                uint64_t band_bytes, bool opens_slot = false);
// The slice at `address` is freed: its band is checked and forgotten.
int guard_check(void *user_context, uint64_t address);

}  // namespace harena::detail
