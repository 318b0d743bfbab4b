// A workload's argument buffers, one set per size it calls the pipeline at,
// made before anything is timed: inputs written and uploaded to the device,
// outputs allocated on the device, all outside any arena scope through
// Halide's own allocator. Calls then find their arguments device-resident
// (never host-dirty), so no regime uploads, downloads or allocates an
// argument, and only the intermediates differ between regimes.
#pragma once

#include "corpus_pipelines.h"

#include <cstdint>
#include <string>
#include <vector>

namespace harena_corpus {

struct Step {
    double scale = 1;  // every spatial extent is this times the generator's estimate
    Workload args;     // host buffers with device memory; args.call fixes the scalar arguments
};

// One step per scale. Step i gets the inputs of the corpus drivers' call i
// (different values per size) and the scalar arguments of their call 0, the
// generators' estimates, so that only image sizes vary. Exits on failure,
// naming the program and what failed.
std::vector<Step> make_steps(const Pipeline &pipeline, const std::vector<double> &scales);

// `count` scales in [low, high], log-uniform (as many halvings as doublings
// around 1x), from a fixed seed so that every run times the same sequence.
std::vector<double> seeded_scales(int count, double low, double high, uint64_t seed);

// Every output's bytes set to a pattern on the device: a call that writes
// nothing leaves it there, and the output check sees it.
void poison_outputs(Step &step);

// The first input's extents, e.g. "1536x2560x3".
std::string shape(const Step &step);

}  // namespace harena_corpus
