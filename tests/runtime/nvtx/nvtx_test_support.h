// Shared by the NVTX tests: device arenas over a device interface whose
// "device" memory is host memory (the runtime only needs its device_malloc
// and device_free), and where the fake injection library is.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>

#include "harena/runtime.h"
#include "host_arena.h"

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

// A device arena over HostMemoryDevice, growing when `grow` is set.
struct DeviceArena : TestArena {
    explicit DeviceArena(uint64_t capacity, int32_t grow = 0)
        : TestArena(capacity, with_grow(grow), HostMemoryDevice::interface()) {
    }

    static harena_options with_grow(int32_t grow) {
        harena_options options = defaults();
        options.grow = grow;
        return options;
    }
};

}  // namespace harena_test
