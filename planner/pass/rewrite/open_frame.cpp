#include "rewrite/open_frame.h"

#include "runtime_calls.h"

namespace harena {

using namespace Halide;
using namespace Halide::Internal;

namespace {

class FindDeviceInterface : public IRVisitor {
public:
    Expr found;
    using IRVisitor::visit;
    void visit(const Call *op) override {
        if (!found.defined() &&
            (op->name == halide_names::kDeviceMalloc || op->name == halide_names::kCopyToDevice ||
             op->name == halide_names::kDeviceAndHostMalloc) &&
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

// Enters the host companion and leaves it as enter_and_exit does the arena.
// Inside the arena's frame, whose exit is registered first: a failed entry
// here still pops it.
Stmt enter_and_exit_host(const Stmt &body, const FrameEntry &entry) {
    Expr enter = runtime_calls::pipeline_host_enter(entry.pipeline, entry.host_buffers, entry.host_layout->needed,
                                                    entry.host_worst_case_bytes);
    Stmt s = Block::make(Evaluate::make(runtime_calls::register_pipeline_host_exit(host_frame_base())), body);
    s = LetStmt::make("harena.host_base", runtime_calls::pipeline_host_base(), s);
    return Block::make(checked_call("harena.host_status", enter), s);
}

// Enters the arena and leaves it through a registered destructor, so that
// the frame closes on success and error paths alike.
Stmt enter_and_exit(const Stmt &body, const RunLayout &layout, const FrameEntry &entry) {
    Expr status = Variable::make(Int(32), "harena.status");
    Expr enter = runtime_calls::pipeline_enter(entry.pipeline, entry.device_interface, layout.needed,
                                               entry.worst_case_bytes, entry.traits, entry.alignment);
    // Where checks are on, a slice event that failed, or in guard mode the
    // band at the frame's start, fails the call before a successful return:
    // the exit's own check at the pop can only report.
    Stmt end = checked_call("harena.slices_status", runtime_calls::pipeline_slices_end(slice_table(), frame_base()),
                            checks_on());
    Stmt inner = Block::make(body, end);
    if (entry.host_layout != nullptr) {
        inner = enter_and_exit_host(inner, entry);
    }
    Stmt s = Block::make(Evaluate::make(runtime_calls::register_pipeline_exit(frame_base())), inner);
    s = LetStmt::make("harena.base", runtime_calls::pipeline_base(), s);
    s = Block::make(AssertStmt::make(status == 0, status), s);
    return LetStmt::make("harena.status", enter, s);
}

}  // namespace

bool mentions_placed(const Stmt &s, const std::map<const IRNode *, Placement> &placed) {
    MentionsAllocation m(placed);
    s.accept(&m);
    return m.found;
}

Stmt open_before_first_use(const Stmt &s, const std::map<const IRNode *, Placement> &placed,
                           const std::function<Stmt(const Stmt &)> &prologue) {
    auto mentions = [&](const Stmt &t) { return mentions_placed(t, placed); };
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

Expr frame_base() {
    return Variable::make(UInt(64), "harena.base");
}

Expr host_frame_base() {
    return Variable::make(UInt(64), "harena.host_base");
}

Expr checks_on() {
    return Variable::make(Bool(), "harena.checks");
}

Expr slice_table() {
    return Variable::make(Handle(), "harena.slices");
}

std::string slice_names(const std::string &pipeline, const std::vector<const Candidate *> &planned) {
    std::string table = pipeline + "\n";
    for (const Candidate *c : planned) {
        table += c->name + "\n";
    }
    return table;
}

Expr find_device_interface(const Stmt &s) {
    FindDeviceInterface f;
    s.accept(&f);
    return f.found;
}

Expr planned_device_interface(const Stmt &s, bool device_target) {
    if (!device_target) {
        return reinterpret(type_of<halide_device_interface_t *>(), make_zero(UInt(64)));
    }
    Expr found = find_device_interface(s);
    if (!found.defined()) {
        throw InternalError("harena: device buffers planned but no device allocation or copy seen");
    }
    return found;
}

Stmt open_frame(const Stmt &s, const std::map<const IRNode *, Placement> &placed, const RunLayout &layout,
                const FrameEntry &entry) {
    return open_before_first_use(s, placed, [&](const Stmt &body) {
        Stmt framed = enter_and_exit(body, layout, entry);
        // Slice events are reported only where guard mode or a memory
        // checker needs them; both are decided once per call.
        const Expr nvtx = Variable::make(Int(32), "harena.nvtx");
        Expr on = layout.guard != make_zero(UInt(64));
        if (entry.device_target) {
            on = on || nvtx != 0;
        }
        framed = LetStmt::make("harena.checks", on, framed);
        framed = LetStmt::make("harena.slices", runtime_calls::slice_table(entry.slice_names), framed);
        const auto bind_lets = [&](const RunLayout &l) {
            for (auto it = l.lets.rbegin(); it != l.lets.rend(); ++it) {
                framed = LetStmt::make(it->first, it->second, framed);
            }
        };
        if (entry.host_layout != nullptr) {
            bind_lets(*entry.host_layout);
        }
        bind_lets(layout);
        if (entry.device_target) {
            // Whether a memory checker is attached, asked once per call.
            framed = LetStmt::make("harena.nvtx", runtime_calls::nvtx_attached(), framed);
        }
        return framed;
    });
}

Stmt declare_traits(const Stmt &s, uint32_t traits) {
    return Block::make(checked_call("harena.declared", runtime_calls::pipeline_declare(traits)), s);
}

}  // namespace harena
