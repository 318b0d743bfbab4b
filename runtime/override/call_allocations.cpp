#include "call_allocations.h"

#include "solver/problem.h"
#include "solver/solver.h"
#include "solver/validator.h"

#include <utility>

namespace harena::override_detail {

void CallAllocations::allocated(uint64_t address, uint64_t bytes, std::string name) {
    events_.push_back(CallEvent{true, static_cast<uint32_t>(allocations_.size())});
    allocations_.push_back(Allocation{address, bytes, std::move(name), true});
}

void CallAllocations::freed(uint64_t address) {
    // The newest first: frees mostly come in the reverse order of allocation.
    for (size_t i = allocations_.size(); i-- > 0;) {
        if (allocations_[i].live && allocations_[i].address == address) {
            allocations_[i].live = false;
            events_.push_back(CallEvent{false, static_cast<uint32_t>(i)});
            return;
        }
    }
}

namespace {

// The allocations as the solver's problem: each lives from its allocation's
// step to its free's, the steps numbered in the call's order.
harena::Problem problem_of(const std::vector<CallEvent> &events, size_t count, uint64_t alignment,
                           const std::vector<uint64_t> &sizes) {
    harena::Problem problem;
    problem.buffers.resize(count);
    for (size_t step = 0; step < events.size(); step++) {
        harena::Buffer &b = problem.buffers[events[step].index];
        if (events[step].allocation) {
            b.begin = static_cast<int64_t>(step);
        } else {
            b.end = static_cast<int64_t>(step);
        }
    }
    for (size_t i = 0; i < count; i++) {
        problem.buffers[i].id = "allocation " + std::to_string(i);
        problem.buffers[i].size = sizes[i];
        problem.buffers[i].alignment = alignment;
    }
    return problem;
}

}  // namespace

void CallAllocations::place(uint64_t alignment) {
    for (uint32_t i = 0; i < allocations_.size(); i++) {
        if (allocations_[i].live) {
            refusal_ = "device allocation " + described(i) +
                       " outlives the call: the pipeline allocates an output or keeps a buffer on the device, "
                       "which a replay would not repeat";
            outlives_ = true;
            return;
        }
    }
    std::vector<uint64_t> sizes;
    sizes.reserve(allocations_.size());
    for (const Allocation &a : allocations_) {
        // As the bump the recorded call made: at least one alignment unit.
        sizes.push_back(((a.bytes == 0 ? 1 : a.bytes) + alignment - 1) / alignment * alignment);
    }
    try {
        const harena::Problem problem = problem_of(events_, allocations_.size(), alignment, sizes);
        const harena::Plan plan = harena::solve(problem);
        const harena::Validation validation = harena::validate(problem, plan);
        if (!validation.ok) {
            refusal_ = "the placement of the call's allocations failed its check: " + validation.error;
            return;
        }
        offsets_ = plan.offsets;
        footprint_ = plan.arena_bytes;
        refusal_.clear();
    } catch (const harena::InputError &e) {
        refusal_ = std::string("the call's allocations could not be placed: ") + e.what();
    }
}

}  // namespace harena::override_detail
