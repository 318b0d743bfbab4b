// Shared by the NVTX tests: device arenas over a device interface whose
// "device" memory is host memory (the runtime only needs its device_malloc
// and device_free), and where the fake injection library is.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>

#include "harena/runtime.h"

namespace harena_test {

// Set by CMake: the fake injection library's path.
constexpr const char *kFakeNvtxPath = HARENA_FAKE_NVTX_PATH;

struct HostMemoryDevice {
    static inline uint64_t last_allocation = 0;  // the last device_malloc's memory
    static inline uint64_t last_bytes = 0;

    static int device_malloc(void *, halide_buffer_t *buf, const halide_device_interface_t *) {
        last_bytes = buf->size_in_bytes();
        last_allocation = reinterpret_cast<uint64_t>(std::malloc(last_bytes));
        buf->device = last_allocation;
        return buf->device != 0 ? 0 : -1;
    }
    static int device_free(void *, halide_buffer_t *buf) {
        std::free(reinterpret_cast<void *>(buf->device));
        buf->device = 0;
        return 0;
    }
    static const halide_device_interface_t *interface() {
        static const halide_device_interface_t iface = [] {
            halide_device_interface_t i{};
            i.device_malloc = device_malloc;
            i.device_free = device_free;
            return i;
        }();
        return &iface;
    }
};

struct DeviceArena {
    explicit DeviceArena(uint64_t capacity, int32_t grow = 0) {
        harena_options options;
        harena_options_init(&options);
        options.grow = grow;
        EXPECT_EQ(harena_create(nullptr, HostMemoryDevice::interface(), capacity, &options, &arena), HARENA_OK)
            << harena_last_error();
    }
    ~DeviceArena() {
        if (arena != nullptr) {
            EXPECT_EQ(harena_destroy(arena), HARENA_OK) << harena_last_error();
        }
    }
    DeviceArena(const DeviceArena &) = delete;
    DeviceArena &operator=(const DeviceArena &) = delete;

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
    uint64_t alloc(uint64_t bytes) {
        uint64_t address = 0;
        EXPECT_EQ(harena_alloc(arena, bytes, nullptr, &address), HARENA_OK) << harena_last_error();
        return address;
    }

    harena_arena *arena = nullptr;
};

}  // namespace harena_test
