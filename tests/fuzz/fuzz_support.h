// Shared by the fuzz targets: a check that stops the run with a message (a
// crash is what both libFuzzer and the corpus replay report, with the input
// that caused it), and a reader that decodes the input's bytes into bounded
// values. The reader never fails: past the end it reads zeros, so every input,
// however short, is a complete test case.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#define FUZZ_CHECK(condition, ...)                                                               \
    do {                                                                                         \
        if (!(condition)) {                                                                      \
            std::fprintf(stderr, "%s:%d: check failed: %s\n  ", __FILE__, __LINE__, #condition); \
            std::fprintf(stderr, __VA_ARGS__);                                                   \
            std::fprintf(stderr, "\n");                                                          \
            std::abort();                                                                        \
        }                                                                                        \
    } while (0)

namespace harena_fuzz {

class ByteReader {
public:
    ByteReader(const uint8_t *data, size_t size)
        : data_(data), size_(size) {
    }

    bool empty() const {
        return position_ >= size_;
    }

    uint8_t byte() {
        return position_ < size_ ? data_[position_++] : 0;
    }

    // Little-endian, `bytes` bytes (at most 8).
    uint64_t bits(int bytes) {
        uint64_t value = 0;
        for (int i = 0; i < bytes; i++) {
            value |= uint64_t(byte()) << (8 * i);
        }
        return value;
    }

    // A value in [0, n), n > 0, from one byte when n <= 256, two when
    // n <= 65536, eight otherwise.
    uint64_t below(uint64_t n) {
        return (n <= 256 ? byte() : n <= 65536 ? bits(2) :
                                                 bits(8)) %
               n;
    }

private:
    const uint8_t *data_;
    size_t size_;
    size_t position_ = 0;
};

}  // namespace harena_fuzz

// libFuzzer's entry point; the corpus replay (replay_main.cpp) calls it too.
extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
