// Statistics: read from the arena's counters (allocations and reclaims are
// counts carried in the state word, see core/arena_core.h); bytes in use is the top offset.
#include <algorithm>
#include <cstdio>
#include <mutex>

#include "core/arena.h"
#include "core/errors.h"

using namespace harena::detail;

namespace {

// How many times the region grew (0 without the growth feature).
uint64_t grows_of(const harena_arena &arena) {
    return arena.growth_state != nullptr ? growth->grows(arena) : 0;
}

// Only arenas in guard mode have a line for it. A fixed buffer: formatting
// the statistics needs no host memory.
struct GuardLine {
    char text[160] = "";
};

GuardLine guard_line(const harena_arena &arena, const harena_stats &s) {
    GuardLine line;
    if (arena.band_bytes != 0) {
        std::snprintf(line.text, sizeof line.text, "  guard bands    %llu checked, %llu damaged (%s each)\n",
                      static_cast<unsigned long long>(s.guard_checks),
                      static_cast<unsigned long long>(s.guard_damaged), bytes_text(arena.band_bytes).text);
    }
    return line;
}

// Only arenas whose bytes crossed streams have a line for it.
struct StreamLine {
    char text[160] = "";
};

StreamLine stream_line(const harena_stats &s) {
    StreamLine line;
    if (s.stream_crossings != 0 || s.stream_events_recorded != 0) {
        std::snprintf(line.text, sizeof line.text, "  streams        %llu crossing(s): %llu event(s) recorded, %llu wait(s)\n",
                      static_cast<unsigned long long>(s.stream_crossings),
                      static_cast<unsigned long long>(s.stream_events_recorded),
                      static_cast<unsigned long long>(s.stream_waits));
    }
    return line;
}

// A device arena's host companion, once it exists.
struct CompanionLine {
    char text[160] = "";
};

CompanionLine companion_line(const harena_arena &arena) {
    CompanionLine line;
    if (const harena_arena *host = companion_arena(arena)) {
        std::snprintf(line.text, sizeof line.text, "  host companion %s, high water %s (grown %llu time(s))\n",
                      bytes_text(host->capacity).text,
                      bytes_text(host->high_water.load(std::memory_order_relaxed)).text,
                      static_cast<unsigned long long>(grows_of(*host)));
    }
    return line;
}

void read_stats(const harena_arena &arena, harena_stats &stats) {
    stats.capacity = arena.capacity;
    stats.bytes_in_use = top_of(arena);
    stats.high_water = arena.high_water.load(std::memory_order_relaxed);
    stats.frame_depth = arena.depth.load(std::memory_order_relaxed);
    arena.stats.report(stats, allocation_total(arena), reclaim_total(arena));
    stats.grows = grows_of(arena);
    stats.guard_checks = 0;
    stats.guard_damaged = 0;
    if (arena.checks != nullptr) {
        checking->read_stats(arena, &stats);
    }
    stats.stream_crossings = 0;
    stats.stream_events_recorded = 0;
    stats.stream_waits = 0;
    if (arena.streams_state != nullptr) {
        stream_order->read_stats(arena, &stats);
    }
}

void reset_stats(harena_arena &arena) {
    if (arena.streams_state != nullptr) {
        stream_order->reset_stats(arena);
    }
    arena.high_water.store(top_of(arena), std::memory_order_relaxed);
    arena.stats.reset(allocation_total(arena), reclaim_total(arena), arena.depth.load(std::memory_order_relaxed));
    if (arena.growth_state != nullptr) {
        growth->reset_stats(arena);
    }
    if (arena.checks != nullptr) {
        checking->reset_stats(arena);
    }
}

}  // namespace

extern "C" {

int harena_get_stats(const harena_arena *arena, harena_stats *stats) {
    if (int err = check_live(arena, "harena_get_stats", nullptr)) {
        return err;
    }
    if (stats == nullptr) {
        return report_error(arena->user_context, HARENA_ERROR_INVALID_ARGUMENT, "harena_get_stats: stats is NULL");
    }
    read_stats(*arena, *stats);
    return HARENA_OK;
}

int harena_get_host_companion_stats(const harena_arena *arena, harena_stats *stats) {
    if (int err = check_live(arena, "harena_get_host_companion_stats", nullptr)) {
        return err;
    }
    if (stats == nullptr) {
        return report_error(arena->user_context, HARENA_ERROR_INVALID_ARGUMENT,
                            "harena_get_host_companion_stats: stats is NULL");
    }
    *stats = harena_stats{};
    if (const harena_arena *host = companion_arena(*arena)) {
        read_stats(*host, *stats);
    }
    return HARENA_OK;
}

int harena_reset_stats(harena_arena *arena) {
    if (int err = check_live(arena, "harena_reset_stats", nullptr)) {
        return err;
    }
    reset_stats(*arena);
    if (harena_arena *host = companion_arena(*arena)) {
        reset_stats(*host);
    }
    return HARENA_OK;
}

int harena_format_stats(const harena_arena *arena, char *buffer, size_t size) {
    harena_stats s;
    if (int err = harena_get_stats(arena, &s)) {
        return err;
    }
    if (buffer == nullptr && size != 0) {
        return report_error(arena->user_context, HARENA_ERROR_INVALID_ARGUMENT,
                            "harena_format_stats: the buffer is NULL but its size is %llu; pass a buffer, or size "
                            "0 to learn the length needed",
                            static_cast<unsigned long long>(size));
    }
    const double percent = s.capacity ? 100.0 * static_cast<double>(s.high_water) / s.capacity : 0.0;
    return std::snprintf(buffer, size,
                         "harena arena %p (%s memory, alignment %llu)\n"
                         "  capacity       %s (grown %llu time(s))\n"
                         "  in use         %s\n"
                         "  high water     %s (%.1f%% of capacity)\n"
                         "  allocations    %llu (%llu reclaimed at once)\n"
                         "  frames pushed  %llu (depth %u now, %u at most)\n"
                         "  overflows      %llu (%llu fell back to the default allocator)\n"
                         "  evictions      %llu (%s moved out of popping frames)\n"
                         "  slot tasks     %llu (%llu found no free slot; at most %llu slots used in one run of a loop)\n"
                         "%s%s%s",
                         static_cast<const void *>(arena), arena->device_interface ? "device" : "host",
                         static_cast<unsigned long long>(arena->alignment), bytes_text(s.capacity).text,
                         static_cast<unsigned long long>(s.grows),
                         bytes_text(s.bytes_in_use).text, bytes_text(s.high_water).text, percent,
                         static_cast<unsigned long long>(s.allocations), static_cast<unsigned long long>(s.reclaimed),
                         static_cast<unsigned long long>(s.frames_pushed), s.frame_depth, s.max_frame_depth,
                         static_cast<unsigned long long>(s.overflows), static_cast<unsigned long long>(s.fallbacks),
                         static_cast<unsigned long long>(s.evictions), bytes_text(s.evicted_bytes).text,
                         static_cast<unsigned long long>(s.slot_tasks), static_cast<unsigned long long>(s.slot_fallbacks),
                         static_cast<unsigned long long>(s.slot_high_water),
                         guard_line(*arena, s).text, stream_line(s).text, companion_line(*arena).text);
}

}  // extern "C"
