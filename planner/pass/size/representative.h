#pragma once
// Representative sizes for a pipeline that declares no maximum for some of
// its sizes: the plan's layout is chosen at these values and replayed for each
// call's actual sizes. Every argument field (buffer extent and min) and scalar
// parameter without a declared bound takes, in this order, the pipeline's
// estimate for it (set_estimates, Input::set_estimate) or a nominal value.
#include "size/preamble.h"

#include <cstdint>

namespace harena {

// Fills preamble.representative and preamble.assumed. `nominal_extent` is
// the value of an extent or scalar that has neither a maximum nor an estimate.
void choose_representative_values(Preamble &preamble, int64_t nominal_extent);

}  // namespace harena
