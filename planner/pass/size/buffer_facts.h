#pragma once
// What the census needs to know about each buffer before deciding on it: the
// shape Halide creates it with (hence its size as the device runtime computes
// it) and the runtime calls made on it (how it is allocated and freed).
#include "Halide.h"

#include <map>
#include <string>
#include <vector>

namespace harena {

// How Halide's device runtime sizes a buffer: elem * (1 + sum (extent-1)*|stride|),
// from the shape passed to _halide_buffer_init.
struct DeviceShape {
    Halide::Expr bytes;
    std::vector<Halide::Expr> extents;  // for naming the dimension that is unbounded
};

// The shape of `_halide_buffer_init(...)` (possibly under lets): false for
// any other form.
bool device_shape_of(const Halide::Expr &buffer_init_value, DeviceShape &out);

// What a buffer's creation and uses look like: its halide_buffer_t, the
// destructor registered on it and the runtime calls made on it. Gathered in
// one walk for every Allocate and every `let X.buffer`, each of which owns the
// calls on X.buffer made inside it (one walk: per-buffer walks of the rest of
// the statement would make the pass quadratic in the pipeline's size).
struct BufferFacts {
    Halide::Expr init_value;  // value of the first `let <name>.buffer = ...` inside
    std::string destructor;   // the destructor registered on it
    bool device_malloc = false;
    bool copy_to_device = false;  // reaches the device through a copy, which mallocs
    bool device_and_host_malloc = false;
};

// Facts per Allocate and per `let X.buffer`, gathered in one walk of `s`.
std::map<const Halide::Internal::IRNode *, BufferFacts> collect_buffer_facts(const Halide::Internal::Stmt &s);

}  // namespace harena
