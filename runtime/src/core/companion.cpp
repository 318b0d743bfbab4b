#include "core/companion.h"

namespace harena::detail {

// Constant-initialised, as core/checking.cpp's table.
const CompanionHooks *host_companion = nullptr;

void install_host_companion(const CompanionHooks *hooks) {
    host_companion = hooks;
}

}  // namespace harena::detail
