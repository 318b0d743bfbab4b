#include "placed_calls.h"

#include <memory>
#include <string>
#include <utility>

#include "core/arena.h"
#include "core/errors.h"
#include "harena/runtime.h"
#include "graph/unplanned_calls.h"

// The graph cache holds an override's recording as its opaque
// UnplannedRecording (graph/unplanned_calls.h): that is one call's
// allocations.
struct harena::detail::UnplannedRecording : harena::override_detail::CallAllocations {};

namespace harena::override_detail {

__thread PlacedCall *placed_call_now = nullptr;

// A recording call follows nothing: take_placed() declines every allocation,
// which bumps and is noted with bumped().
PlacedCall::PlacedCall(harena_arena &arena, CallAllocations &recording)
    : arena_(arena), writing_(&recording), recording_(recording), followed_(false) {
}

PlacedCall::PlacedCall(harena_arena &arena, const CallAllocations &recording)
    : arena_(arena), recording_(recording) {
}

void PlacedCall::diverge(std::string what) {
    if (followed_) {
        followed_ = false;
        difference_ = std::move(what);
    }
}

bool PlacedCall::take_placed(uint64_t bytes, uint64_t *address) {
    if (!followed_) {
        return false;
    }
    const std::vector<CallEvent> &events = recording_.events();
    if (next_ == events.size() || !events[next_].allocation) {
        diverge("the call made an allocation of " + std::to_string(bytes) + " bytes where the first call " +
                (next_ == events.size() ? std::string("had finished allocating") :
                                          "freed " + recording_.name_of(events[next_].index)));
        return false;
    }
    const uint32_t index = events[next_].index;
    if (recording_.bytes_of(index) != bytes) {
        diverge("allocation " + std::to_string(index) + " is " + std::to_string(bytes) +
                " bytes, where the first call's was " + recording_.described(index));
        return false;
    }
    next_++;
    *address = base_ + recording_.offset_of(index);
    live_.push_back(Placed{*address, index});
    return true;
}

void PlacedCall::untake(uint64_t address) {
    for (size_t i = 0; i < live_.size(); i++) {
        if (live_[i].address == address) {
            live_.erase(live_.begin() + static_cast<std::ptrdiff_t>(i));
            break;
        }
    }
    diverge("a placed allocation could not be bound to its buffer");
}

void PlacedCall::bumped(uint64_t address, uint64_t bytes, const harena::detail::AllocationName &name) {
    if (writing_ != nullptr) {
        writing_->allocated(address, bytes, name.text());
    }
}

bool PlacedCall::give_back_placed(uint64_t address) {
    if (writing_ != nullptr) {
        writing_->freed(address);
        return false;
    }
    for (size_t i = live_.size(); i-- > 0;) {
        if (live_[i].address != address) {
            continue;
        }
        const uint32_t index = live_[i].index;
        live_.erase(live_.begin() + static_cast<std::ptrdiff_t>(i));
        const std::vector<CallEvent> &events = recording_.events();
        if (followed_ && (next_ == events.size() || !(events[next_] == CallEvent{false, index}))) {
            diverge("the call freed " + recording_.name_of(index) + " out of the first call's order");
        } else if (followed_) {
            next_++;
        }
        return true;
    }
    return false;
}

namespace {

// The call in a frame of its own that reserves `reserve` bytes at its base,
// active on this thread while it runs, with `placed` (may be null) current
// and given the frame's base.
int in_own_frame(harena_arena &arena, uint64_t reserve, PlacedCall *placed, harena_graph_call call, void *closure) {
    harena_frame frame;
    if (int err = harena_push(&arena, reserve, &frame)) {
        return err;
    }
    harena_scope scope;
    if (int err = harena_scope_attach(&scope, &arena)) {
        (void)harena_pop(&arena, frame);
        return err;
    }
    PlacedCall *outer = placed_call_now;
    if (placed != nullptr) {
        placed->start(frame.base);
    }
    placed_call_now = placed;
    const int result = call(&arena, closure);
    placed_call_now = outer;
    const int ended = harena_scope_end(&scope);
    const int popped = harena_pop(&arena, frame);
    return result != 0 ? result : ended != 0 ? ended :
                                               popped;
}

using harena::detail::UnplannedRecording;

int record(harena_arena &arena, harena_graph_call call, void *closure, UnplannedRecording **recording) {
    auto allocations = std::make_unique<UnplannedRecording>();
    PlacedCall recorder(arena, *allocations);
    const int result = in_own_frame(arena, 0, &recorder, call, closure);
    if (result == 0) {
        allocations->place(arena.alignment);
        *recording = allocations.release();
    }
    return result;
}

int place(harena_arena &arena, const UnplannedRecording &recording, harena_graph_call call, void *closure,
          std::string *difference) {
    PlacedCall placed(arena, recording);
    const int result = in_own_frame(arena, recording.footprint(), &placed, call, closure);
    if (!placed.followed()) {
        *difference = "a call of a pipeline built without the arena feature allocated differently from the first "
                      "call with the same arguments (" +
                      (placed.difference().empty() ? std::string("it made fewer allocations") : placed.difference()) +
                      "); put whatever changes its allocations (a scalar argument, a buffer's shape) in the key";
    }
    return result;
}

int run(harena_arena &arena, harena_graph_call call, void *closure) {
    return in_own_frame(arena, 0, nullptr, call, closure);
}

const char *refusal(const UnplannedRecording &recording) {
    return recording.refusal().empty() ? nullptr : recording.refusal().c_str();
}

bool outlives(const UnplannedRecording &recording) {
    return recording.outlives();
}

void discard(UnplannedRecording *recording) {
    delete recording;
}

const harena::detail::UnplannedCalls kLent = {record, place, run, refusal, outlives, discard};

// Linking the override into a program is what lets the graph cache capture
// its pipelines built without the arena feature.
[[maybe_unused]] const bool lent = (harena::detail::lend_unplanned_calls(&kLent), true);

}  // namespace

}  // namespace harena::override_detail
