// A device interface whose device memory is host memory. Its public function
// table is the one Halide gives CUDA (halide_device_malloc, ...), so the
// override treats it exactly as it treats CUDA; its backend table counts what
// reaches the "driver" and checks that only its own allocations come back.
#pragma once

#include <atomic>

#include "HalideRuntime.h"

namespace harena_test {

// Atomic, so that threads may allocate through the fake device at once.
struct FakeDriverCounts {
    std::atomic<int> mallocs{0};
    std::atomic<int> frees{0};
    std::atomic<int> foreign_frees{0};  // frees of memory the backend did not allocate
    std::atomic<int> wraps{0};
    std::atomic<int> detaches{0};
    std::atomic<int> device_copies{0};  // device-to-device buffer copies
    std::atomic<int> host_to_device_copies{0};
    std::atomic<int> device_to_host_copies{0};
    // Module references taken and dropped through the backend table; like
    // CUDA's, a wrapped buffer holds one until it is detached.
    std::atomic<int> module_uses{0};
    std::atomic<int> module_releases{0};
    std::atomic<bool> fail_next_wrap{false};  // the next wrap_native reports a failure
    std::atomic<int> own_wraps{0};            // calls of fake_device_interface_with_own_wrap's public entries
    std::atomic<int> own_detaches{0};
};

const halide_device_interface_t *fake_device_interface();
// The same backend behind a public table whose wrap_native and detach_native
// are the interface's own (they count, then call Halide's generic ones).
const halide_device_interface_t *fake_device_interface_with_own_wrap();
FakeDriverCounts &fake_driver();
void reset_fake_driver();

}  // namespace harena_test
