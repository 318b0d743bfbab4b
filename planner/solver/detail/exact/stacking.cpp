#include "solver/detail/exact/stacking.h"

#include <algorithm>

namespace harena::detail {

bool StackingCheck::possible(uint64_t &work) {
    // Counted as the sort costs, whether or not it is needed, so that the
    // search's budget covers the same nodes either way.
    work += 4 * above_.size();
    // Without sorting: the first buffer above the fill leaves a gap below it,
    // and with every buffer reaching the fill there is none.
    if (above_.empty() || above_max_ <= filled_) return true;
    if (above_min_ > filled_) return false;
    std::sort(above_.begin(), above_.end());
    for (const auto &[lowest, size] : above_) {
        if (lowest > filled_) return false;
        filled_ += size;
    }
    return true;
}

}  // namespace harena::detail
