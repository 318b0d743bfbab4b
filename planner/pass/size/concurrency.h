#pragma once
// What runs concurrently in a lowered pipeline, as the census walks it: the
// parallel loops of the host, each a region whose iterations' buffers take
// slots (ParallelRegion), and the async bodies (Fork nodes), whose branches
// run at once, so that everything planned inside the outermost Fork of a
// region lives for the whole Fork.
#include "types.h"

#include <map>
#include <vector>

namespace harena {

class Concurrency {
public:
    Concurrency();

    // The region of the buffers allocated here: the innermost parallel loop
    // around, or 0 (the frame).
    [[nodiscard]] int region() const {
        return stack_.back();
    }

    // A parallel loop of the host, entered and left at program steps.
    void enter_parallel_loop(const Halide::Internal::For *op, int64_t step);
    void leave_parallel_loop(int64_t step);

    // A Fork, entered and left at program steps; leaving the outermost one
    // of a region widens the lifetimes of what was planned inside it.
    void enter_fork(int64_t step);
    void leave_fork(int64_t step, std::vector<Candidate> &found);

    // found[index] is planned in the current region.
    void planned(int index);

    [[nodiscard]] std::vector<ParallelRegion> take_regions() {
        return std::move(regions_);
    }

private:
    // The outermost Fork open in a region, the candidates planned in that
    // region since, and the outermost parallel loops entered in it.
    struct OpenFork {
        int region;
        int64_t begin;
        std::vector<int> candidates, regions;
    };
    OpenFork *fork_of(int region);

    std::vector<ParallelRegion> regions_;  // regions_[0] is the frame
    std::vector<int> stack_{0};            // the regions around, innermost last
    std::map<int, int> fork_depth_;        // region -> Forks open within it
    std::vector<OpenFork> open_forks_;
};

}  // namespace harena
