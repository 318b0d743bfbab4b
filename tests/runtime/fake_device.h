// A device interface whose device memory is host memory. Its public function
// table is the one Halide gives CUDA (halide_device_malloc, ...), so the
// override treats it exactly as it treats CUDA; its backend table counts what
// reaches the "driver" and checks that only its own allocations come back.
#pragma once

#include "HalideRuntime.h"

namespace harena_test {

struct FakeDriverCounts {
    int mallocs = 0;
    int frees = 0;
    int foreign_frees = 0;  // frees of memory the backend did not allocate
    int wraps = 0;
    int detaches = 0;
};

const halide_device_interface_t *fake_device_interface();
FakeDriverCounts &fake_driver();
void reset_fake_driver();

}  // namespace harena_test
