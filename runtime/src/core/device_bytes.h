// Raw bytes of an arena's device memory moved through its Halide device
// interface: the same calls, on the same stream, as the pipelines' own
// copies, so they are ordered after the kernels that wrote the bytes.
#pragma once

#include <cstdint>

#include "HalideRuntime.h"

namespace harena::detail {

// Device to device (moving a buffer out of a popping frame).
int copy_device_bytes(void *user_context, const halide_device_interface_t *iface, uint64_t from, uint64_t to,
                      uint64_t bytes);

// Host to device; the host bytes may be reused as soon as it returns. Safe
// inside Halide's device copy lock (the override's allocations run there).
int copy_bytes_to_device(void *user_context, const halide_device_interface_t *iface, const void *from, uint64_t to,
                         uint64_t bytes);

// Device to host, complete when it returns (the backend's device sync).
// Safe inside Halide's device copy lock.
int copy_bytes_to_host(void *user_context, const halide_device_interface_t *iface, uint64_t from, void *to,
                       uint64_t bytes);

}  // namespace harena::detail
