#pragma once
// A pipeline planned into an arena argument from Python, as
// harena::plan_into_argument plans one from C++, kept so that it can answer
// the bytes a call needs at sizes other than the estimates: the pass is
// lowered again up to the plan with those sizes standing in as estimates.
#include "generator/lowering_pass.h"

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace harena::python {

// A size of one argument: the extents of a buffer (input or output), or the
// value of a scalar.
struct GivenSize {
    std::vector<int64_t> extents;  // a buffer's, one per dimension
    bool scalar = false;
    double value = 0;  // a scalar's
};

struct JitPlanResult {
    uint64_t bytes_at_estimates = 0;
    int buffers = 0;
    int buffers_planned = 0;
    int slot_pools = 0;
    std::string unplanned;  // a line per buffer left to Halide's allocator
    bool bounded = true;    // false: a call beyond the estimates may need more
};

class JitPlanner {
public:
    // Attaches the pass to `pipeline` (for `target` only) with `arena` (an
    // ImageParam's or a generator Input's parameter) as the arena argument and lowers it once up to the plan. Throws
    // Halide::CompileError where `arena` is not uint8 of one dimension.
    JitPlanner(Halide::Pipeline pipeline, const Parameter &arena, const Halide::Target &target,
               const PassOptions &options);

    // The planned pipeline, to realize or compile.
    [[nodiscard]] Halide::Pipeline pipeline() const {
        return pipeline_;
    }
    [[nodiscard]] const JitPlanResult &at_estimates() const {
        return at_estimates_;
    }
    // The bytes a call needs where the named arguments have the given sizes
    // (the others keep their estimates). Throws Halide::CompileError naming
    // an unknown argument or a wrong number of extents.
    [[nodiscard]] uint64_t bytes_for(const std::map<std::string, GivenSize> &sizes);

private:
    JitPlanResult probe();

    Halide::Pipeline pipeline_;
    Halide::Target target_;
    std::string name_;
    std::shared_ptr<LoweringPassState> state_ = std::make_shared<LoweringPassState>();
    JitPlanResult at_estimates_;
};

}  // namespace harena::python
