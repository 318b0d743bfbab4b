#pragma once
// Whether one call of a planned pipeline, captured as a CUDA graph, replays
// the whole call: every piece of its work must be a GPU kernel on planned
// buffers (a graph repeats kernel launches and device copies, nothing on the
// host), or a host stage whose result is a function of the graph's key.
#include "types.h"

#include <set>

namespace harena {

// The buffers of host stages that read only scalars and other such stages
// ("key-host buffers"): their contents follow from the call's scalar
// arguments and shapes, which a graph cache's key holds, so a graph that
// replays their upload from a block it owns replays them.
std::set<std::string> key_host_buffers(const Halide::Internal::Stmt &s);

// Explains the first obstacle in *why when it returns false (if given).
bool is_capturable(const Halide::Internal::Stmt &s, const std::vector<Candidate> &candidates, bool device_target,
                   std::string *why = nullptr);

}  // namespace harena
