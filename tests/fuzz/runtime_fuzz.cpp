// Fuzz target: sequences of calls to the runtime's C ABI (harena/runtime.h)
// on host arenas, decoded from the input and checked call by call against a
// model (runtime_model.h): each return code, each message reported, the
// statistics and properties after every call, and every allocation's
// address (aligned, inside the arena, clear of every live allocation and
// reservation, where the model puts it). Live allocations carry a tag at
// their first and last byte that must survive until they are freed.
//
// Only uses the contract allows: frees give back what an allocation
// returned, a scope's frame ends with its scope, and a destroyed arena is
// passed only to the calls that look it up in the registry.
#include <cstdio>
#include <cstdlib>

#include "fuzz_support.h"
#include "harena/runtime.h"
#include "runtime_calls.h"

namespace {

int reported_errors = 0;
int reported_notices = 0;

}  // namespace

// The runtime reports through a weak halide_error / halide_print; without a
// Halide runtime in this binary these definitions receive every report,
// keep the fuzzer quiet and let each call's reports be counted.
extern "C" void halide_error(void *, const char *message) {
    FUZZ_CHECK(message != nullptr && message[0] != '\0', "an error was reported without a message");
    reported_errors++;
}

extern "C" void halide_print(void *, const char *message) {
    FUZZ_CHECK(message != nullptr && message[0] != '\0', "a notice was printed without a message");
    reported_notices++;
}

