#pragma once
// Whether one call of a planned pipeline, captured as a CUDA graph, replays
// the whole call: every piece of its work must be a GPU kernel on planned
// buffers (a graph repeats kernel launches and device copies, nothing on the
// host).
#include "buffer_census.h"

namespace harena {

// Explains the first obstacle in *why when it returns false (if given).
bool is_capturable(const Halide::Internal::Stmt &s, const std::vector<Candidate> &candidates, bool device_target,
                   std::string *why = nullptr);

}  // namespace harena
