// The device allocations one call of a pipeline made through the override,
// in order, with their lifetimes, and where a later call with the same
// arguments puts each of them: offsets from the solver (planner/solver),
// checked by its independent validator before any call uses them. This is
// what lets the graph cache replay pipelines built without the arena
// feature (placed_calls.h).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace harena::override_detail {

// One step of a call: the index-th allocation was made, or was freed.
struct CallEvent {
    bool allocation = false;
    uint32_t index = 0;

    bool operator==(const CallEvent &other) const {
        return allocation == other.allocation && index == other.index;
    }
};

class CallAllocations {
public:
    // While the call runs: the override bumped `bytes` at `address` for the
    // buffer `name` describes...
    void allocated(uint64_t address, uint64_t bytes, std::string name);
    // ...and freed the allocation at `address` (nothing when this call did
    // not make it).
    void freed(uint64_t address);

    // After the call: places every allocation in one block of the arena.
    // `alignment` is the arena's: every allocation takes its bytes rounded
    // up to it, as a bump would. Afterwards refusal() is empty when later
    // calls can take the placement.
    void place(uint64_t alignment);

    // Why calls that allocate this way cannot be replayed (an allocation
    // outlives the call, or there is no checked placement); empty if none.
    const std::string &refusal() const {
        return refusal_;
    }
    // Whether the refusal is that an allocation outlives the call.
    bool outlives() const {
        return outlives_;
    }
    const std::vector<CallEvent> &events() const {
        return events_;
    }
    uint64_t bytes_of(uint32_t index) const {
        return allocations_[index].bytes;
    }
    const std::string &name_of(uint32_t index) const {
        return allocations_[index].name;
    }
    // "<name> (<bytes> bytes)", for messages.
    std::string described(uint32_t index) const {
        return allocations_[index].name + " (" + std::to_string(allocations_[index].bytes) + " bytes)";
    }
    // Where the allocation lies from the start of the block.
    uint64_t offset_of(uint32_t index) const {
        return offsets_[index];
    }
    // The block's size: the solver's arena for these lifetimes.
    uint64_t footprint() const {
        return footprint_;
    }
    size_t count() const {
        return allocations_.size();
    }

private:
    struct Allocation {
        uint64_t address = 0;  // during the recorded call
        uint64_t bytes = 0;
        std::string name;
        bool live = true;
    };

    std::vector<Allocation> allocations_;
    std::vector<CallEvent> events_;
    std::vector<uint64_t> offsets_;
    uint64_t footprint_ = 0;
    bool outlives_ = false;
    std::string refusal_ = "the call has not been recorded";
};

}  // namespace harena::override_detail
