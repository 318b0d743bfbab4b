// Guard mode (harena_options.guard): a band of a known pattern after every
// slice, checked before anything can legitimately write its bytes again.
//
// A band is checked when its slice is freed, when a planned pipeline hands
// out a slice over its bytes (slices of buffers never alive together share
// bytes, so a dead buffer's band may lie inside a new buffer), and when its
// frame pops. Whatever wrote it wrote outside a buffer: the report names the
// buffer, the pipeline where known and how far past the end the damage goes.
#include <algorithm>
#include <vector>

#include "arena.h"
#include "device_bytes.h"
#include "errors.h"

namespace harena::detail {

namespace {

constexpr uint8_t kPattern = 0xA5;

// The context for the band's device copies, so that they go on the stream
// the kernels used: the caller's (a planned pipeline passes the arena), else
// the arena itself where it carries a stream (the CUDA hooks answer for it),
// else the arena creator's.
void *context_for(harena_arena &arena, void *user_context) {
    if (user_context != nullptr) {
        return user_context;
    }
    return arena.cuda.stream != nullptr ? static_cast<void *>(&arena) : arena.user_context;
}

int fill(harena_arena &arena, void *uc, const GuardBand &band) {
    const uint64_t bytes = band.end - band.begin;
    if (arena.device_interface == nullptr) {
        std::fill_n(reinterpret_cast<uint8_t *>(arena.base + band.begin), bytes, kPattern);
        return HARENA_OK;
    }
    const std::vector<uint8_t> pattern(bytes, kPattern);
    if (int err = copy_bytes_to_device(context_for(arena, uc), arena.device_interface, pattern.data(),
                                       arena.base + band.begin, bytes)) {
        return report_error(uc, err,
                            "harena: guard mode could not fill the %s band after %s at offset %llu of arena %p "
                            "(device copy error %d)",
                            bytes_text(bytes).text, band.buffer.c_str(),
                            static_cast<unsigned long long>(band.begin), static_cast<void *>(&arena), err);
    }
    return HARENA_OK;
}

int report_damage(harena_arena &arena, void *uc, const GuardBand &band, uint64_t first, uint64_t last) {
    arena.guard_damaged++;
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
                            static_cast<void *>(&arena), changed, static_cast<unsigned long long>(size - last),
                            static_cast<unsigned long long>(size - first));
    }
    return report_error(uc, HARENA_ERROR_GUARD_DAMAGED,
                        "harena: guard band damaged: %s wrote past the end of %s (%s at offset %llu of arena %p): "
                        "%llu byte(s) of the band after it changed, from %llu to %llu bytes past its end; a stage "
                        "writes outside the buffer",
                        pipeline, band.buffer.c_str(), bytes_text(band.begin - band.slice).text,
                        static_cast<unsigned long long>(band.slice), static_cast<void *>(&arena), changed,
                        static_cast<unsigned long long>(first + 1), static_cast<unsigned long long>(last + 1));
}

