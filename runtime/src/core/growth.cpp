#include "core/growth.h"

namespace harena::detail {

// Constant-initialised, as core/checking.cpp's table.
const GrowthHooks *growth = nullptr;

void install_growth(const GrowthHooks *hooks) {
    growth = hooks;
}

}  // namespace harena::detail
