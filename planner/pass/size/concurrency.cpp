#include "size/concurrency.h"

#include <algorithm>

namespace harena {

using namespace Halide::Internal;

Concurrency::Concurrency() {
    regions_.push_back(ParallelRegion{});
}

Concurrency::OpenFork *Concurrency::fork_of(int region) {
    if (fork_depth_[region] == 0) {
        return nullptr;
    }
    for (auto it = open_forks_.rbegin(); it != open_forks_.rend(); ++it) {
        if (it->region == region) {
            return &*it;
        }
    }
    return nullptr;
}

void Concurrency::enter_parallel_loop(const For *op, int64_t step) {
    const int id = static_cast<int>(regions_.size());
    const int outermost = region() == 0 ? id : regions_[region()].outermost;
    regions_.push_back(ParallelRegion{op, op->name, outermost, step, step});
    // An outermost loop's pool is alive for the Fork around it too.
    if (region() == 0) {
        if (OpenFork *fork = fork_of(0)) {
            fork->regions.push_back(id);
        }
    }
    stack_.push_back(id);
}

void Concurrency::leave_parallel_loop(int64_t step) {
    ParallelRegion &r = regions_[region()];
    if (r.outermost == region()) {
        r.end = step + 1;
    }
    stack_.pop_back();
}

void Concurrency::enter_fork(int64_t step) {
    if (fork_depth_[region()]++ == 0) {
        open_forks_.push_back(OpenFork{region(), step, {}, {}});
    }
}

void Concurrency::leave_fork(int64_t step, std::vector<Candidate> &found) {
    if (--fork_depth_[region()] != 0) {
        return;
    }
    const OpenFork &fork = open_forks_.back();
    for (int c : fork.candidates) {
        found[c].begin = std::min(found[c].begin, fork.begin);
        found[c].end = std::max(found[c].end, step + 1);
    }
    for (int r : fork.regions) {
        regions_[r].begin = std::min(regions_[r].begin, fork.begin);
        regions_[r].end = std::max(regions_[r].end, step + 1);
    }
    open_forks_.pop_back();
}

void Concurrency::planned(int index) {
    if (OpenFork *fork = fork_of(region())) {
        fork->candidates.push_back(index);
    }
}

}  // namespace harena
