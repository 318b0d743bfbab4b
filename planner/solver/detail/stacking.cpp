#include "solver/detail/stacking.h"

#include <algorithm>

namespace harena::detail {

bool StackingCheck::possible(uint64_t &work) {
    work += 4 * above_.size();
    std::sort(above_.begin(), above_.end());
    for (const auto &[lowest, size] : above_) {
        if (lowest > filled_) return false;
        filled_ += size;
    }
    return true;
}

}  // namespace harena::detail
