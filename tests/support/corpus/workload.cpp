#include "workload.h"

#include "HalideRuntime.h"

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <sstream>
#include <type_traits>

namespace harena_corpus {

namespace {

uint64_t mix(uint64_t x) {
    // splitmix64's finaliser: cheap, and every input bit reaches every output bit.
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

template<typename T>
void fill_as(Buffer<> &b, uint64_t seed, double lo, double hi) {
    // The Buffer constructor made it dense, so a flat index is a position.
    T *p = static_cast<T *>(b.data());
    const size_t n = b.number_of_elements();
    const uint64_t base = mix(seed);
    for (size_t i = 0; i < n; i++) {
        const double u = (double)(mix(base + i) >> 11) * (1.0 / 9007199254740992.0);  // [0, 1)
        if constexpr (std::is_floating_point_v<T>) {
            p[i] = (T)(lo + u * (hi - lo));
        } else {
            p[i] = (T)(lo + std::floor(u * (hi - lo + 1)));
        }
    }
}

std::mutex log_mutex;
std::vector<std::string> log_messages;

void record(void *, const char *message) {
    std::lock_guard<std::mutex> lock(log_mutex);
    log_messages.emplace_back(message);
}

}  // namespace

int scaled(int extent, double scale) {
    const int s = (int)std::lround(extent * scale);
    return s < 1 ? 1 : s;
}

void fill(Buffer<> &b, uint64_t seed, double lo, double hi) {
    const halide_type_t t = b.type();
    if (t == halide_type_of<float>()) {
        fill_as<float>(b, seed, lo, hi);
    } else if (t == halide_type_of<uint16_t>()) {
        fill_as<uint16_t>(b, seed, lo, hi);
    } else if (t == halide_type_of<uint8_t>()) {
        fill_as<uint8_t>(b, seed, lo, hi);
    } else {
        std::abort();  // a corpus input of a type this driver does not write yet
    }
    b.set_host_dirty();
}

std::string difference(const Buffer<> &a, const Buffer<> &b) {
    if (a.type() != b.type() || a.dimensions() != b.dimensions() || a.number_of_elements() != b.number_of_elements()) {
        return "buffers of different types or shapes";
    }
    const size_t bytes = a.type().bytes();
    const auto *pa = static_cast<const uint8_t *>(a.data());
    const auto *pb = static_cast<const uint8_t *>(b.data());
    if (std::memcmp(pa, pb, a.number_of_elements() * bytes) == 0) {
        return "";
    }
    size_t first = SIZE_MAX, count = 0;
    for (size_t i = 0; i < a.number_of_elements(); i++) {
        if (std::memcmp(pa + i * bytes, pb + i * bytes, bytes) != 0) {
            first = first == SIZE_MAX ? i : first;
            count++;
        }
    }
    std::ostringstream out;
    out << count << " of " << a.number_of_elements() << " elements differ, the first at (";
    size_t rest = first;
    for (int d = 0; d < a.dimensions(); d++) {
        out << (d ? ", " : "") << a.dim(d).min() + (int)(rest % a.dim(d).extent());
        rest /= a.dim(d).extent();
    }
    out << ")";
    return out.str();
}

std::string difference(const Workload &want, const Workload &got) {
    for (size_t i = 0; i < want.outputs.size(); i++) {
        std::string d = difference(want.outputs[i], got.outputs[i]);
        if (!d.empty()) {
            return "output " + std::to_string(i) + ": " + d;
        }
    }
    return "";
}

int read_back(Workload &w) {
    for (Buffer<> &out : w.outputs) {
        if (int err = out.copy_to_host()) {
            return err;
        }
    }
    return 0;
}

void ErrorLog::install() {
    halide_set_error_handler(record);
}

std::vector<std::string> ErrorLog::take() {
    std::lock_guard<std::mutex> lock(log_mutex);
    std::vector<std::string> out;
    out.swap(log_messages);
    return out;
}

}  // namespace harena_corpus
