#include "size/buffer_census.h"

#include "size/buffer_facts.h"
#include "size/concurrency.h"

#include "host_allocation.h"
#include "size/size_bounds.h"

#include <algorithm>
#include <optional>
#include <set>

namespace harena {

using namespace Halide;
using namespace Halide::Internal;

namespace {

class TakeCensus : public IRVisitor {
public:
    TakeCensus(const Stmt &s, const Preamble &p, const CensusOptions &o)
        : preamble(p), options(o) {
        if (options.device_target) {
            facts = collect_buffer_facts(s);
        }
    }

    std::vector<Candidate> found;
    Concurrency concurrent;

    using IRVisitor::visit;

    void visit(const LetStmt *op) override {
        tick();
        op->value.accept(this);
        const std::optional<int> index = consider_host_and_device(op);
        if (index) {
            const std::string &name = found[*index].name;
            live[name].push_back(*index);
            host_and_device.insert(name);
        }
        // Sizes are expressed in the names visible where the frame opens, so
        // every let below the preamble is substituted into them.
        bool inner = preamble.visible.count(op->name) == 0;
        if (inner) {
            lets.emplace_back(op->name, op->value);
        }
        op->body.accept(this);
        if (inner) {
            lets.pop_back();
        }
        if (index) {
            live[found[*index].name].pop_back();
            host_and_device.erase(found[*index].name);
        }
    }

    void visit(const For *op) override {
        tick();
        op->min.accept(this);
        op->extent.accept(this);
        const bool parallel = op->for_type == ForType::Parallel && !inside_device_code();
        if (parallel) {
            concurrent.enter_parallel_loop(op, step);
        }
        loops.push_back({op->name, op->min, op->extent, op->for_type, op->device_api, {}, {}});
        op->body.accept(this);
        tick();
        for (int c : loops.back().live_across) {
            found[c].end = std::max(found[c].end, step);
        }
        loops.pop_back();
        if (parallel) {
            concurrent.leave_parallel_loop(step);
        }
    }

    // The branches of a Fork run concurrently: everything planned inside the
    // outermost Fork of a region lives for the whole Fork, so that no two
    // branches share bytes.
    void visit(const Fork *op) override {
        tick();
        concurrent.enter_fork(step);
        IRVisitor::visit(op);
        tick();
        concurrent.leave_fork(step, found);
    }

    void visit(const Store *op) override {
        tick();
        use(op->name);
        IRVisitor::visit(op);
    }
    void visit(const Load *op) override {
        use(op->name);
        IRVisitor::visit(op);
    }
    void visit(const Variable *op) override {
        use(op->name);
        if (const std::string owner = buffer_owner(op->name); !owner.empty()) {
            use(owner);
        }
    }
    void visit(const Evaluate *op) override {
        tick();
        IRVisitor::visit(op);
    }
    void visit(const AssertStmt *op) override {
        tick();
        IRVisitor::visit(op);
    }

    void visit(const Allocate *op) override {
        tick();
        for (const Expr &e : op->extents) {
            e.accept(this);
        }
        op->condition.accept(this);
        // The host side of a buffer on host and device: its device part is
        // the candidate, seen at the buffer's creation.
        const std::optional<int> index = host_and_device.count(op->name) ? std::nullopt : consider(op);
        // Kernels reach a lifted heap pool through its data's name, without
        // the .buffer suffix.
        std::string data = is_buffer_object(op) ? buffer_owner(op->name) : op->name;
        if (index) {
            live[op->name].push_back(*index);
            if (data != op->name) {
                live[data].push_back(*index);
            }
        }
        op->body.accept(this);
        if (index) {
            live[op->name].pop_back();
            if (data != op->name) {
                live[data].pop_back();
            }
        }
    }

private:
    struct Loop {
        std::string var;
        Expr min, extent;
        ForType type;
        DeviceAPI device_api;
        std::vector<int> live_across;  // buffers allocated outside, used inside
        // Computed for the first allocation inside: the lets its bounds can
        // name are those around the loop, the same for its whole body.
        std::optional<LoopRange> range;
    };

    const Preamble &preamble;
    const CensusOptions &options;
    std::vector<std::pair<std::string, Expr>> lets;  // enclosing non-preamble lets
    std::vector<Loop> loops;
    std::map<std::string, std::vector<int>> live;  // name -> candidates in scope
    std::map<int, size_t> loop_depth;              // candidate -> loops enclosing its allocation
    std::set<std::string> host_and_device;         // DeviceAndHost candidates in scope
    std::map<const IRNode *, BufferFacts> facts;   // device targets: see collect_buffer_facts
    int64_t step = 0;

    void tick() {
        step++;
    }

    int region() const {
        return concurrent.region();
    }

