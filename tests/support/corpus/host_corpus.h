// The corpus (generators/corpus) built for the host, in one place for every
// program that runs it: each generator's drivers bound to its plain and
// arena host builds. Linking harena_corpus_host links those builds, which
// share one Halide runtime.
#pragma once

#include <vector>

#include "corpus_pipelines.h"

namespace harena_corpus {

// In generators/corpus's order.
const std::vector<Pipeline> &host_pipelines();

}  // namespace harena_corpus
