// What planned pipelines' entries tell a capture in progress.
#include "core/capture_watch.h"

namespace harena::detail {

void CaptureWatch::begin() {
    active_ = true;
    seen_ = Seen{};
}

CaptureWatch::Seen CaptureWatch::end() {
    active_ = false;
    return seen_;
}

bool CaptureWatch::note_entry(bool capturable) {
    seen_.entered = true;
    if (!capturable) {
        seen_.refused = true;
    }
    return !capturable;
}

}  // namespace harena::detail
