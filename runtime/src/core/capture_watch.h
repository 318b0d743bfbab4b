// Whether a CUDA graph capture is in progress on an arena, and what the
// entries of planned pipelines saw of it: the pipeline ABI's answer to a
// pipeline that declared itself not capturable (HARENA_PIPELINE_CAPTURABLE
// unset) is to refuse the call while a capture lasts, so that it runs again,
// normally, after it. The graph feature begins and ends captures; the core
// only answers entries.
#pragma once

#include <string>

namespace harena::detail {

class CaptureWatch {
public:
    // What the capture saw: whether a planned pipeline entered (the first
    // one's name), and whether one was refused, and why.
    struct Seen {
        bool entered = false;
        bool refused = false;
        std::string pipeline;
        std::string refusal;
    };

    void begin();
    Seen end();

    // harena_pipeline_enter (and _declare) during a capture: true when the
    // call must not run now (it runs again, normally, after the capture).
    // `refusal`: null where the pipeline `pipeline` may be captured, else
    // why not, for a person.
    [[nodiscard]] bool refuses(const char *pipeline, const char *refusal) {
        return active_ && note_entry(pipeline, refusal);
    }

private:
    bool note_entry(const char *pipeline, const char *refusal);

    bool active_ = false;
    Seen seen_;
};

}  // namespace harena::detail
