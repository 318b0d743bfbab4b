#include "buffer_census.h"

#include <algorithm>
#include <set>
#include <sstream>

namespace harena {

using namespace Halide;
using namespace Halide::Internal;

namespace {

// Largest allocation Halide's codegen keeps on the stack
// (Runtime::Internal::Constants::maximum_stack_allocation_bytes).
constexpr int64_t kMaxStackBytes = 16384;

// How Halide's device runtime sizes a buffer: elem * (1 + sum (extent-1)*|stride|),
// from the shape passed to _halide_buffer_init.
struct DeviceShape {
    Expr bytes;
    std::vector<Expr> extents;  // for naming the dimension that is unbounded
};

Expr strip_lets(const Expr &e, std::vector<std::pair<std::string, Expr>> &lets) {
    if (const Let *op = e.as<Let>()) {
        lets.emplace_back(op->name, op->value);
        return strip_lets(op->body, lets);
    }
    return e;
}

bool device_shape_of(const Expr &buffer_init_value, DeviceShape &out) {
    std::vector<std::pair<std::string, Expr>> lets;
    Expr e = strip_lets(buffer_init_value, lets);
    const Call *init = e.as<Call>();
    if (!init || init->name != Call::buffer_init || init->args.size() < 9) {
        return false;
    }
    Expr shape = init->args[8];
    for (auto it = lets.rbegin(); it != lets.rend(); ++it) {
        shape = substitute(it->first, it->second, shape);
    }
    const Call *ms = shape.as<Call>();
    const int64_t *bits = as_const_int(init->args[6]);
    if (!ms || !ms->is_intrinsic(Call::make_struct) || ms->args.size() % 4 != 0 || !bits) {
        return false;
    }
    Expr span = make_const(Int(64), 1);
    for (size_t d = 0; d + 3 < ms->args.size(); d += 4) {
        Expr extent = cast(Int(64), ms->args[d + 1]);
        Expr stride = cast(Int(64), ms->args[d + 2]);
        out.extents.push_back(extent);
        // max(s, -s): abs() would go through uint64, which bounds inference
        // cannot carry back.
        span = span + max(extent - 1, 0) * max(stride, 0 - stride);
    }
    out.bytes = span * make_const(Int(64), (*bits + 7) / 8);
    return true;
}

bool is_buffer_init(const Expr &e) {
    if (const Let *let = e.as<Let>()) {
        return is_buffer_init(let->body);
    }
    const Call *c = e.as<Call>();
    return c && c->name == Call::buffer_init;
}

// What a buffer's creation and uses look like: its halide_buffer_t, the
// destructor registered on it and the runtime calls made on it. Gathered in
// one walk for every Allocate and every `let X.buffer`, each of which owns the
// calls on X.buffer made inside it (one walk: per-buffer walks of the rest of
// the statement would make the pass quadratic in the pipeline's size).
struct BufferFacts {
    Expr init_value;          // value of the first `let <name>.buffer = ...` inside
    std::string destructor;   // the destructor registered on it
    bool device_malloc = false;
    bool copy_to_device = false;  // reaches the device through a copy, which mallocs
    bool device_and_host_malloc = false;
};

class CollectBufferFacts : public IRVisitor {
public:
    std::map<const IRNode *, BufferFacts> facts;

    using IRVisitor::visit;
    void visit(const Allocate *op) override {
        if (is_buffer_object(op)) {
            // A heap pool FuseGPUThreadLoops lifted out of a kernel: the
            // Allocate is the halide_buffer_t itself, created by its new_expr.
            std::vector<const IRNode *> &stack = owners[buffer_owner(op->name)];
            facts[op].init_value = op->new_expr;
            facts[op].destructor = op->free_function;
            ScopedOwner own(stack, op);
            IRVisitor::visit(op);
            return;
        }
        ScopedOwner own(owners[op->name], op);
        IRVisitor::visit(op);
    }
    void visit(const LetStmt *op) override {
        op->value.accept(this);
        const std::string name = buffer_owner(op->name);
        if (name.empty()) {
            op->body.accept(this);
            return;
        }
        std::vector<const IRNode *> &stack = owners[name];
        for (const IRNode *owner : stack) {
            if (!facts[owner].init_value.defined()) {
                facts[owner].init_value = op->value;
            }
        }
        facts[op].init_value = op->value;
        ScopedOwner own(stack, op);
        op->body.accept(this);
    }
    void visit(const Call *op) override {
        IRVisitor::visit(op);
        if (op->is_intrinsic(Call::register_destructor) && op->args.size() == 2) {
            const StringImm *fn = op->args[0].as<StringImm>();
            for_each_owner(op->args[1], [&](BufferFacts &f) { f.destructor = fn ? fn->value : ""; });
        } else if (!op->args.empty()) {
            bool malloc = op->name == "halide_device_malloc";
            bool copy = op->name == "halide_copy_to_device";
            bool both = op->name == "halide_device_and_host_malloc";
            for_each_owner(op->args[0], [&](BufferFacts &f) {
                f.device_malloc |= malloc;
                f.copy_to_device |= copy;
                f.device_and_host_malloc |= both;
            });
        }
    }

private:
    std::map<std::string, std::vector<const IRNode *>> owners;  // enclosing owners per buffer name

