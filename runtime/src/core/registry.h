// Live arenas, for checks that must not dereference a stale or foreign
// pointer and for finding the arena of an address from any thread.
#pragma once

#include <atomic>
#include <cstdint>

#include "harena/runtime.h"

namespace harena::detail {

struct ArenaCore;

// The registry holds each arena's core, the base of harena_arena (core/arena.h
// turns a found core back into its arena).
void register_arena(ArenaCore *arena);
void unregister_arena(ArenaCore *arena);
bool is_registered(const void *pointer);
ArenaCore *find_registered_core(const halide_device_interface_t *device_interface, uint64_t address);

// Every entry point that takes an arena checks it against the registry
// before reading it. Each thread remembers the last pointer it found
// registered and how many arenas had left the registry then; while none has
// left since, the pointer is still live and the check takes no lock. That
// fast path is inline so that allocation and free stay short. The runtime
// is position-independent (it links into shared libraries too), where a
// thread-local variable is read through __tls_get_addr unless it has the
// initial-exec model: a call that made every entry point save registers.
// Its 16 bytes come from the static TLS block glibc keeps for libraries
// loaded later.
#define HARENA_FAST_TLS __thread __attribute__((tls_model("initial-exec")))
extern HARENA_FAST_TLS const void *registry_last_live;
extern HARENA_FAST_TLS uint64_t registry_departures_seen;
extern std::atomic<uint64_t> registry_departures;
int check_registered(const void *pointer, const char *function, void *user_context);
// The fast path alone: true when the pointer is certainly live; false says
// only that the registry must be asked.
inline bool known_live(const void *pointer) {
    return pointer != nullptr && pointer == registry_last_live &&
           registry_departures.load(std::memory_order_acquire) == registry_departures_seen;
}
inline int check_live(const void *pointer, const char *function, void *user_context) {
    return known_live(pointer) ? HARENA_OK : check_registered(pointer, function, user_context);
}

// Sets where the region lies, under the registry's lock, so that lookups by
// address from other threads see the old region or the new one; renews the
// arena's generation.
void relocate(ArenaCore &arena, uint64_t base, uint64_t capacity);

// A generation no arena has had yet.
uint64_t next_generation();

}  // namespace harena::detail