    void use(const std::string &name) {
        auto it = live.find(name);
        if (it == live.end() || it->second.empty()) {
            return;
        }
        int c = it->second.back();
        found[c].end = std::max(found[c].end, step + 1);
        // A use inside a loop that does not contain the allocation keeps the
        // buffer alive for that whole loop: the next iteration uses it again.
        size_t depth = loop_depth[c];
        if (depth < loops.size()) {
            auto &across = loops[depth].live_across;
            if (std::find(across.begin(), across.end(), c) == across.end()) {
                across.push_back(c);
            }
        }
    }

    bool inside_device_code() const {
        return std::any_of(loops.begin(), loops.end(),
                           [](const Loop &l) { return l.device_api != DeviceAPI::Host && l.device_api != DeviceAPI::None; });
    }
    // Why a buffer inside a parallel loop cannot take a slot, or nullptr
    // where it can (or lies outside every parallel loop). Slots hold the
    // buffers of the arena itself: a host pipeline's, or a GPU pipeline's
    // device-only buffers; the host parts Halide keeps of a GPU pipeline's
    // buffers are left to the runtime there.
    const char *concurrency(const Candidate &c) const {
        const auto device_only = [&] {
            const Allocate *op = c.node->node_type == IRNodeType::Allocate ? static_cast<const Allocate *>(c.node) : nullptr;
            return c.kind == BufferKind::Device && op && is_const_zero(op->condition) && !is_buffer_object(op);
        };
        if (region() != 0 && options.device_target && !device_only()) {
            return "allocated inside a parallel loop of a GPU pipeline, whose iterations run concurrently, and "
                   "kept on the host (slots hold device buffers there)";
        }
        return nullptr;
    }

    // `e` with the enclosing lets substituted, innermost first. A let's value
    // names only what lies outside it, so the names still to substitute are
    // tracked as they appear instead of searching `e` for every let.
    Expr with_lets(Expr e) const {
        const std::vector<std::string> free = free_names(e);
        std::set<std::string> named(free.begin(), free.end());
        for (auto it = lets.rbegin(); it != lets.rend() && !named.empty(); ++it) {
            if (named.erase(it->first)) {
                e = substitute(it->first, it->second, e);
                const std::vector<std::string> more = free_names(it->second);
                named.insert(more.begin(), more.end());
            }
        }
        return simplify(e);
    }

    // The index of the candidate if it is planned; nothing if it is not, or
    // is no intermediate the arena could hold (stack, registers, GPU shared
    // memory), which is not recorded at all.
    std::optional<int> consider(const Allocate *op) {
        if (inside_device_code()) {
            return std::nullopt;
        }
        switch (op->memory_type) {
        case MemoryType::Auto:
        case MemoryType::Heap:
            break;
        default:
            return std::nullopt;
        }
        Candidate c;
        c.node = op;
        c.name = op->name;
        c.begin = step;
        c.end = step + 1;
        DeviceShape shape;
        if (options.device_target) {
            const BufferFacts &u = facts[op];
            if (!u.init_value.defined() || !(u.device_malloc || u.copy_to_device || u.device_and_host_malloc)) {
                if (kept_on_stack(op)) {
                    return std::nullopt;
                }
                // A host-only buffer, planned in the arena's host companion.
                c.kind = BufferKind::Host;
                return bound(c, host_shape(op));
            }
            c.kind = BufferKind::Device;
            if (u.device_and_host_malloc || u.destructor == halide_names::kDeviceAndHostFreeAsDestructor) {
                return record(c, false, "buffer on host and device in an unusual form: left to Halide's allocator");
            }
            if (u.destructor != halide_names::kDeviceFreeAsDestructor || !device_shape_of(u.init_value, shape)) {
                return record(c, false, "no device allocation of the usual form: left to Halide's allocator");
            }
        } else {
            c.kind = BufferKind::Host;
            if (kept_on_stack(op)) {
                return std::nullopt;
            }
            shape = host_shape(op);
        }
        return bound(c, shape);
    }

    // What halide_malloc would get: the extents plus the elements vector
    // loads may read past the end (padding_elements).
    static DeviceShape host_shape(const Allocate *op) {
        DeviceShape shape;
        Expr n = make_const(Int(64), 1);
        for (const Expr &e : op->extents) {
            n = n * max(cast(Int(64), e), 0);
            shape.extents.push_back(cast(Int(64), e));
        }
        shape.bytes = (n + make_const(Int(64), (int64_t)padding_elements(op))) * make_const(Int(64), (int64_t)element_bytes(op));
        return shape;
    }

    // The same bytes (UInt(64)) in the allocation's own extents, in the form
    // of its size-limit check, whose product LLVM then computes once.
    static Expr host_bytes_where_created(const IRNode *node) {
        if (node->node_type != IRNodeType::Allocate) {
            return Expr();  // not created by an Allocate: the frame-level size serves
        }
        const Allocate *op = static_cast<const Allocate *>(node);
        return allocation_bytes(op) + make_const(UInt(64), padding_bytes(op));
    }

