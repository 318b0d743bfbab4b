// Names of allocations for messages and debug records.
#include "core/allocation_name.h"

#include <cstdio>

namespace harena::detail {

namespace {

const char *type_code_name(uint8_t code) {
    switch (code) {
    case halide_type_int:
        return "int";
    case halide_type_uint:
        return "uint";
    case halide_type_float:
        return "float";
    case halide_type_handle:
        return "handle";
    case halide_type_bfloat:
        return "bfloat";
    default:
        return "type";
    }
}

}  // namespace

std::string AllocationName::text() const {
    if (name != nullptr) {
        return "'" + std::string(name) + "'";
    }
    if (buffer == nullptr) {
        return std::string();
    }
    char text[160];
    int n = std::snprintf(text, sizeof(text), "halide_buffer_t %p (%s%d", static_cast<const void *>(buffer),
                          type_code_name(buffer->type.code), buffer->type.bits);
    if (buffer->type.lanes > 1) {
        n += std::snprintf(text + n, sizeof(text) - n, "x%d", buffer->type.lanes);
    }
    for (int i = 0; i < buffer->dimensions && n < static_cast<int>(sizeof(text)) - 16; i++) {
        n += std::snprintf(text + n, sizeof(text) - n, "%s%d", i == 0 ? ", " : "x", buffer->dim[i].extent);
    }
    std::snprintf(text + n, sizeof(text) - n, ")");
    return text;
}

}  // namespace harena::detail
