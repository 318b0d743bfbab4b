// A CUDA graph capture in progress on an arena (the graph cache begins and
// ends it) and what the planned pipeline's entry saw of it. Owned by
// graph/capture.cpp.
#pragma once

namespace harena::detail {

class Capture {
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
