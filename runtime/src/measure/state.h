// Measuring arenas (harena_create_measuring): a planned pipeline called with
// one records the bytes it needs instead of running. Owned by measure/measure.cpp.
#pragma once

#include <cstdint>

namespace harena::detail {

class Measure {
public:
    void start() {
        on_ = true;
    }
    [[nodiscard]] bool on() const {
        return on_;
    }
    // harena_pipeline_enter: true for a measuring arena, which keeps the
    // call's request; the call then stops.
    [[nodiscard]] bool take(uint64_t bytes, uint64_t worst_case_bytes);
    [[nodiscard]] uint64_t bytes() const {
        return bytes_;
    }
    [[nodiscard]] uint64_t worst_case_bytes() const {
        return worst_case_bytes_;
    }

private:
    bool on_ = false;
    uint64_t bytes_ = 0;  // the last planned pipeline's request
    uint64_t worst_case_bytes_ = 0;
};

}  // namespace harena::detail
