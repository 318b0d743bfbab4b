// Guard mode (harena_options.guard): a band of a known pattern after every
// slice, checked before anything can legitimately write its bytes again.
//
// A band is checked when its slice is freed, when a planned pipeline hands
// out a slice over its bytes (slices of buffers never alive together share
// bytes, so a dead buffer's band may lie inside a new buffer), when a planned
// pipeline's frame ends (it may report no frees) and when its frame pops.
// Whatever wrote it wrote outside a buffer: the report names the buffer, the
// pipeline where known and how far past the end the damage goes.
#include "guard/state.h"

#include <algorithm>

#include "core/arena_core.h"
#include "core/device_bytes.h"
#include "core/errors.h"

namespace harena::detail {

namespace {

constexpr uint8_t kPattern = 0xA5;

int fill(const ArenaCore &arena, GuardCall call, const GuardBand &band) {
    void *uc = call.user_context;
    const uint64_t bytes = band.end - band.begin;
    if (arena.device_interface == nullptr) {
        std::fill_n(reinterpret_cast<uint8_t *>(arena.base + band.begin), bytes, kPattern);
        return HARENA_OK;
    }
    const std::vector<uint8_t> pattern(bytes, kPattern);
    if (int err = copy_bytes_to_device(call.copy_context, arena.device_interface, pattern.data(),
                                       arena.base + band.begin, bytes)) {
        return report_error(uc, err,
                            "harena: guard mode could not fill the %s band after %s at offset %llu of arena %p "
                            "(device copy error %d)",
                            bytes_text(bytes).text, band.buffer.c_str(),
                            static_cast<unsigned long long>(band.begin), static_cast<const void *>(&arena), err);
    }
    return HARENA_OK;
}

int report_damage(const ArenaCore &arena, void *uc, const GuardBand &band, uint64_t first, uint64_t last) {
    const char *pipeline = band.pipeline.empty() ? "the program" : band.pipeline.c_str();
    const unsigned long long changed = last - first + 1;
    if (band.before) {
        // The band before a frame's first slice: the damage is measured from
        // its end, which is where that slice starts.
        const uint64_t size = band.end - band.begin;
        return report_error(uc, HARENA_ERROR_GUARD_DAMAGED,
                            "harena: guard band damaged: %s wrote before %s (offset %llu of arena %p): %llu "
                            "byte(s) changed, from %llu to %llu bytes before it; a stage writes outside a buffer",
                            pipeline, band.buffer.c_str(), static_cast<unsigned long long>(band.end),
                            static_cast<const void *>(&arena), changed, static_cast<unsigned long long>(size - last),
                            static_cast<unsigned long long>(size - first));
    }
    return report_error(uc, HARENA_ERROR_GUARD_DAMAGED,
                        "harena: guard band damaged: %s wrote past the end of %s (%s at offset %llu of arena %p): "
                        "%llu byte(s) of the band after it changed, from %llu to %llu bytes past its end; a stage "
                        "writes outside the buffer",
                        pipeline, band.buffer.c_str(), bytes_text(band.begin - band.slice).text,
                        static_cast<unsigned long long>(band.slice), static_cast<const void *>(&arena), changed,
                        static_cast<unsigned long long>(first + 1), static_cast<unsigned long long>(last + 1));
}

}  // namespace

int GuardBands::check(const ArenaCore &arena, GuardCall call, const GuardBand &band) {
    void *uc = call.user_context;
    checks_.fetch_add(1, std::memory_order_relaxed);
    const uint64_t bytes = band.end - band.begin;
    std::vector<uint8_t> device_copy;
    const uint8_t *seen = reinterpret_cast<const uint8_t *>(arena.base + band.begin);
    if (arena.device_interface != nullptr) {
        device_copy.resize(bytes);
        if (int err = copy_bytes_to_host(call.copy_context, arena.device_interface, arena.base + band.begin,
                                         device_copy.data(), bytes)) {
            return report_error(uc, err,
                                "harena: guard mode could not read the band after %s at offset %llu of arena %p "
                                "(device copy error %d)",
                                band.buffer.c_str(), static_cast<unsigned long long>(band.begin),
                                static_cast<const void *>(&arena), err);
        }
        seen = device_copy.data();
    }
    const auto differs = [](uint8_t b) { return b != kPattern; };
    const uint8_t *first = std::find_if(seen, seen + bytes, differs);
    if (first == seen + bytes) {
        return HARENA_OK;
    }
    const uint8_t *last = std::find_if(std::make_reverse_iterator(seen + bytes), std::make_reverse_iterator(first),
                                       differs)
                              .base() -
                          1;
    damaged_.fetch_add(1, std::memory_order_relaxed);
    return report_damage(arena, uc, band, static_cast<uint64_t>(first - seen), static_cast<uint64_t>(last - seen));
}

// Checks and forgets the bands `pick` selects; the first failure is returned.
template<typename Pick>
int GuardBands::check_and_forget(const ArenaCore &arena, GuardCall call, Pick &&pick) {
    int result = HARENA_OK;
    for (auto it = bands_.begin(); it != bands_.end();) {
        if (pick(*it)) {
            const int err = check(arena, call, *it);
            result = result ? result : err;
            it = bands_.erase(it);
        } else {
            ++it;
        }
    }
    return result;
}

// The three below copy device bands through host vectors and keep a list of
// bands: without host memory they report HARENA_ERROR_OUT_OF_MEMORY.
int GuardBands::slice(const ArenaCore &arena, GuardCall call, GuardBand band) {
    return guarded(call.user_context, "harena guard mode (a new slice's band)", [&] {
        std::lock_guard<std::mutex> lock(mutex_);
        // Bands of slices whose bytes this one reuses: those buffers are dead.
        int result = check_and_forget(arena, call,
                                      [&](const GuardBand &b) { return b.slice < band.end && band.slice < b.end; });
        if (int err = fill(arena, call, band)) {
            return err;
        }
        bands_.push_back(std::move(band));
        return result;
    });
}

int GuardBands::release(const ArenaCore &arena, GuardCall call, uint64_t slice) {
    return guarded(call.user_context, "harena guard mode (a freed slice's band)", [&]() -> int {
        std::lock_guard<std::mutex> lock(mutex_);
        for (auto it = bands_.rbegin(); it != bands_.rend(); ++it) {
            if (it->slice == slice) {
                const GuardBand band = std::move(*it);
                bands_.erase(std::next(it).base());
                const int err = check(arena, call, band);
                if (!band.before) {
                    return err;
                }
                // The band that starts a frame: the frame ends, and with it
                // the slices whose frees were not reported.
                const int rest = check_and_forget(arena, call, [&](const GuardBand &b) { return b.slice >= slice; });
                return err ? err : rest;
            }
        }
        return HARENA_OK;
    });
}

int GuardBands::pop(const ArenaCore &arena, GuardCall call, uint64_t frame_offset) {
    return guarded(arena.user_context, "harena guard mode (a popping frame's bands)", [&] {
        std::lock_guard<std::mutex> lock(mutex_);
        return check_and_forget(arena, call, [&](const GuardBand &b) { return b.slice >= frame_offset; });
    });
}

GuardCounts GuardBands::counts() const {
    return GuardCounts{checks_.load(std::memory_order_relaxed), damaged_.load(std::memory_order_relaxed)};
}

void GuardBands::reset_counts() {
    checks_.store(0, std::memory_order_relaxed);
    damaged_.store(0, std::memory_order_relaxed);
}

}  // namespace harena::detail
