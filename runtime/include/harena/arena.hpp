// C++ layer over the harena C ABI: an owning, movable Arena and an RAII Scope.
// Failures throw harena::Error carrying the C error code and message; the C
// ABI underneath never throws.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>

#include "harena/cuda.h"
#include "harena/runtime.h"

namespace harena {

class Error : public std::runtime_error {
public:
    Error(int code, const std::string &message)
        : std::runtime_error(message), code_(code) {
    }
    [[nodiscard]] int code() const noexcept {
        return code_;
    }

private:
    int code_;
};

namespace detail {

inline void check(int code) {
    if (code != HARENA_OK) {
        throw Error(code, harena_last_error());
    }
}

}  // namespace detail

enum class OverflowPolicy {
    error = HARENA_OVERFLOW_ERROR,
    fallback = HARENA_OVERFLOW_FALLBACK,
};

struct Options {
    // Every allocation and frame base is a multiple of this; a power of two.
    std::uint64_t alignment = HARENA_DEFAULT_ALIGNMENT;
    // What an allocation that does not fit does: fail, or (through the
    // override) go to Halide's default allocator.
    OverflowPolicy overflow = OverflowPolicy::error;
    // Record allocations and report the ones alive when their frame pops.
    bool debug = false;
    // Deepest frame stack the arena accepts.
    std::uint32_t max_frames = 64;
    // Grow instead of failing: before a frame opens with none pushed, replace
    // the region by one twice as large (or as needed) when the frame, or an
    // allocation an earlier frame could not fit, needs more (see
    // harena_options.grow). Not for arenas over the caller's memory.
    bool grow = false;
    // Guard mode: a band after every slice, checked when the slice is freed
    // or reused and when its frame pops (see harena_options.guard).
    bool guard = false;
    std::uint32_t guard_bytes = 256;

    [[nodiscard]] harena_options to_c() const {
        harena_options o;
        harena_options_init(&o);
        o.alignment = alignment;
        o.overflow_policy = static_cast<std::int32_t>(overflow);
        o.debug = debug ? 1 : 0;
        o.max_frames = max_frames;
        o.grow = grow ? 1 : 0;
        o.guard = guard ? 1 : 0;
        o.guard_bytes = guard_bytes;
        return o;
    }
};

using Stats = harena_stats;
using Frame = harena_frame;

// One preallocated region. Non-copyable: it owns the region (or, for wrap,
// the bookkeeping over the caller's region) and frees it on destruction.
class Arena {
public:
    // Host memory, allocated once.
    [[nodiscard]] static Arena host(std::uint64_t capacity, const Options &options = {}) {
        return create(nullptr, nullptr, capacity, options);
    }

    // Device memory allocated once through device_interface (e.g.
    // halide_cuda_device_interface()), on behalf of user_context.
    [[nodiscard]] static Arena device(const halide_device_interface_t *device_interface, std::uint64_t capacity,
                                      const Options &options = {}, void *user_context = nullptr) {
        return create(user_context, device_interface, capacity, options);
    }

    // Device memory in binding.context, the arena bound to that context and
    // its device: one arena per GPU (harena_create_cuda).
    [[nodiscard]] static Arena cuda(const halide_device_interface_t *device_interface,
                                    const harena_cuda_binding &binding, std::uint64_t capacity,
                                    const Options &options = {}) {
        const harena_options o = options.to_c();
        harena_arena *a = nullptr;
        detail::check(harena_create_cuda(device_interface, &binding, capacity, &o, &a));
        return Arena(a);
    }

    // Memory the caller owns and keeps alive longer than the arena
    // (device_interface nullptr: host memory). Never allocated or freed here.
    [[nodiscard]] static Arena wrap(const halide_device_interface_t *device_interface, std::uint64_t address,
                                    std::uint64_t size, const Options &options = {}) {
        const harena_options o = options.to_c();
        harena_arena *a = nullptr;
        detail::check(harena_create_from_memory(device_interface, address, size, &o, &a));
        return Arena(a);
    }

    Arena(const Arena &) = delete;
    Arena &operator=(const Arena &) = delete;
    Arena(Arena &&other) noexcept
        : arena_(std::exchange(other.arena_, nullptr)) {
    }
    Arena &operator=(Arena &&other) noexcept {
        if (this != &other) {
            release();
            arena_ = std::exchange(other.arena_, nullptr);
        }
        return *this;
    }
    ~Arena() {
        release();
    }

    // The C handle; also the user_context a planned pipeline takes.
    [[nodiscard]] harena_arena *get() const noexcept {
        return arena_;
    }

    [[nodiscard]] harena_info info() const {
        harena_info i;
        detail::check(harena_get_info(arena_, &i));
        return i;
    }
    [[nodiscard]] std::uint64_t capacity() const {
        return info().capacity;
    }
    [[nodiscard]] std::uint64_t base() const {
        return info().base;
    }
    [[nodiscard]] std::uint64_t alignment() const {
        return info().alignment;
    }
    [[nodiscard]] const halide_device_interface_t *device_interface() const {
        return info().device_interface;
    }