    struct ScopedOwner {
        std::vector<const IRNode *> &stack;
        ScopedOwner(std::vector<const IRNode *> &s, const IRNode *n) : stack(s) { stack.push_back(n); }
        ~ScopedOwner() { stack.pop_back(); }
    };

    template<typename F>
    void for_each_owner(const Expr &buffer, F &&f) {
        const Variable *v = buffer.as<Variable>();
        if (!v || buffer_owner(v->name).empty()) {
            return;
        }
        auto it = owners.find(buffer_owner(v->name));
        if (it != owners.end()) {
            for (const IRNode *owner : it->second) {
                f(facts[owner]);
            }
        }
    }
};

class Census : public IRVisitor {
public:
    Census(const Stmt &s, const Preamble &p, const CensusOptions &o) : preamble(p), options(o) {
        if (options.device_target) {
            CollectBufferFacts collect;
            s.accept(&collect);
            facts = std::move(collect.facts);
        }
    }

    std::vector<Candidate> found;

    using IRVisitor::visit;

    void visit(const LetStmt *op) override {
        tick();
        op->value.accept(this);
        int index = consider_host_and_device(op);
        if (index >= 0) {
            const std::string &name = found[index].name;
            live[name].push_back(index);
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
        if (index >= 0) {
            live[found[index].name].pop_back();
            host_and_device.erase(found[index].name);
        }
    }

    void visit(const For *op) override {
        tick();
        op->min.accept(this);
        op->extent.accept(this);
        loops.push_back({op->name, op->min, op->extent, op->for_type, op->device_api, {}});
        op->body.accept(this);
        tick();
        for (int c : loops.back().live_across) {
            found[c].end = std::max(found[c].end, step);
        }
        loops.pop_back();
    }

    void visit(const Fork *op) override {
        forks++;
        IRVisitor::visit(op);
        forks--;
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
        int index = host_and_device.count(op->name) ? -1 : consider(op);
        // Kernels reach a lifted heap pool through its data's name, without
        // the .buffer suffix.
        std::string data = is_buffer_object(op) ? buffer_owner(op->name) : op->name;
        if (index >= 0) {
            live[op->name].push_back(index);
            if (data != op->name) {
                live[data].push_back(index);
            }
        }
        op->body.accept(this);
        if (index >= 0) {
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
    };

    const Preamble &preamble;
    const CensusOptions &options;
    std::vector<std::pair<std::string, Expr>> lets;  // enclosing non-preamble lets
    std::vector<Loop> loops;
    std::map<std::string, std::vector<int>> live;    // name -> candidates in scope
    std::map<int, size_t> loop_depth;                // candidate -> loops enclosing its allocation
    std::set<std::string> host_and_device;           // DeviceAndHost candidates in scope
    std::map<const IRNode *, BufferFacts> facts;     // device targets: see CollectBufferFacts
    int forks = 0;
    int64_t step = 0;

    void tick() { step++; }

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
    const char *concurrency() const {
        if (forks) {
            return "allocated inside an async (Fork) body, whose instances run concurrently";
        }
        for (const Loop &l : loops) {
            if (l.type == ForType::Parallel) {
                return "allocated inside a parallel loop, whose iterations run concurrently";
            }
        }
        return nullptr;
    }

    Expr with_lets(Expr e) const {
        for (auto it = lets.rbegin(); it != lets.rend(); ++it) {
            if (expr_uses_var(e, it->first)) {
                e = substitute(it->first, it->second, e);
            }
        }
        return simplify(e);
    }

    // Returns the candidate's index, or -1 for allocations that are not
    // intermediates the arena could hold (stack, registers, GPU shared memory).
    int consider(const Allocate *op) {
        if (inside_device_code()) {
            return -1;
        }
        switch (op->memory_type) {
        case MemoryType::Auto:
        case MemoryType::Heap:
            break;
        default:
            return -1;
        }
        Candidate c;
        c.node = op;
        c.name = op->name;
        c.begin = step;
        c.end = step + 1;
        DeviceShape shape;
        if (options.device_target) {
            c.kind = BufferKind::Device;
            const BufferFacts &u = facts[op];
            if (!u.init_value.defined() || !(u.device_malloc || u.copy_to_device || u.device_and_host_malloc)) {
                return record(c, false, "host-only buffer of a GPU pipeline: left to halide_malloc");
            }
            if (u.device_and_host_malloc || u.destructor == "halide_device_and_host_free_as_destructor") {
                return record(c, false, "buffer on host and device in an unusual form: left to Halide's allocator");
            }
            if (u.destructor != "halide_device_free_as_destructor" || !device_shape_of(u.init_value, shape)) {
                return record(c, false, "no device allocation of the usual form: left to Halide's allocator");
            }
        } else {
            c.kind = BufferKind::Host;
            int64_t constant = Allocate::constant_allocation_size(op->extents, op->name);
            if (op->memory_type == MemoryType::Auto && constant > 0 &&
                constant * op->type.bytes() <= kMaxStackBytes) {
                return -1;  // codegen keeps it on the stack
            }
            // What halide_malloc would get: the extents plus Halide's padding for
            // vector loads that read up to three elements past the end.
            Expr n = make_const(Int(64), 1);
            for (const Expr &e : op->extents) {
                n = n * max(cast(Int(64), e), 0);
                shape.extents.push_back(cast(Int(64), e));
            }
            shape.bytes = (n + 3) * make_const(Int(64), op->type.bytes());
        }
        return bound(c, shape);
    }

    // `let X.buffer = ...` whose buffer Halide allocates on host and device:
    // its device part can be planned. Returns the candidate or -1.
    int consider_host_and_device(const LetStmt *op) {
        const std::string name = buffer_owner(op->name);
        if (!options.device_target || inside_device_code() || name.empty()) {
            return -1;
        }
        const BufferFacts &u = facts[op];
        if (!u.device_and_host_malloc || u.destructor != "halide_device_and_host_free_as_destructor") {
            return -1;
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

    // The checks every candidate shares: not concurrent, and a size with a
    // compile-time bound.
    int bound(Candidate c, const DeviceShape &shape) {
        if (const char *why = concurrency()) {
            return record(c, false, std::string(why) + ": left to the runtime allocator");
        }
        c.size = with_lets(shape.bytes);
        c.size_at_entry = only_uses_entry_names(c.size);
        Scope<Interval> bounds;
        loop_bounds(bounds);
        Interval worst = bounds_of_expr_in_scope(c.size, bounds);
        Expr hi = worst.has_upper_bound() ? simplify(worst.max) : Expr();
        const int64_t *hi_const = hi.defined() ? as_const_int(hi) : nullptr;
        if (!hi_const) {
            std::string msg = unbounded_message(c.name, c.size, shape, bounds);
            if (options.unbounded_to_runtime) {
                return record(c, false, msg + " (left to the runtime allocator)");
            }
            throw CompileError(msg);
        }
        c.worst_bytes = (uint64_t)std::max<int64_t>(*hi_const, 0);
        loop_depth[(int)found.size()] = loops.size();
        return record(c, true, "");
    }

    int record(Candidate c, bool planned, const std::string &reason) {
        c.planned = planned;
        c.reason = reason;
        found.push_back(c);
        return planned ? (int)found.size() - 1 : -1;
    }

    bool only_uses_entry_names(const Expr &e) const {
        class Names : public IRVisitor {
        public:
            const Preamble &p;
            bool ok = true;
            explicit Names(const Preamble &p) : p(p) {}
            using IRVisitor::visit;
            void visit(const Variable *op) override {
                ok &= op->param.defined() || p.visible.count(op->name) > 0;
            }
            void visit(const Load *op) override { ok = false; IRVisitor::visit(op); }
            void visit(const Call *op) override {
                ok &= op->is_pure();
                IRVisitor::visit(op);
            }
        } names(preamble);
        e.accept(&names);
        return names.ok;
    }

    // Bounds of the enclosing loops' variables, on top of the preamble's.
    void loop_bounds(Scope<Interval> &s) const {
        s.set_containing_scope(&preamble.bounds);
        for (const Loop &l : loops) {
            Interval lo = bounds_of_expr_in_scope(with_lets(l.min), s);
            Interval hi = bounds_of_expr_in_scope(with_lets(l.min + l.extent - 1), s);
            s.push(l.var, Interval(lo.min, hi.max));
        }
    }

    std::string unbounded_message(const std::string &name, const Expr &bytes, const DeviceShape &shape,
                                  const Scope<Interval> &bounds) const {
        std::ostringstream msg;
        std::ostringstream size;
        size << bytes;
        std::string size_text = size.str();
        if (size_text.size() > 240) {
            size_text = size_text.substr(0, 240) + "...";
        }
        msg << "harena: cannot bound the size of buffer '" << name << "' (" << size_text << " bytes) at compile time";
        for (size_t d = 0; d < shape.extents.size(); d++) {
            Expr extent = with_lets(shape.extents[d]);
            Interval i = bounds_of_expr_in_scope(extent, bounds);
            if (i.has_upper_bound() && as_const_int(simplify(i.max))) {
                continue;
            }
            std::ostringstream extent_text;
            extent_text << extent;
            msg << ": dimension " << d << " has extent "
                << (extent_text.str().size() > 240 ? extent_text.str().substr(0, 240) + "..." : extent_text.str());
            if (extent_text.str().find("_halide_buffer_get_") != std::string::npos) {
                msg << "; it depends on the region an extern stage asks for in its bounds query, which is "
                       "known only at run time: give the producer fixed bounds with Func::bound()";
            }
            std::vector<std::string> free = unbounded_names(extent, bounds);
            if (!free.empty()) {
                msg << ", and nothing bounds";
                for (size_t k = 0; k < free.size(); k++) {
                    msg << (k ? ", " : " ") << "'" << free[k] << "'";
                }
            }
            break;
        }
        msg << ". Declare a maximum for it in the generator: a range on the scalar "
               "Input/Param (Input<int> k{\"k\", 16, 1, 8192}), set_bounds/set_extent on a buffer "
               "dimension, or add_requirement(output.dim(d).extent() <= N) "
               "(harena::extent_at_most in harena/bounds.h); or build with "
               "harena.unbounded=runtime to leave such buffers to the runtime allocator.";
        return msg.str();
    }

    // The variables that leave `e` unbounded, traced through the preamble's
    // lets to the arguments and parameters a user can declare bounds on.
    std::vector<std::string> unbounded_names(const Expr &e, const Scope<Interval> &bounds) const {
        class Vars : public IRVisitor {
        public:
            std::vector<std::string> names;
            std::set<std::string> local;  // bound by a Let inside the expression
            using IRVisitor::visit;
            void visit(const Let *op) override {
                local.insert(op->name);
                IRVisitor::visit(op);
            }
            void visit(const Variable *op) override {
                if (std::find(names.begin(), names.end(), op->name) == names.end()) {
                    names.push_back(op->name);
                }
            }
        };
        std::vector<std::string> out;
        std::set<std::string> seen;
        std::vector<Expr> work{e};
        while (!work.empty()) {
            Vars vars;
            work.back().accept(&vars);
            work.pop_back();
            for (const std::string &n : vars.names) {
                if (vars.local.count(n)) {
                    continue;
                }
                bool bounded = bounds.contains(n) && bounds.get(n).has_upper_bound() &&
                               as_const_int(simplify(bounds.get(n).max));
                if (bounded || !seen.insert(n).second) {
                    continue;
                }
                auto def = preamble.definitions.find(n);
                if (def != preamble.definitions.end() && !def->second.as<Call>()) {
                    work.push_back(def->second);
                } else {
                    out.push_back(n);
                }
            }
        }
        return out;
    }
};

}  // namespace

std::string buffer_owner(const std::string &name) {
    return ends_with(name, ".buffer") ? name.substr(0, name.size() - 7) : std::string();
}

bool is_buffer_object(const Allocate *op) {
    return !buffer_owner(op->name).empty() && op->new_expr.defined() && is_buffer_init(op->new_expr);
}

std::vector<Candidate> take_census(const Stmt &s, const Preamble &preamble, const CensusOptions &options) {
    Census census(s, preamble, options);
    s.accept(&census);
    return census.found;
}

}  // namespace harena
