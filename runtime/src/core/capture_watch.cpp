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

bool CaptureWatch::note_entry(const char *pipeline, const char *refusal) {
    if (!seen_.entered) {
        seen_.entered = true;
        seen_.pipeline = std::string("pipeline '") + pipeline + "'";
    }
    if (refusal != nullptr && !seen_.refused) {
        seen_.refused = true;
        seen_.refusal = std::string("pipeline '") + pipeline + "' " + refusal;
    }
    return refusal != nullptr;
}

}  // namespace harena::detail
