#pragma once
// The autoschedulers the release ships as plugins (their paths come from
// the build: HARENA_AUTOSCHEDULER_PLUGINS, "name=path,..."), loaded once,
// and a pipeline scheduled by one of them for the host at its estimates.
#include "Halide.h"

#include <string>
#include <vector>

namespace harena_test {

// The names of the autoschedulers loaded (none where the build gave none).
const std::vector<std::string> &autoschedulers();

// Schedules `pipeline` with autoscheduler `name` for `target`, with
// `parallelism` threads in mind. Throws Halide::CompileError where it
// cannot.
void autoschedule(Halide::Pipeline &pipeline, const std::string &name, const Halide::Target &target, int parallelism);

}  // namespace harena_test
