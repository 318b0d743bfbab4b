// A PTX module read as text, as the driver compiles it (Halide's CUDA backend
// embeds PTX text): one entry's parameters and instructions, and the named
// memory the module declares. What ptx_access.h analyses.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace harena::detail::ptx {

bool is_name_char(char c);
std::string_view trim(std::string_view s);
// An instruction's operands, split at the commas outside [] and {}.
std::vector<std::string_view> operands_of(std::string_view s);

enum class Space { Generic,
                   Global,
                   Shared,
                   Local,
                   Param,
                   Const };
// The state space an instruction's opcode names (ld.global.nc.f32: Global).
Space space_of(std::string_view opcode);

struct Param {
    std::string name;
    uint8_t bytes = 0;              // 0 for an aggregate (.b8 name[n])
    bool may_hold_address = false;  // a 64-bit integer or an aggregate
};

// Memory a name declares: the block's own (.shared, .local) or the module's
// (.global, .const), which every kernel of the module can reach.
enum class NamedMemory { Block,
                         Module };

struct Entry {
    Entry() = default;
    Entry(const Entry &) = delete;
    Entry &operator=(const Entry &) = delete;

    std::vector<Param> params;
    std::unordered_map<std::string, NamedMemory> named_memory;
    // The body without comments and directive lines; `statements` view it,
    // one instruction each, its labels and block braces stripped.
    std::string body;
    std::vector<std::string_view> statements;
};

// Entry `entry` of `module` into *out; false where there is none or its
// parameters are not as PTX declares them.
bool read_entry(std::string_view module, std::string_view entry, Entry *out);

}  // namespace harena::detail::ptx
