// The runtime fuzz target's calls on scopes, statistics and queries, and
// calls with arguments the runtime must refuse (see runtime_calls.h).
#include <cstring>

#include "runtime_calls.h"

namespace harena_fuzz {

void RuntimeCalls::begin_scope(bool attach) {
    begin_call();
    // Storage of an active scope is in use by the thread's chain of scopes.
    int slot = static_cast<int>(in_.below(kScopes));
    for (int tries = 0; tries < kScopes && scope_model_[slot].active; tries++) {
        slot = (slot + 1) % kScopes;
    }
    if (scope_model_[slot].active) {
        return;
    }
    harena_scope *scope = &scopes_[slot];
    const char *what = attach ? "harena_scope_attach" : "harena_scope_begin";
    const auto call = [&](harena_arena *a) {
        return attach ? harena_scope_attach(scope, a) : harena_scope_begin(scope, a);
    };
    if (arena_ == nullptr) {
        int code;
        harena_arena *a = absent_arena(&code);
        expect({code, 1, 0}, what, call(a));
        FUZZ_CHECK(scope->arena == nullptr, "%s failed but left the scope naming an arena", what);
        return;
    }
    const Expect e = attach ? Expect{} : model_.push(0, slot);
    expect(e, what, call(arena_));
    if (e.code != HARENA_OK) {
        FUZZ_CHECK(scope->arena == nullptr, "%s failed but left the scope naming an arena", what);
        return;
    }
    ScopeModel &s = scope_model_[slot];
    s.active = true;
    s.attached = attach;
    s.frame_id = attach ? 0 : model_.frames.back().id;
    model_.attached += attach ? 1 : 0;
    chain_.push_back(slot);
    FUZZ_CHECK(scope->frame.id == s.frame_id, "%s recorded frame #%llu, the model expects #%llu", what,
               (unsigned long long)scope->frame.id, (unsigned long long)s.frame_id);
    FUZZ_CHECK(harena_active_arena(nullptr) == arena_, "%s did not make the arena active", what);
}

void RuntimeCalls::end_scope(int slot) {
    begin_call();
    ScopeModel &s = scope_model_[slot];
    harena_scope *scope = &scopes_[slot];
    Expect e;
    if (!s.active) {
        e = {HARENA_ERROR_INVALID_ARGUMENT, 1, 0};
    } else if (chain_.back() != slot) {
        e = {HARENA_ERROR_SCOPE_NOT_INNERMOST, 1, 0};
    } else if (!s.attached && model_.frames.back().id != s.frame_id) {
        // A frame pushed inside the scope is still there: the scope cannot
        // pop its own frame, and stays as it was so that the caller can pop
        // that frame and end the scope again.
        e = {HARENA_ERROR_FRAME_NOT_TOP, 1, 0};
    } else {
        e = s.attached ? Expect{} : model_.pop(s.frame_id);
        model_.attached -= s.attached ? 1 : 0;
        chain_.pop_back();
        s = ScopeModel{};
    }
    expect(e, "harena_scope_end", harena_scope_end(scope));
    const bool active = s.active;
    FUZZ_CHECK((scope->arena != nullptr) == active, "harena_scope_end left the scope %s where the model has it %s",
               scope->arena ? "active" : "ended", active ? "active" : "ended");
    harena_arena *innermost = chain_.empty() ? nullptr : arena_;
    FUZZ_CHECK(harena_active_arena(nullptr) == innermost, "the active arena is not the innermost scope's");
}

void RuntimeCalls::reset_stats() {
    begin_call();
    if (arena_ == nullptr) {
        int code;
        harena_arena *a = absent_arena(&code);
        expect({code, 1, 0}, "harena_reset_stats on no arena", harena_reset_stats(a));
        return;
    }
    model_.reset_stats();
    expect({}, "harena_reset_stats", harena_reset_stats(arena_));
}

void RuntimeCalls::shrink_to_fit() {
    begin_call();
    if (arena_ == nullptr) {
        int code;
        harena_arena *a = absent_arena(&code);
        expect({code, 1, 0}, "harena_shrink_to_fit on no arena", harena_shrink_to_fit(a));
        return;
    }
    const Expect e = model_.shrink_to_fit();
    expect(e, "harena_shrink_to_fit", harena_shrink_to_fit(arena_));
}

void RuntimeCalls::query() {
    begin_call();
    const uint8_t which = in_.byte() % 3;
    if (which == 0) {
        // Truncated like snprintf, always terminated, never past `size`.
        char text[512];
        std::memset(text, '#', sizeof(text));
        const size_t size = in_.below(300);
        int code = HARENA_OK;
        harena_arena *a = arena_ ? arena_ : absent_arena(&code);
        const int n = harena_format_stats(a, text, size);
        if (arena_ == nullptr) {
            expect({code, 1, 0}, "harena_format_stats on no arena", n);
            return;
        }
        expect({}, "harena_format_stats", n > 0 ? 0 : n);
        if (size > 0) {
            const size_t written = std::strlen(text);
            FUZZ_CHECK(written == (static_cast<size_t>(n) < size ? static_cast<size_t>(n) : size - 1),
                       "harena_format_stats wrote %zu characters of %d into %zu bytes", written, n, size);
        }
        FUZZ_CHECK(text[size] == '#', "harena_format_stats wrote past the %zu bytes it was given", size);
    } else if (which == 1) {
        harena_arena *innermost = chain_.empty() ? nullptr : arena_;
        FUZZ_CHECK(harena_active_arena(nullptr) == innermost, "the active arena is not the innermost scope's");
    } else {
        // The arena holding an address, by its region [base, base + capacity).
        const uint64_t span = arena_ ? model_.capacity : 0;
        const uint64_t address = base_ - 64 + in_.below(span + 128);
        const bool inside = arena_ != nullptr && address >= base_ && address - base_ < span;
        FUZZ_CHECK(harena_find(nullptr, address) == (inside ? arena_ : nullptr),
                   "harena_find(0x%llx) disagrees with the arena's region", (unsigned long long)address);
    }
}

// Calls on a live arena with an output or input the runtime must refuse.
void RuntimeCalls::misuse() {
    begin_call();
    if (arena_ == nullptr) {
        return;
    }
    const Expect invalid{HARENA_ERROR_INVALID_ARGUMENT, 1, 0};
    switch (in_.byte() % 6) {
    case 0:
        expect(invalid, "harena_get_stats(NULL)", harena_get_stats(arena_, nullptr));
        break;
    case 1:
        expect(invalid, "harena_get_info(NULL)", harena_get_info(arena_, nullptr));
        break;
    case 2:
        expect(invalid, "harena_alloc to NULL", harena_alloc(arena_, 1, nullptr, nullptr));
        break;
    case 3: {
        uint64_t address = 0;
        expect(invalid, "harena_alloc_buffer(NULL)", harena_alloc_buffer(arena_, nullptr, &address));
        break;
    }
    case 4:
        expect(invalid, "harena_scope_begin(NULL)", harena_scope_begin(nullptr, arena_));
        break;
    default:
        expect(invalid, "harena_scope_end(NULL)", harena_scope_end(nullptr));
        break;
    }
}

}  // namespace harena_fuzz