    // `let X.buffer = ...` whose buffer Halide allocates on host and device:
    // its device part can be planned. The candidate's index if it is planned.
    std::optional<int> consider_host_and_device(const LetStmt *op) {
        const std::string name = buffer_owner(op->name);
        if (!options.device_target || inside_device_code() || name.empty()) {
            return std::nullopt;
        }
        const BufferFacts &u = facts[op];
        if (!u.device_and_host_malloc || u.destructor != halide_names::kDeviceAndHostFreeAsDestructor) {
            return std::nullopt;
        }
        Candidate c;
        c.node = op;
        c.name = name;
        c.kind = BufferKind::DeviceAndHost;
        c.begin = step;
        c.end = step + 1;
        DeviceShape shape;
        if (!device_shape_of(op->value, shape)) {
            return record(c, false, "buffer on host and device in an unusual form: left to Halide's allocator");
        }
        return bound(c, shape);
    }

    // The checks every candidate shares: not concurrent, and a size that
    // either has a worst case over the declared bounds or can be computed for
    // each call where the frame opens.
    std::optional<int> bound(Candidate c, const DeviceShape &shape) {
        if (const char *why = concurrency(c)) {
            return record(c, false, std::string(why) + ": left to the runtime allocator");
        }
        c.size = with_lets(shape.bytes);
        if (c.kind == BufferKind::Host) {
            c.size_where_created = host_bytes_where_created(c.node);
        }
        std::vector<LoopRange> ranges = loop_ranges();
        SizeBounds b = bound_size(c.size, ranges, preamble);
        if (b.worst) {
            c.bounded = true;
            c.planned_bytes = *b.worst;
            if (b.exact) {
                // The frame reserves exactly the size: nothing can exceed it.
                c.per_call = b.per_call;
            } else {
                // A bound over the loops, or the worst case: never more than
                // the worst case, and checked where the buffer is created.
                Expr worst = make_const(Int(64), (int64_t)*b.worst);
                c.per_call = b.per_call.defined() ? simplify(min(b.per_call, worst)) : worst;
                c.check_where_created = true;
            }
            return plan(c);
        }
        // Written only for a buffer left unplanned or refused: a planned one
        // reports the names it is sized by (unbounded_by).
        const auto unbounded = [&] {
            std::vector<Expr> extents;
            for (const Expr &e : shape.extents) {
                extents.push_back(with_lets(e));
            }
            return unbounded_message(c.name, c.size, extents, ranges, preamble);
        };
        if (options.unbounded == Unbounded::Error) {
            throw CompileError(unbounded() + " (harena.require_bounds=1 asks for a maximum on every size.)");
        }
        if (options.unbounded == Unbounded::Runtime) {
            return record(c, false, unbounded() + " (harena.unbounded=runtime: left to the runtime allocator)");
        }
        if (!b.per_call.defined()) {
            return record(c, false,
                          "its size depends on values computed inside the pipeline, so no call can compute it "
                          "before the first stage runs, and it has no declared maximum: left to the runtime "
                          "allocator. " +
                              unbounded());
        }
        if (!b.representative) {
            return record(c, false,
                          "no representative size: what it depends on has neither a maximum nor an estimate "
                          "the planner can follow: left to the runtime allocator. " +
                              unbounded());
        }
        c.bounded = false;
        c.planned_bytes = *b.representative;
        c.per_call = b.per_call;
        c.check_where_created = !b.exact;
        c.unbounded_by = unbounded_names(c.size, ranges, preamble);
        return plan(c);
    }

    std::optional<int> plan(Candidate c) {
        const int index = static_cast<int>(found.size());
        loop_depth[index] = loops.size();
        c.region = region();
        concurrent.planned(index);
        return record(c, true, "");
    }

    std::optional<int> record(Candidate c, bool planned, const std::string &reason) {
        c.planned = planned;
        c.reason = reason;
        found.push_back(c);
        return planned ? std::optional<int>((int)found.size() - 1) : std::nullopt;
    }

    // The enclosing loops, outermost first, with the lets around each
    // substituted into its bounds.
    std::vector<LoopRange> loop_ranges() {
        std::vector<LoopRange> out;
        for (Loop &l : loops) {
            if (!l.range) {
                l.range = LoopRange{l.var, with_lets(l.min), with_lets(l.min + l.extent - 1)};
            }
            out.push_back(*l.range);
        }
        return out;
    }
};

}  // namespace

Census take_census(const Stmt &s, const Preamble &preamble, const CensusOptions &options) {
    TakeCensus census(s, preamble, options);
    s.accept(&census);
    return Census{std::move(census.found), census.concurrent.take_regions()};
}

}  // namespace harena
