// Whether a CUDA graph capture is in progress on an arena, and what the
// entries of planned pipelines saw of it: the pipeline ABI's answer to a
// pipeline that declared itself not capturable (HARENA_PIPELINE_CAPTURABLE
// unset) is to refuse the call while a capture lasts, so that it runs again,
// normally, after it. The graph feature begins and ends captures; the core
// only answers entries.
#pragma once

namespace harena::detail {

class CaptureWatch {
public:
    // What the capture saw: whether a planned pipeline entered, and whether
    // it declared itself not capturable.
    struct Seen {
        bool entered = false;
        bool refused = false;
    };

    void begin();
    Seen end();

    // harena_pipeline_enter during a capture: true when the call must not
    // run now (it runs again, normally, after the capture). `capturable`:
    // the pipeline's trait, and nothing else of the arena forbids it.
    [[nodiscard]] bool refuses(bool capturable) {
        return active_ && note_entry(capturable);
    }

private:
    bool note_entry(bool capturable);

    bool active_ = false;
    Seen seen_;
};

}  // namespace harena::detail
