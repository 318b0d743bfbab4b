// The hook tables features install when they are linked (core/checking.h,
// core/growth.h, core/companion.h, core/streams.h). Constant-initialised, so arenas created
// by other start-up code see either null or the feature's table.
#include "core/checking.h"
#include "core/companion.h"
#include "core/growth.h"
#include "core/streams.h"

namespace harena::detail {

const CheckingHooks *checking = nullptr;
const GrowthHooks *growth = nullptr;
const CompanionHooks *host_companion = nullptr;
const StreamHooks *stream_order = nullptr;

void install_checking(const CheckingHooks *hooks) {
    checking = hooks;
}

void install_growth(const GrowthHooks *hooks) {
    growth = hooks;
}

void install_host_companion(const CompanionHooks *hooks) {
    host_companion = hooks;
}

void install_stream_order(const StreamHooks *hooks) {
    stream_order = hooks;
}

}  // namespace harena::detail
