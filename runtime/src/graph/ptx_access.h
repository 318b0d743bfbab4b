// Which of a kernel's parameters address memory it reads or writes, read
// from the PTX the driver compiles (Halide's CUDA backend embeds PTX text).
// A forward taint analysis over the entry's virtual registers: a register
// carries the parameters its value was computed from, and the address of
// each global or generic load, store and atomic names the parameters it
// reaches. Anything the analysis cannot follow (a call, a surface store, a
// pointer written to memory, a store to an address no parameter reaches)
// makes the kernel unknown, and a graph keeps it ordered after and before
// everything else (kernel_order.h).
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

namespace harena::detail {

struct PtxKernelAccess {
    // False where the entry is missing or its accesses cannot be followed.
    bool known = false;
    // Each parameter's size in bytes; 0 for an aggregate (.b8 name[n]).
    std::vector<uint8_t> param_bytes;
    // Bit i: parameter i's value addresses memory the kernel reads or writes.
    uint64_t accessed = 0;
    // Bit i: parameter i's value addresses memory the kernel writes.
    uint64_t written = 0;
};

// The accesses of entry `entry` of the PTX module `module`.
PtxKernelAccess analyze_ptx_entry(std::string_view module, std::string_view entry);

}  // namespace harena::detail