int check(harena_arena &arena, void *uc, const GuardBand &band) {
    arena.guard_checks++;
    const uint64_t bytes = band.end - band.begin;
    std::vector<uint8_t> device_copy;
    const uint8_t *seen = reinterpret_cast<const uint8_t *>(arena.base + band.begin);
    if (arena.device_interface != nullptr) {
        device_copy.resize(bytes);
        if (int err = copy_bytes_to_host(context_for(arena, uc), arena.device_interface, arena.base + band.begin,
                                         device_copy.data(), bytes)) {
            return report_error(uc, err,
                                "harena: guard mode could not read the band after %s at offset %llu of arena %p "
                                "(device copy error %d)",
                                band.buffer.c_str(), static_cast<unsigned long long>(band.begin),
                                static_cast<void *>(&arena), err);
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
    return report_damage(arena, uc, band, static_cast<uint64_t>(first - seen), static_cast<uint64_t>(last - seen));
}

// Checks and forgets the bands `pick` selects; the first failure is returned.
template<typename Pick>
int check_and_forget(harena_arena &arena, void *uc, Pick &&pick) {
    int result = HARENA_OK;
    auto &bands = arena.guard_bands;
    for (auto it = bands.begin(); it != bands.end();) {
        if (pick(*it)) {
            const int err = check(arena, uc, *it);
            result = result ? result : err;
            it = bands.erase(it);
        } else {
            ++it;
        }
    }
    return result;
}

}  // namespace

// The three below copy device bands through host vectors and keep a list of
// bands: without host memory they report HARENA_ERROR_OUT_OF_MEMORY.
int guard_slice(harena_arena &arena, void *uc, GuardBand band) {
    return guarded(uc, "harena guard mode (a new slice's band)", [&] {
        std::lock_guard<std::mutex> lock(arena.guard_mutex);
        // Bands of slices whose bytes this one reuses: those buffers are dead.
        int result = check_and_forget(arena, uc,
                                      [&](const GuardBand &b) { return b.slice < band.end && band.slice < b.end; });
        if (int err = fill(arena, uc, band)) {
            return err;
        }
        arena.guard_bands.push_back(std::move(band));
        return result;
    });
}

int guard_release(harena_arena &arena, void *uc, uint64_t slice) {
    return guarded(uc, "harena guard mode (a freed slice's band)", [&]() -> int {
        std::lock_guard<std::mutex> lock(arena.guard_mutex);
        auto &bands = arena.guard_bands;
        for (auto it = bands.rbegin(); it != bands.rend(); ++it) {
            if (it->slice == slice) {
                const GuardBand band = std::move(*it);
                bands.erase(std::next(it).base());
                return check(arena, uc, band);
            }
        }
        return HARENA_OK;
    });
}

int guard_pop(harena_arena &arena, uint64_t frame_offset) {
    return guarded(arena.user_context, "harena guard mode (a popping frame's bands)", [&] {
        std::lock_guard<std::mutex> lock(arena.guard_mutex);
        return check_and_forget(arena, nullptr, [&](const GuardBand &b) { return b.slice >= frame_offset; });
    });
}

}  // namespace harena::detail

using namespace harena::detail;

extern "C" {

uint64_t harena_pipeline_guard_bytes(void *user_context) {
    if (user_context == nullptr || !is_registered(user_context)) {
        return 0;
    }
    return static_cast<const harena_arena *>(user_context)->band_bytes;
}

int harena_guard_slice(void *user_context, const char *pipeline, const char *buffer, uint64_t address,
                       uint64_t bytes, uint64_t band_bytes) {
    if (int err = check_live(user_context, "harena_guard_slice", user_context)) {
        return err;
    }
    harena_arena &arena = *static_cast<harena_arena *>(user_context);
    if (arena.band_bytes == 0 || band_bytes == 0) {
        return HARENA_OK;
    }
    if (!contains(arena, address) || bytes + band_bytes > arena.capacity - (address - arena.base)) {
        return report_error(user_context, HARENA_ERROR_NOT_IN_ARENA,
                            "harena_guard_slice: the slice of %s at 0x%llx with its band (%llu + %llu bytes) is not "
                            "inside arena %p",
                            buffer ? buffer : "a buffer", static_cast<unsigned long long>(address),
                            static_cast<unsigned long long>(bytes), static_cast<unsigned long long>(band_bytes),
                            user_context);
    }
    return guarded(user_context, "harena_guard_slice", [&] {
        const uint64_t slice = address - arena.base;
        GuardBand band{slice, slice + bytes, slice + bytes + band_bytes, false,
                       std::string("buffer '") + (buffer ? buffer : "?") + "'",
                       std::string("pipeline '") + (pipeline ? pipeline : "?") + "'"};
        return guard_slice(arena, user_context, std::move(band));
    });
}

int harena_guard_check(void *user_context, uint64_t address) {
    if (int err = check_live(user_context, "harena_guard_check", user_context)) {
        return err;
    }
    harena_arena &arena = *static_cast<harena_arena *>(user_context);
    if (arena.band_bytes == 0 || !contains(arena, address)) {
        return HARENA_OK;
    }
    return guard_release(arena, user_context, address - arena.base);
}

}  // extern "C"
