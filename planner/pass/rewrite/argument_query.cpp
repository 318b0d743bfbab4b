#include "rewrite/argument_query.h"

#include <set>
#include <string>
#include <utility>
#include <vector>

namespace harena {

using namespace Halide;
using namespace Halide::Internal;

namespace {

using Lets = std::vector<std::pair<std::string, Expr>>;

// The names of the variables `e` reads, its own lets' included (binding a
// spine let of the same name as well costs an unused let).
std::set<std::string> names_read(const Expr &e) {
    class Names : public IRGraphVisitor {
    public:
        std::set<std::string> names;
        using IRGraphVisitor::visit;
        void visit(const Variable *op) override {
            names.insert(op->name);
        }
    } names;
    e.accept(&names);
    return names.names;
}

// The lets on `s`'s spine down to where open_before_first_use opens the
// frame, in order; `branch` the pipeline branch met on the way (null: none).
struct SpineToFrame {
    Lets lets;
    const IfThenElse *branch = nullptr;
};

void walk_to_frame(const Stmt &s, const std::map<const IRNode *, Placement> &placed, SpineToFrame &out) {
    if (const LetStmt *op = s.as<LetStmt>(); op && !placed.count(op)) {
        out.lets.emplace_back(op->name, op->value);
        walk_to_frame(op->body, placed, out);
    } else if (const Block *op = s.as<Block>(); op && !mentions_placed(op->first, placed)) {
        walk_to_frame(op->rest, placed, out);
    } else if (const IfThenElse *op = s.as<IfThenElse>(); op && is_pipeline_branch(op)) {
        if (!out.branch) {
            out.branch = op;
        }
        walk_to_frame(op->then_case, placed, out);
    }
}

// What an answer may evaluate before the pipeline runs: arithmetic on the
// arguments and their buffers' fields. A load, or a call with effects or
// that reads what the pipeline computes, makes the bytes unknowable there.
class ReadsOnlyArguments : public IRGraphVisitor {
public:
    bool ok = true;
    std::string why;
    using IRGraphVisitor::visit;
    void visit(const Load *op) override {
        refuse("reads the buffer '" + op->name + "'");
    }
    void visit(const Call *op) override {
        const bool pure = op->call_type == Call::PureIntrinsic || op->call_type == Call::PureExtern;
        const bool buffer_field = op->call_type == Call::Extern && op->name.rfind("_halide_buffer_get_", 0) == 0;
        if (!pure && !buffer_field) {
            refuse("calls " + op->name);
        }
        IRGraphVisitor::visit(op);
    }

private:
    void refuse(const std::string &reason) {
        if (ok) {
            ok = false;
            why = reason;
        }
    }
};

// A buffer argument's shape field (`input.extent.0`) that no let binds
// (Halide binds those after lowering), read from its buffer so that the
// answer sees the shapes Halide's own queries wrote just before; undefined
// where `name` is no such field.
Expr shape_field(const std::string &name, const std::set<std::string> &buffer_arguments) {
    for (const std::string field : {".min.", ".extent.", ".stride."}) {
        const size_t at = name.rfind(field);
        if (at == std::string::npos || !buffer_arguments.count(name.substr(0, at))) {
            continue;
        }
        const std::string dim = name.substr(at + field.size());
        if (dim.empty() || dim.find_first_not_of("0123456789") != std::string::npos) {
            continue;
        }
        Expr buffer = Variable::make(type_of<halide_buffer_t *>(), name.substr(0, at) + ".buffer");
        const char *getter = field == ".min."    ? Call::buffer_get_min :
                             field == ".extent." ? Call::buffer_get_extent :
                                                   Call::buffer_get_stride;
        return Call::make(Int(32), getter, {buffer, std::stoi(dim)}, Call::Extern);
    }
    return Expr();
}

// The lets the answer binds, outermost first: those of `available` (the
// spine's, then the layout's) that `needed` reads, directly or through
// others, and the shape fields it reads that no let binds.
Lets lets_needed(const Lets &available, const Expr &needed, const std::set<std::string> &buffer_arguments) {
    std::set<std::string> wanted = names_read(needed);
    Lets kept;  // innermost first
    for (auto it = available.rbegin(); it != available.rend(); ++it) {
        if (wanted.erase(it->first)) {
            kept.push_back(*it);
            const std::set<std::string> read = names_read(it->second);
            wanted.insert(read.begin(), read.end());
        }
    }
    for (const std::string &n : wanted) {
        if (Expr field = shape_field(n, buffer_arguments); field.defined()) {
            kept.emplace_back(n, field);
        }
    }
    return Lets(kept.rbegin(), kept.rend());
}

// The buffer arguments of `s`: the names of the buffer parameters its
// variables refer to.
std::set<std::string> buffer_arguments(const Stmt &s) {
    class Find : public IRGraphVisitor {
    public:
        std::set<std::string> names;
        using IRGraphVisitor::visit;
        void visit(const Variable *op) override {
            if (op->param.defined() && op->param.is_buffer()) {
                names.insert(op->param.name());
            }
        }
    } find;
    s.accept(&find);
    return find.names;
}

Expr failed(const std::string &condition, const std::vector<Expr> &message) {
    Expr text = Call::make(type_of<const char *>(), Call::stringify, message, Call::PureIntrinsic);
    return Call::make(Int(32), halide_names::kRequirementFailed, {StringImm::make(condition), text}, Call::Extern);
}

// Writes a one-dimensional uint8 shape of `bytes` into the query buffer.
Stmt write_answer(const ArgumentFrame &frame, const Expr &buffer, const Expr &bytes) {
    const std::string who = "arena argument '" + frame.argument + "' of " + frame.pipeline;
    Expr dims = Call::make(Int(32), Call::buffer_get_dimensions, {buffer}, Call::Extern);
    Stmt one_dim = AssertStmt::make(
        dims == 1, failed(frame.argument + ".dimensions == 1",
                          {StringImm::make(who + " is a bounds query of "), dims,
                           StringImm::make(" dimensions; query it with a buffer of one dimension")}));
    const Expr largest = make_const(UInt(64), 0x7fffffff);
    Stmt fits = AssertStmt::make(
        bytes <= largest, failed(frame.argument + " bytes needed <= 2^31 - 1",
                                 {StringImm::make(who + ": this call needs "), bytes,
                                  StringImm::make(" bytes, more than a buffer's extent can hold")}));
    Expr shape = Call::make(type_of<halide_dimension_t *>(), Call::buffer_get_shape, {buffer}, Call::Extern);
    Expr dim0 = Call::make(type_of<halide_dimension_t *>(), Call::make_struct,
                           {0, cast(Int(32), bytes), 1, 0}, Call::Intrinsic);
    Expr init = Call::make(type_of<halide_buffer_t *>(), Call::buffer_init,
                           {buffer, shape, reinterpret(Handle(), make_zero(UInt(64))), make_zero(UInt(64)),
                            reinterpret(type_of<halide_device_interface_t *>(), make_zero(UInt(64))),
                            static_cast<int>(halide_type_uint), 8, 1, dim0, make_zero(UInt(64))},
                           Call::Extern);
    return Block::make({one_dim, fits, Evaluate::make(init)});
}

// The answer for one call: its lets, then the shape; or, where the bytes
// depend on what the pipeline computes, a failure that says so.
Stmt answer(const SpineToFrame &spine, const RunLayout &layout, const ArgumentFrame &frame,
            const std::set<std::string> &buffers, const Expr &buffer) {
    Lets available = spine.lets;
    available.insert(available.end(), layout.lets.begin(), layout.lets.end());
    const Lets lets = lets_needed(available, layout.needed, buffers);
    ReadsOnlyArguments reads;
    layout.needed.accept(&reads);
    for (const auto &let : lets) {
        let.second.accept(&reads);
    }
    if (!reads.ok) {
        return AssertStmt::make(
            const_false(),
            failed(frame.argument + " is not a bounds query",
                   {StringImm::make("arena argument '" + frame.argument + "' of " + frame.pipeline +
                                    " cannot answer a bounds query: the bytes a call needs depend on what the "
                                    "pipeline computes (it " +
                                    reads.why +
                                    "); pass a buffer of the plan's bytes instead (a call that needs more says "
                                    "how many)")}));
    }
    Stmt s = write_answer(frame, buffer, layout.needed);
    for (auto it = lets.rbegin(); it != lets.rend(); ++it) {
        s = LetStmt::make(it->first, it->second, s);
    }
    return s;
}

// `s` with `query` run before the pipeline branch `branch`, whose condition
// gains the arena's own query so that a query runs nothing else.
class InsertBeforeBranch : public IRMutator {
public:
    InsertBeforeBranch(const IfThenElse *branch, Stmt query, Expr is_query)
        : branch(branch), query(std::move(query)), is_query(std::move(is_query)) {
    }
    using IRMutator::visit;
    Stmt visit(const IfThenElse *op) override {
        if (op != branch) {
            return IRMutator::visit(op);
        }
        const Not *n = op->condition.as<Not>();
        Stmt skipped = IfThenElse::make(!(n->a || is_query), op->then_case);
        return Block::make(IfThenElse::make(is_query, query), skipped);
    }

private:
    const IfThenElse *branch;
    Stmt query;
    Expr is_query;
};

}  // namespace

Stmt answer_arena_query(const Stmt &s, const std::map<const IRNode *, Placement> &placed, const RunLayout &layout,
                        const ArgumentFrame &frame) {
    SpineToFrame spine;
    walk_to_frame(s, placed, spine);
    if (!spine.branch) {
        return s;
    }
    Expr buffer = Variable::make(type_of<halide_buffer_t *>(), frame.argument + ".buffer");
    Expr not_null = reinterpret(UInt(64), buffer) != make_zero(UInt(64));
    Expr is_query = not_null && Call::make(Bool(), Call::buffer_is_bounds_query, {buffer}, Call::Extern);
    Stmt query = answer(spine, layout, frame, buffer_arguments(s), buffer);
    return InsertBeforeBranch(spine.branch, query, is_query).mutate(s);
}

}  // namespace harena
