#include "pipeline_harness.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <sstream>
#include <stdexcept>

namespace {
std::atomic<int> malloc_calls{0};
std::atomic<int> counting{0};
std::mutex error_mutex;
std::string error_text;
}  // namespace

// Strong definitions take the place of the weak ones in the Halide runtime.
extern "C" void *halide_malloc(void *, size_t size) {
    if (counting.load()) {
        malloc_calls++;
    }
    // Halide's own alignment for heap allocations.
    void *p = nullptr;
    return posix_memalign(&p, 128, size ? size : 1) == 0 ? p : nullptr;
}

extern "C" void halide_free(void *, void *ptr) {
    free(ptr);
}

extern "C" void halide_error(void *, const char *msg) {
    std::lock_guard<std::mutex> lock(error_mutex);
    error_text = msg;
}

// The extern stage of tests/generators/extern_stage.cpp: out = in * k over out's region.
extern "C" int harena_test_extern_scale(halide_buffer_t *in, int32_t k, halide_buffer_t *out) {
    if (in->is_bounds_query()) {
        for (int d = 0; d < 2; d++) {
            in->dim[d].min = out->dim[d].min;
            in->dim[d].extent = out->dim[d].extent;
        }
        return 0;
    }
    Halide::Runtime::Buffer<float> src(*in), dst(*out);
    dst.for_each_element([&](int x, int y) { dst(x, y) = src(x, y) * (float)k; });
    return 0;
}

namespace harena_test {

HostArena::HostArena(uint64_t bytes) {
    if (harena_create(nullptr, nullptr, bytes, nullptr, &arena_) != 0) {
        throw std::runtime_error("cannot create a host arena of " + std::to_string(bytes) + " bytes: " +
                                 harena_last_error());
    }
}

HostArena::~HostArena() {
    harena_destroy(arena_);
}

uint64_t HostArena::high_water() const {
    harena_stats s;
    harena_get_stats(arena_, &s);
    return s.high_water;
}

uint32_t HostArena::frame_depth() const {
    harena_stats s;
    harena_get_stats(arena_, &s);
    return s.frame_depth;
}

MallocCounter::MallocCounter() {
    malloc_calls = 0;
    counting = 1;
}
MallocCounter::~MallocCounter() {
    counting = 0;
}
int MallocCounter::count() const {
    return malloc_calls.load();
}

std::string last_error() {
    std::lock_guard<std::mutex> lock(error_mutex);
    return error_text;
}

void clear_last_error() {
    std::lock_guard<std::mutex> lock(error_mutex);
    error_text.clear();
}

template<typename T>
static void fill(Halide::Runtime::Buffer<T> &b, uint32_t seed, T scale) {
    uint32_t s = seed * 2654435761u + 1;
    // Element by element in memory order (see fill_dense).
    T *data = b.data();
    for (size_t i = 0; i < b.number_of_elements(); i++) {
        s = s * 1664525u + 1013904223u;
        data[i] = (T)((s >> 8) % 256) / scale;
    }
}

void fill_random(Halide::Runtime::Buffer<float> &b, uint32_t seed) {
    fill<float>(b, seed, 255.0f);
}
void fill_random(Halide::Runtime::Buffer<uint8_t> &b, uint32_t seed) {
    fill<uint8_t>(b, seed, 1);
}

std::string first_difference(const Halide::Runtime::Buffer<float> &a, const Halide::Runtime::Buffer<float> &b) {
    if (a.dimensions() != b.dimensions() || a.dimensions() > 2 || a.number_of_elements() != b.number_of_elements()) {
        return "shapes differ";
    }
    const int w = a.dim(0).extent(), h = a.dimensions() > 1 ? a.dim(1).extent() : 1;
    for (int y = 0; y < h; y++) {
        for (int x = 0; x < w; x++) {
            int pos[2] = {a.dim(0).min() + x, a.dimensions() > 1 ? a.dim(1).min() + y : 0};
            float u = a(pos), v = b(pos);
            if (std::memcmp(&u, &v, sizeof u) != 0) {
                std::ostringstream o;
                o << "at (" << pos[0] << ", " << pos[1] << "): " << u << " vs " << v;
                return o.str();
            }
        }
    }
    return "";
}

}  // namespace harena_test
