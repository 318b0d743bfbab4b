#include "jit_planner.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <utility>

namespace harena::python {
namespace {

using Halide::Expr;
using Halide::Internal::Call;
using Halide::Internal::Function;
using Halide::Internal::IRGraphVisitor;
using Halide::Internal::Variable;

// Every parameter the pipeline's definitions read, by name: the scalar and
// buffer inputs a size can be given for.
class CollectParameters : public IRGraphVisitor {
public:
    std::map<std::string, Parameter> found;

private:
    using IRGraphVisitor::visit;
    void visit(const Variable *op) override {
        if (op->param.defined()) {
            found.emplace(op->param.name(), op->param);
        }
        IRGraphVisitor::visit(op);
    }
    void visit(const Call *op) override {
        if (op->param.defined()) {
            found.emplace(op->param.name(), op->param);
        }
        IRGraphVisitor::visit(op);
    }
};

std::map<std::string, Parameter> parameters_of(const Halide::Pipeline &pipeline) {
    CollectParameters collect;
    std::map<std::string, Function> functions;
    for (const Halide::Func &out : pipeline.outputs()) {
        for (const auto &[name, f] : Halide::Internal::find_transitive_calls(out.function())) {
            functions.emplace(name, f);
        }
    }
    for (auto &[name, f] : functions) {
        f.accept(&collect);
    }
    for (const Halide::Func &out : pipeline.outputs()) {
        for (const Halide::OutputImageParam &b : out.output_buffers()) {
            collect.found.emplace(b.name(), b.parameter());
        }
    }
    return collect.found;
}

// A parameter's estimates, saved so that a query can replace and restore them.
struct SavedEstimates {
    Parameter param;
    Expr scalar;
    std::vector<std::pair<Expr, Expr>> dims;  // min, extent
};

SavedEstimates save(const Parameter &p) {
    SavedEstimates s{p, {}, {}};
    if (p.is_buffer()) {
        for (int d = 0; d < p.dimensions(); d++) {
            s.dims.emplace_back(p.min_constraint_estimate(d), p.extent_constraint_estimate(d));
        }
    } else {
        s.scalar = p.estimate();
    }
    return s;
}

void restore(const SavedEstimates &s) {
    Parameter p = s.param;
    if (p.is_buffer()) {
        for (int d = 0; d < p.dimensions(); d++) {
            p.set_min_constraint_estimate(d, s.dims[d].first);
            p.set_extent_constraint_estimate(d, s.dims[d].second);
        }
    } else {
        p.set_estimate(s.scalar);
    }
}

// Puts back every saved parameter's estimates when the query ends, also
// when it throws.
struct EstimatesRestored {
    std::vector<SavedEstimates> saved;
    ~EstimatesRestored() {
        for (const SavedEstimates &s : saved) {
            restore(s);
        }
    }
};

Expr scalar_value(const Halide::Type &t, double v) {
    return t.is_float() ? Halide::Internal::make_const(t, v) : Halide::Internal::make_const(t, (int64_t)std::llround(v));
}

void apply(Parameter p, const std::string &name, const GivenSize &size) {
    if (p.is_buffer()) {
        if (size.scalar || (int)size.extents.size() != p.dimensions()) {
            throw Halide::CompileError("halide_arena: bytes_for: '" + name + "' is a buffer of " +
                                       std::to_string(p.dimensions()) + " dimensions; give it a tuple of " +
                                       std::to_string(p.dimensions()) + " extents\n");
        }
        for (int d = 0; d < p.dimensions(); d++) {
            p.set_min_constraint_estimate(d, Expr(0));
            p.set_extent_constraint_estimate(d, Expr(static_cast<int32_t>(size.extents[d])));
        }
    } else {
        if (!size.scalar) {
            throw Halide::CompileError("halide_arena: bytes_for: '" + name + "' is a scalar; give it a number\n");
        }
        p.set_estimate(scalar_value(p.type(), size.value));
    }
}

}  // namespace

JitPlanner::JitPlanner(Halide::Pipeline pipeline, const Parameter &arena, const Halide::Target &target,
                       const PassOptions &options)
    : pipeline_(std::move(pipeline)), target_(target) {
    if (!arena.is_buffer() || arena.type() != Halide::UInt(8) || arena.dimensions() != 1) {
        throw Halide::CompileError("halide_arena.plan: the arena '" + arena.name() +
                                   "' must be a buffer of UInt(8) and one dimension: halide.ImageParam(halide.UInt(8), 1, name)\n");
    }
    PassOptions pass = options;
    if (pass.pipeline_name.empty()) {
        pass.pipeline_name = pipeline_.outputs().front().name();
    }
    name_ = pass.pipeline_name;
    pass.device_target = target.has_gpu_feature();
    pass.maximum_buffer_size = static_cast<uint64_t>(target.maximum_buffer_size());
    pass.arena_argument = arena.name();
    // JIT takes as arguments the parameters its definitions and requirements
    // use; this requirement makes the unread arena one of them.
    const Expr extent = Variable::make(Halide::Int(32), arena.name() + ".extent.0", arena);
    pipeline_.add_requirement(extent >= 1,
                              "arena argument '" + arena.name() + "' of " + name_ + " is empty");
    if (!pass.device_target) {
        // Halide's code for a buffer it thinks it allocated may store aligned
        // vectors into it, trusting the alignment of Halide's own host
        // allocations (halide.Buffer's, halide_malloc's: 128 bytes). The plan's
        // offsets are multiples of a larger alignment from the arena's start,
        // so an arena that starts at a multiple of 128 keeps every buffer so;
        // a numpy array is often aligned to 16 only, and faults.
        constexpr uint64_t kHostAlignment = 128;
        const Expr buffer = Variable::make(Halide::type_of<halide_buffer_t *>(), arena.name() + ".buffer", arena);
        const Expr host = Call::make(Halide::Handle(), Call::buffer_get_host, {buffer}, Call::Extern);
        const Expr address = Halide::reinterpret(Halide::UInt(64), host);
        pipeline_.add_requirement(address % Expr(kHostAlignment) == Expr(uint64_t(0)),
                                  "arena argument '" + arena.name() + "' of " + name_ +
                                      " starts at an address that is not a multiple of " +
                                      std::to_string(kHostAlignment) +
                                      " bytes; make it with halide_arena.host_arena(bytes) or as a halide.Buffer");
    }
    pipeline_.add_custom_lowering_pass(new ArenaLoweringPass(pass, state_));
    at_estimates_ = probe();
}

JitPlanResult JitPlanner::probe() {
    const PassReport report = probe_plan(pipeline_, *state_, pipeline_.infer_arguments(), target_, name_);
    JitPlanResult r;
    r.bytes_at_estimates = report.arena_bytes;
    r.buffers = static_cast<int>(report.buffers.size());
    r.buffers_planned = report.planned_count();
    r.slot_pools = static_cast<int>(report.slot_pools.size());
    r.bounded = report.bounded;
    for (const BufferDecision &b : report.buffers) {
        if (!b.planned) {
            r.unplanned += b.name + ": " + b.reason + "\n";
        }
    }
    return r;
}

uint64_t JitPlanner::bytes_for(const std::map<std::string, GivenSize> &sizes) {
    const std::map<std::string, Parameter> params = parameters_of(pipeline_);
    for (const auto &[name, size] : sizes) {
        if (params.count(name) == 0) {
            std::string known;
            for (const auto &[n, p] : params) {
                known += (known.empty() ? "" : ", ") + n;
            }
            throw Halide::CompileError("halide_arena: bytes_for: " + name_ + " has no argument '" + name +
                                       "' (its arguments: " + known + ")\n");
        }
    }
    EstimatesRestored restored;
    for (const auto &[name, size] : sizes) {
        const Parameter &p = params.at(name);
        restored.saved.push_back(save(p));
        apply(p, name, size);
    }
    return probe().bytes_at_estimates;
}

}  // namespace harena::python
