// Shared by the runtime tests: arenas that are destroyed at the end of the
// test, and message checks.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "harena/runtime.h"

namespace harena_test {

// An arena over `device` (null: host memory), with the calls the tests make
// on it checked as they go.
struct TestArena {
    TestArena(uint64_t capacity, harena_options options, const halide_device_interface_t *device) {
        EXPECT_EQ(harena_create(nullptr, device, capacity, &options, &arena), HARENA_OK) << harena_last_error();
    }
    ~TestArena() {
        if (arena != nullptr) {
            EXPECT_EQ(harena_destroy(arena), HARENA_OK) << harena_last_error();
        }
    }
    TestArena(const TestArena &) = delete;
    TestArena &operator=(const TestArena &) = delete;

    static harena_options defaults() {
        harena_options o;
        harena_options_init(&o);
        return o;
    }

    harena_stats stats() const {
        harena_stats s{};
        EXPECT_EQ(harena_get_stats(arena, &s), HARENA_OK);
        return s;
    }
    uint64_t base() const {
        harena_info info{};
        EXPECT_EQ(harena_get_info(arena, &info), HARENA_OK);
        return info.base;
    }
    harena_frame push(uint64_t reserve = 0) {
        harena_frame f{};
        EXPECT_EQ(harena_push(arena, reserve, &f), HARENA_OK) << harena_last_error();
        return f;
    }
    uint64_t alloc(uint64_t bytes, const char *name = nullptr) {
        uint64_t address = 0;
        EXPECT_EQ(harena_alloc(arena, bytes, name, &address), HARENA_OK) << harena_last_error();
        return address;
    }

    harena_arena *arena = nullptr;
};

struct HostArena : TestArena {
    explicit HostArena(uint64_t capacity, harena_options options = defaults())
        : TestArena(capacity, options, nullptr) {
    }
};

// The message of the last error reported on this thread contains every piece.
inline ::testing::AssertionResult last_error_mentions(std::initializer_list<std::string> pieces) {
    const std::string message = harena_last_error();
    for (const std::string &p : pieces) {
        if (message.find(p) == std::string::npos) {
            return ::testing::AssertionFailure() << "'" << p << "' missing from: " << message;
        }
    }
    return ::testing::AssertionSuccess();
}

// Stands in for a device interface where the runtime compares interfaces by
// address only (scopes, planned pipelines' enter).
inline const halide_device_interface_t *dummy_interface() {
    static const halide_device_interface_t iface{};
    return &iface;
}

}  // namespace harena_test
