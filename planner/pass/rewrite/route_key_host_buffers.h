#pragma once
// Routes the host allocation of each key-host buffer (report/capturability.h) that
// Halide keeps on host and device to harena_key_host_malloc, which during a
// graph capture places it in a pinned block the graph owns, so that the
// captured upload copies this key's values at every replay.
#include "Halide.h"

#include <set>
#include <string>

namespace harena {

Halide::Internal::Stmt route_key_host_buffers(const Halide::Internal::Stmt &s, const std::set<std::string> &buffers);

}  // namespace harena
