// A measuring arena keeps the request of the last planned call (state.h).
#include "measure/state.h"

namespace harena::detail {

bool Measure::take(uint64_t bytes, uint64_t worst_case_bytes) {
    if (!on_) {
        return false;
    }
    bytes_ = bytes;
    worst_case_bytes_ = worst_case_bytes;
    return true;
}

}  // namespace harena::detail
