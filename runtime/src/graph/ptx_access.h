// Which of a kernel's parameters address memory it reads or writes, read
// from its PTX (ptx_text.h). A forward taint analysis over the entry's
// virtual registers: a register carries the parameters (and the named
// memory: the block's .shared and .local, the module's .global and .const)
// its value was computed from, and the address of each global or generic
// load, store and atomic names what it reaches. Anything the analysis cannot
// follow makes the kernel unknown, and a graph keeps it ordered after and
// before everything else (kernel_order.h): a call, a surface or texture
// access, a pointer written to memory, an access through an address that
// neither a parameter nor a named memory reaches (a pointer loaded from
// memory), a write to the module's memory.
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
