#include "core/checking.h"

namespace harena::detail {

// Constant-initialised, so arenas created by other start-up code see either
// null or the feature's table.
const CheckingHooks *checking = nullptr;

void install_checking(const CheckingHooks *hooks) {
    checking = hooks;
}

}  // namespace harena::detail
