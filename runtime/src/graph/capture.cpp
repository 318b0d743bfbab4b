// Graph capture state of an arena.
#include "graph/state.h"

namespace harena::detail {

void Capture::begin() {
    active_ = true;
    seen_ = Seen{};
}

Capture::Seen Capture::end() {
    active_ = false;
    return seen_;
}

bool Capture::note_entry(bool capturable) {
    seen_.entered = true;
    if (!capturable) {
        seen_.refused = true;
    }
    return !capturable;
}

}  // namespace harena::detail
