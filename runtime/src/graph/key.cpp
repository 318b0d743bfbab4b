#include "graph/key.h"

#include "core/arena_core.h"

namespace harena::detail {

namespace {

template<typename T>
void append(std::string &key, const T &value) {
    key.append(reinterpret_cast<const char *>(&value), sizeof value);
}

}  // namespace

void key_of(std::string &key, const ArenaCore &arena, void *stream, const void *bytes, size_t size,
            halide_buffer_t *const *buffers, int count) {
    key.assign(static_cast<const char *>(bytes), size);
    append(key, &arena);
    append(key, arena.generation);
    append(key, top_of(arena));
    append(key, stream);
    for (int i = 0; i < count; i++) {
        const halide_buffer_t &b = *buffers[i];
        append(key, b.device);
        append(key, b.device_interface);
        append(key, b.type);
        append(key, b.dimensions);
        for (int d = 0; d < b.dimensions; d++) {
            append(key, b.dim[d].min);
            append(key, b.dim[d].extent);
            append(key, b.dim[d].stride);
        }
    }
}

}  // namespace harena::detail