    [[nodiscard]] Stats stats() const {
        Stats s;
        detail::check(harena_get_stats(arena_, &s));
        return s;
    }
    // A device arena's host companion (harena/runtime.h): host memory for
    // its planned pipelines' host-only buffers.
    void reserve_host_companion(std::uint64_t bytes) {
        detail::check(harena_reserve_host_companion(arena_, bytes));
    }
    [[nodiscard]] Stats host_companion_stats() const {
        Stats s;
        detail::check(harena_get_host_companion_stats(arena_, &s));
        return s;
    }
    void reset_stats() {
        detail::check(harena_reset_stats(arena_));
    }
    // Gives back what the largest use since creation or the last reset_stats
    // did not need; only between runs (no frame pushed, no scope attached).
    void shrink_to_fit() {
        detail::check(harena_shrink_to_fit(arena_));
    }
    [[nodiscard]] std::string stats_string() const {
        const int length = harena_format_stats(arena_, nullptr, 0);
        detail::check(length < 0 ? length : HARENA_OK);
        std::string text(static_cast<std::size_t>(length) + 1, '\0');
        (void)harena_format_stats(arena_, text.data(), text.size());
        text.resize(static_cast<std::size_t>(length));
        return text;
    }

    // Address of `bytes` in the top frame (a host pointer as an integer for
    // host arenas).
    [[nodiscard]] std::uint64_t allocate(std::uint64_t bytes, const char *name = nullptr) {
        std::uint64_t address = 0;
        detail::check(harena_alloc(arena_, bytes, name, &address));
        return address;
    }
    void deallocate(std::uint64_t address, std::uint64_t bytes) {
        detail::check(harena_free(arena_, address, bytes));
    }

    [[nodiscard]] Frame push(std::uint64_t reserve_bytes = 0) {
        Frame f{};
        detail::check(harena_push(arena_, reserve_bytes, &f));
        return f;
    }
    void pop(const Frame &frame) {
        detail::check(harena_pop(arena_, frame));
    }

private:
    explicit Arena(harena_arena *arena) noexcept
        : arena_(arena) {
    }

    [[nodiscard]] static Arena create(void *user_context, const halide_device_interface_t *device_interface,
                                      std::uint64_t capacity, const Options &options) {
        const harena_options o = options.to_c();
        harena_arena *a = nullptr;
        detail::check(harena_create(user_context, device_interface, capacity, &o, &a));
        return Arena(a);
    }

    // A destroy refused because scopes are still open is reported by the C
    // layer; the region then stays allocated rather than dangling.
    void release() noexcept {
        if (arena_ != nullptr) {
            (void)harena_destroy(arena_);
            arena_ = nullptr;
        }
    }

    harena_arena *arena_ = nullptr;
};

// Makes `arena` the target of the halide_device_malloc override on this
// thread for the scope's lifetime. The default form pushes a frame that pops
// at the end; the attach form joins the frame a scope on another thread
// opened. Neither copyable nor movable: the thread's scope chain points at it.
class Scope {
public:
    struct Attach {};
    static constexpr Attach attach{};

    explicit Scope(Arena &arena) {
        detail::check(harena_scope_begin(&scope_, arena.get()));
    }
    Scope(Arena &arena, Attach) {
        detail::check(harena_scope_attach(&scope_, arena.get()));
    }
    // Ends the scope without a report: end() says what its end found.
    ~Scope() {
        if (!ended_) {
            (void)harena_scope_end(&scope_);
        }
    }

    // Ends the scope now, as the destructor would (pops its frame, or leaves
    // the frame it attached to), and throws Error with the code
    // harena_scope_end returns: in guard mode, HARENA_ERROR_GUARD_DAMAGED
    // naming the buffer whose band a kernel overwrote. The destructor then
    // does nothing; a second end() neither.
    void end() {
        if (!ended_) {
            ended_ = true;
            detail::check(harena_scope_end(&scope_));
        }
    }

    Scope(const Scope &) = delete;
    Scope &operator=(const Scope &) = delete;
    Scope(Scope &&) = delete;
    Scope &operator=(Scope &&) = delete;

    // The frame the scope pushed; id 0 when attached.
    [[nodiscard]] Frame frame() const noexcept {
        return scope_.frame;
    }

private:
    harena_scope scope_{};
    bool ended_ = false;
};

// The arena bytes a planned pipeline needs for particular arguments:
// `call(user_context)` must call the pipeline with that user_context; it runs
// the pipeline's argument checks and stops before any stage. Throws Error
// with the pipeline's own code when its arguments are refused.
//     uint64_t bytes = harena::measure([&](void *uc) { return chain(uc, in, k, out); });
template<typename Call>
[[nodiscard]] std::uint64_t measure(Call &&call) {
    harena_arena *arena = nullptr;
    detail::check(harena_create_measuring(&arena));
    // What the call reports through the arena is its own message; anything
    // older belongs to another call.
    harena_clear_last_error();
    const int code = call(static_cast<void *>(arena));
    std::uint64_t bytes = 0;
    const int read = harena_measured_bytes(arena, &bytes, nullptr);
    (void)harena_destroy(arena);
    if (code == HARENA_OK) {
        return 0;  // a pipeline that plans nothing runs without asking
    }
    if (code != HARENA_MEASURED) {
        const std::string reported = harena_last_error();
        throw Error(code, reported.empty() ? "harena::measure: the pipeline returned error " + std::to_string(code) +
                                                 " before its frame opened; Halide reported why through halide_error" :
                                             reported);
    }
    detail::check(read);
    return bytes;
}

}  // namespace harena
