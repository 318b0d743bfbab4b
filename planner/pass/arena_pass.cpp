#include "arena_pass.h"

#include "buffer_census.h"
#include "capturability.h"
#include "plan_report.h"
#include "preamble.h"
#include "representative.h"
#include "rewrite_allocations.h"
#include "route_argument_buffers.h"
#include "run_layout.h"
#include "runtime_calls.h"
#include "solver/solver.h"
#include "solver/validator.h"

#include <algorithm>
#include <chrono>
#include <functional>
#include <iostream>
#include <numeric>
#include <set>
#include <sstream>

namespace harena {

using namespace Halide;
using namespace Halide::Internal;

int PassReport::planned_count() const {
    int n = 0;
    for (const BufferDecision &b : buffers) {
        n += b.planned;
    }
    return n;
}

double PassReport::ratio() const {
    return lower_bound ? (double)plan_bytes / (double)lower_bound : 1.0;
}

namespace {

// The interface the pipeline itself allocates planned buffers with.
class FindDeviceInterface : public IRVisitor {
public:
    Expr found;
    using IRVisitor::visit;
    void visit(const Call *op) override {
        if (!found.defined() &&
            (op->name == "halide_device_malloc" || op->name == "halide_copy_to_device" ||
             op->name == "halide_device_and_host_malloc") &&
            op->args.size() == 2) {
            found = op->args[1];
        }
        IRVisitor::visit(op);
    }
};

class MentionsAllocation : public IRVisitor {
public:
    explicit MentionsAllocation(const std::map<const IRNode *, Placement> &p)
        : placed(p) {
    }
    const std::map<const IRNode *, Placement> &placed;
    bool found = false;
    using IRVisitor::visit;
    void visit(const Allocate *op) override {
        found |= placed.count(op) > 0;
        IRVisitor::visit(op);
    }
    void visit(const LetStmt *op) override {
        found |= placed.count(op) > 0;
        IRVisitor::visit(op);
    }
};

// Wraps the innermost statement on the top-level spine that holds every
// planned allocation. The frame must open after the argument checks: Halide
// emits a run of four or more asserts as one batch whose failure returns
// without running registered destructors, so a frame opened before such a
// batch would stay pushed when a check fails.
Stmt open_before_first_use(const Stmt &s, const std::map<const IRNode *, Placement> &placed,
                           const std::function<Stmt(const Stmt &)> &prologue) {
    auto mentions = [&](const Stmt &t) {
        MentionsAllocation m(placed);
        t.accept(&m);
        return m.found;
    };
    if (const LetStmt *op = s.as<LetStmt>(); op && !placed.count(op)) {
        return LetStmt::make(op->name, op->value, open_before_first_use(op->body, placed, prologue));
    }
    if (const Block *op = s.as<Block>(); op && !mentions(op->first)) {
        return Block::make(op->first, open_before_first_use(op->rest, placed, prologue));
    }
    if (const IfThenElse *op = s.as<IfThenElse>(); op && is_pipeline_branch(op)) {
        return IfThenElse::make(op->condition, open_before_first_use(op->then_case, placed, prologue));
    }
    return prologue(s);
}

Expr null_device_interface() {
    return reinterpret(type_of<halide_device_interface_t *>(), make_zero(UInt(64)));
}

// Opens the pipeline's frame in the arena (user_context) and closes it on
// every exit path, success or error.
Stmt open_frame(const Stmt &body, const PassOptions &options, const Expr &device_interface, const Expr &needed,
                uint64_t worst, uint32_t traits) {
    Expr status = Variable::make(Int(32), "harena.status");
    Expr base = Variable::make(UInt(64), "harena.base");
    Expr enter = runtime_calls::pipeline_enter(options.pipeline_name, device_interface, needed, worst, traits,
                                               options.alignment);
    Expr exit = runtime_calls::register_pipeline_exit(base);
    // In guard mode the band at the frame's start is checked before a
    // successful return, so that a damaged one fails the call: the exit's
    // own check at the pop can only report.
    Expr lead = runtime_calls::guard_check(base);
    Stmt check_lead = checked_call("harena.guard_status.lead", lead, Variable::make(UInt(64), "harena.guard"));
    Stmt s = Block::make(Evaluate::make(exit), Block::make(body, check_lead));
    s = LetStmt::make("harena.base", runtime_calls::pipeline_base(), s);
    s = Block::make(AssertStmt::make(status == 0, status), s);
    return LetStmt::make("harena.status", enter, s);
}

// The representative values of the names the per-call buffers depend on, in
// the order the buffers name them.
std::vector<RepresentativeValue> representative_values(const PassReport &report, const Preamble &preamble) {
    std::vector<RepresentativeValue> out;
    std::set<std::string> seen;
    for (const BufferDecision &d : report.buffers) {
        for (const std::string &name : d.unbounded_by) {
            auto it = preamble.assumed.find(name);
            if (it != preamble.assumed.end() && seen.insert(name).second) {
                out.push_back(RepresentativeValue{name, it->second.value, it->second.source});
            }
        }
    }
    return out;
}

std::string kind_name(const Candidate &c) {
    switch (c.kind) {
    case BufferKind::Device:
        return "device";
    case BufferKind::DeviceAndHost:
        return "device (also on host)";
    case BufferKind::Host:
        break;
    }
    return "host";
}

}  // namespace

Stmt plan_arena(const Stmt &s, const PassOptions &options, PassReport *report_out) {
    auto start = std::chrono::steady_clock::now();
    Preamble preamble = read_preamble(s);
    choose_representative_values(preamble, options.nominal_extent);
    std::vector<Candidate> candidates = take_census(s, preamble, CensusOptions{options.device_target, options.unbounded});

    Problem problem;
    std::vector<const Candidate *> planned;
    for (const Candidate &c : candidates) {
        if (c.planned) {
            // Allocation names repeat across specializations; distinct ids
            // keep the rows of the plan's CSV and SVG apart.
            std::string id = c.name;
            for (int k = 2; std::any_of(problem.buffers.begin(), problem.buffers.end(),
                                        [&](const Buffer &b) { return b.id == id; });
                 k++) {
                id = c.name + "#" + std::to_string(k);
            }
            // At least one alignment unit, so that every two buffers alive
            // together are ordered in the plan and stay apart in every call,
            // whatever its sizes (solver/compaction.h).
            uint64_t bytes = std::max<uint64_t>(c.planned_bytes, options.alignment);
            problem.buffers.push_back(Buffer{id, c.begin, c.end, bytes, options.alignment});
            planned.push_back(&c);
        }
    }
    Plan plan = solve(problem);
    Validation valid = validate(problem, plan);
    if (!valid.ok) {
        throw InternalError("harena: the solver's plan for " + options.pipeline_name +
                            " failed validation: " + valid.error);
    }

    PassReport report;
    report.pipeline_name = options.pipeline_name;
    report.plan_bytes = plan.arena_bytes;
    report.arena_bytes = (plan.arena_bytes + options.alignment - 1) / options.alignment * options.alignment;
    report.lower_bound = plan.lower_bound;
    report.solve_seconds = plan.solve_seconds;
    // This run's layout: the plan replayed for the sizes of this call (see
    // solver/compaction.h), as lets evaluated where the frame opens.
    RunLayout layout = run_layout(problem, plan, planned, options.alignment);
    std::map<const IRNode *, Placement> placed;
    size_t k = 0;
    for (const Candidate &c : candidates) {
        BufferDecision d;
        d.name = c.name;
        d.kind = kind_name(c);
        d.planned = c.planned;
        d.reason = c.reason;
        if (c.size.defined()) {
            std::ostringstream size;
            size << c.size;
            d.size_expr = size.str();
        }
        if (c.planned) {
            d.planned_bytes = c.planned_bytes;
            d.bounded = c.bounded;
            d.unbounded_by = c.unbounded_by;
            d.begin = c.begin;
            d.end = c.end;
            d.offset = plan.offsets[k];
            placed[c.node] = Placement{&c, layout.offsets[k], layout.sizes[k]};
            report.bounded &= c.bounded;
            k++;
        }
        report.buffers.push_back(d);
    }
    report.representative = representative_values(report, preamble);

    Stmt result = s;
    std::string not_capturable;
    report.capturable = is_capturable(s, candidates, options.device_target, &not_capturable);
    if (report.capturable && placed.empty()) {
        // The runtime learns that a call is planned from its entry, which a
        // pipeline that plans nothing does not make.
        report.capturable = false;
        not_capturable = "it plans no buffer, so it never enters the arena";
    }
    const uint32_t traits = HARENA_PIPELINE_GUARDS | (report.capturable ? HARENA_PIPELINE_CAPTURABLE : 0);
    if (!placed.empty()) {
        Expr device_interface = null_device_interface();
        if (options.device_target) {
            FindDeviceInterface f;
            s.accept(&f);
            if (!f.found.defined()) {
                throw InternalError("harena: device buffers planned but no device allocation or copy seen");
            }
            device_interface = f.found;
        }
        // Opening the frame rebuilds only the spine, so Allocate nodes keep
        // their identity for the rewrite.
        result = open_before_first_use(s, placed, [&](const Stmt &body) {
            // An unbounded pipeline has no worst case to quote: 0 says so.
            Stmt framed = open_frame(body, options, device_interface, layout.needed,
                                     report.bounded ? report.arena_bytes : 0, traits);
            for (auto it = layout.lets.rbegin(); it != layout.lets.rend(); ++it) {
                framed = LetStmt::make(it->first, it->second, framed);
            }
            if (options.device_target) {
                // Whether a memory checker is attached, asked once per call.
                framed = LetStmt::make("harena.nvtx", runtime_calls::nvtx_attached(),
                                       framed);
            }
            return framed;
        });
        Checks checks{layout.guard, Expr(), options.pipeline_name};
        if (options.device_target) {
            checks.nvtx = Variable::make(Int(32), "harena.nvtx");
        }
        result = rewrite_allocations(result, placed, Variable::make(UInt(64), "harena.base"), device_interface,
                                     checks);
        if (options.device_target) {
            result = route_argument_buffers(result);
        }
    }

    if (options.trace >= 2) {
        for (const BufferDecision &d : report.buffers) {
            std::cerr << "harena: " << options.pipeline_name << ": " << d.name << " (" << d.kind << "): ";
            if (d.planned) {
                std::cerr << "planned at offset " << d.offset << ", " << d.planned_bytes
                          << (d.bounded ? " bytes worst case" : " bytes at the representative sizes, sized per call")
                          << ", live [" << d.begin << ", " << d.end << ")\n";
            } else {
                std::cerr << "not planned: " << d.reason << "\n";
            }
        }
    }
    if (options.trace >= 1) {
        std::cerr << plan_summary(report) << "\n";
    }
    if (options.trace >= 2 && options.device_target) {
        std::cerr << "harena: " << options.pipeline_name << ": "
                  << (report.capturable ? "capturable as a CUDA graph" : "not capturable as a CUDA graph: " + not_capturable)
                  << "\n";
    }
    if (options.trace >= 2) {
        double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
        std::cerr << "harena: " << options.pipeline_name << ": the pass took " << ms << " ms, " << report.solve_seconds * 1e3
                  << " ms of it in the solver\n";
    }
    if (!options.report_dir.empty()) {
        write_plan_report(report, problem, plan, options.report_dir);
    }
    if (report_out) {
        *report_out = std::move(report);
    }
    return result;
}

Stmt ArenaPlannerPass::mutate(const Stmt &s) {
    return plan_arena(s, options_);
}

}  // namespace harena