namespace harena_fuzz {

// HARENA_FUZZ_TRACE=1 prints each call and its code, to read an input.
const bool trace = std::getenv("HARENA_FUZZ_TRACE") != nullptr;

void RuntimeCalls::expect(const Expect &e, const char *what, int code) {
    if (trace) {
        std::fprintf(stderr, "%-50s -> %d (%d error(s), %d notice(s))\n", what, code, reported_errors,
                     reported_notices);
    }
    FUZZ_CHECK(code == e.code, "%s returned %d where the model expects %d; last error: %s", what, code, e.code,
               harena_last_error());
    FUZZ_CHECK(reported_errors == e.errors, "%s reported %d error(s) where the model expects %d; last: %s", what,
               reported_errors, e.errors, harena_last_error());
    FUZZ_CHECK(reported_notices == e.notices, "%s printed %d notice(s) where the model expects %d", what,
               reported_notices, e.notices);
    reported_errors = reported_notices = 0;
}

void RuntimeCalls::begin_call() {
    reported_errors = reported_notices = 0;
}

void RuntimeCalls::check_state() {
    if (arena_ == nullptr) {
        return;
    }
    begin_call();
    harena_stats s{};
    expect({}, "harena_get_stats", harena_get_stats(arena_, &s));
    const ArenaModel &m = model_;
    FUZZ_CHECK(s.capacity == m.capacity && s.bytes_in_use == m.top && s.high_water == m.high_water,
               "capacity/in use/high water %llu/%llu/%llu, the model has %llu/%llu/%llu",
               (unsigned long long)s.capacity, (unsigned long long)s.bytes_in_use, (unsigned long long)s.high_water,
               (unsigned long long)m.capacity, (unsigned long long)m.top, (unsigned long long)m.high_water);
    FUZZ_CHECK(s.allocations == m.allocations && s.reclaimed == m.reclaimed && s.frames_pushed == m.frames_pushed,
               "allocations/reclaimed/pushes %llu/%llu/%llu, the model has %llu/%llu/%llu",
               (unsigned long long)s.allocations, (unsigned long long)s.reclaimed,
               (unsigned long long)s.frames_pushed, (unsigned long long)m.allocations,
               (unsigned long long)m.reclaimed, (unsigned long long)m.frames_pushed);
    FUZZ_CHECK(s.overflows == m.overflows && s.fallbacks == m.fallbacks && s.grows == m.grows,
               "overflows/fallbacks/grows %llu/%llu/%llu, the model has %llu/%llu/%llu",
               (unsigned long long)s.overflows, (unsigned long long)s.fallbacks, (unsigned long long)s.grows,
               (unsigned long long)m.overflows, (unsigned long long)m.fallbacks, (unsigned long long)m.grows);
    FUZZ_CHECK(s.frame_depth == m.frames.size() && s.max_frame_depth == m.max_depth,
               "depth %u (at most %u), the model has %zu (%u)", s.frame_depth, s.max_frame_depth, m.frames.size(),
               m.max_depth);
    FUZZ_CHECK(s.evictions == 0 && s.evicted_bytes == 0, "a host arena evicted buffers");

    harena_info info{};
    expect({}, "harena_get_info", harena_get_info(arena_, &info));
    FUZZ_CHECK(info.device_interface == nullptr && info.capacity == m.capacity && info.alignment == m.alignment &&
                   info.overflow_policy == (m.fallback ? HARENA_OVERFLOW_FALLBACK : HARENA_OVERFLOW_ERROR) &&
                   info.debug == (m.debug ? 1 : 0) && info.owns_memory == (m.owns ? 1 : 0),
               "harena_get_info disagrees with the options the arena was created with");
    // The region moves only when the model says it was replaced.
    if (model_.moved) {
        base_ = info.base;
        model_.moved = false;
    }
    FUZZ_CHECK(info.base == base_, "the base moved from 0x%llx to 0x%llx without a growth or shrink",
               (unsigned long long)base_, (unsigned long long)info.base);
    FUZZ_CHECK(base_ % m.alignment == 0, "base 0x%llx is not aligned", (unsigned long long)base_);
    for (const ModelAllocation &a : m.live) {
        check_tag(a);
    }
}

void RuntimeCalls::write_tag(ModelAllocation &a, uint8_t tag) {
    a.tag = tag;
    if (a.bytes > 0) {
        auto *first = reinterpret_cast<uint8_t *>(base_ + a.offset);
        first[0] = tag;
        first[a.bytes - 1] = tag;
    }
}

void RuntimeCalls::check_tag(const ModelAllocation &a) const {
    if (a.bytes > 0) {
        const auto *first = reinterpret_cast<const uint8_t *>(base_ + a.offset);
        FUZZ_CHECK(first[0] == a.tag && first[a.bytes - 1] == a.tag,
                   "the allocation at offset %llu (%llu bytes) was overwritten", (unsigned long long)a.offset,
                   (unsigned long long)a.bytes);
    }
}

// A new allocation must be where the model puts it, aligned, inside the
// arena and clear of every live allocation and every frame's reservation.
void RuntimeCalls::check_placement(uint64_t address, uint64_t offset) const {
    const ArenaModel &m = model_;
    const ModelAllocation &mine = m.live.back();
    FUZZ_CHECK(address == base_ + offset, "allocated at 0x%llx, the model expects 0x%llx",
               (unsigned long long)address, (unsigned long long)(base_ + offset));
    FUZZ_CHECK(address % m.alignment == 0 && offset + mine.size <= m.capacity,
               "allocation at offset %llu of %llu bytes is misaligned or outside the arena",
               (unsigned long long)offset, (unsigned long long)mine.size);
    for (size_t i = 0; i + 1 < m.live.size(); i++) {
        const ModelAllocation &o = m.live[i];
        FUZZ_CHECK(offset >= o.offset + o.size || o.offset >= offset + mine.size,
                   "allocation at offset %llu overlaps the live one at %llu", (unsigned long long)offset,
                   (unsigned long long)o.offset);
    }
    for (const ModelFrame &f : m.frames) {
        FUZZ_CHECK(offset >= f.offset + f.reserved || f.offset >= offset + mine.size,
                   "allocation at offset %llu overlaps frame #%llu's reservation", (unsigned long long)offset,
                   (unsigned long long)f.id);
    }
}

void RuntimeCalls::finish() {
    // Scopes end innermost first; frames pushed above a scope's frame pop
    // before it, as a correct program would do.
    while (!chain_.empty() || !model_.frames.empty()) {
        const int slot = chain_.empty() ? -1 : chain_.back();
        const bool scope_next =
            slot >= 0 && (scope_model_[slot].attached ||
                          (!model_.frames.empty() && model_.frames.back().id == scope_model_[slot].frame_id));
        if (scope_next) {
            end_scope(slot);
        } else {
            pop_frame(0);
        }
        check_state();
    }
    if (arena_ != nullptr) {
        destroy();
    }
    FUZZ_CHECK(harena_active_arena(nullptr) == nullptr, "a scope is still active after every scope ended");
}

}  // namespace harena_fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    harena_fuzz::RuntimeCalls calls(data, size);
    calls.run();
    calls.finish();
    return 0;
}
