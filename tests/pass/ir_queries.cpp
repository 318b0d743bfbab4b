#include "ir_queries.h"

#include "halide_compat.h"

#include <map>
#include <sstream>
#include <stdexcept>
#include <vector>

namespace harena_test {

using namespace Halide;
using namespace Halide::Internal;

namespace {

class Calls : public IRVisitor {
public:
    std::string function, destructor;
    int count = 0;
    std::vector<std::vector<Expr>> arguments;  // of each call to `function`
    using IRVisitor::visit;
    void visit(const Call *op) override {
        if (!function.empty() && op->name == function) {
            count++;
            arguments.push_back(op->args);
        }
        if (!destructor.empty() && op->is_intrinsic(Call::register_destructor)) {
            const StringImm *fn = op->args[0].as<StringImm>();
            count += fn && fn->value == destructor;
        }
        IRVisitor::visit(op);
    }
};

class FindAllocate : public IRVisitor {
public:
    std::string name;
    const Allocate *found = nullptr;
    using IRVisitor::visit;
    void visit(const Allocate *op) override {
        if (!found && op->name == name) {
            found = op;
        }
        IRVisitor::visit(op);
    }
};

// The lets around the entry call, in order (the frame's and those of the
// preamble they may name), and the entry call.
class FrameParts : public IRVisitor {
public:
    std::vector<std::pair<std::string, Expr>> lets;
    const Call *enter = nullptr;
    using IRVisitor::visit;
    void visit(const LetStmt *op) override {
        if (!enter) {
            lets.emplace_back(op->name, op->value);
        }
        IRVisitor::visit(op);
    }
    void visit(const Call *op) override {
        if (op->name == "harena_pipeline_enter" && !enter) {
            enter = op;
        }
        IRVisitor::visit(op);
    }
};

uint64_t fold(Expr e, const std::map<std::string, Expr> &known, const std::string &what) {
    for (const auto &[name, value] : known) {
        e = substitute(name, value, e);
    }
    e = simplify(e);
    std::optional<uint64_t> u = harena::const_uint(e);
    if (!u) {
        std::ostringstream msg;
        msg << what << " does not fold to a constant: " << e;
        throw std::runtime_error(msg.str());
    }
    return *u;
}

}  // namespace

// The arena's answer to harena_pipeline_guard_bytes, in place of the call.
Expr answer_guard_bytes(const Expr &e, uint64_t bytes) {
    class AnswerGuardBytes : public IRMutator {
    public:
        explicit AnswerGuardBytes(uint64_t b)
            : bytes(b) {
        }
        uint64_t bytes;
        using IRMutator::visit;
        Expr visit(const Call *op) override {
            return op->name == "harena_pipeline_guard_bytes" ? make_const(UInt(64), bytes) : IRMutator::visit(op);
        }
    };
    return AnswerGuardBytes(bytes).mutate(e);
}

Frame evaluate_frame(const Stmt &s, const std::map<std::string, Expr> &values, uint64_t guard_bytes) {
    FrameParts parts;
    s.accept(&parts);
    // user_context, name, interface, bytes, worst case, traits, alignment
    if (!parts.enter || parts.enter->args.size() != 7) {
        throw std::runtime_error("no harena_pipeline_enter call");
    }
    std::map<std::string, Expr> known = values;
    Frame f;
    for (const auto &[name, value] : parts.lets) {
        if (name == "harena.guard") {
            f.lets[name] = fold(answer_guard_bytes(value, guard_bytes), known, name);
            known[name] = make_const(UInt(64), f.lets[name]);
        } else if (name.rfind("harena.size.", 0) == 0 || name.rfind("harena.offset.", 0) == 0) {
            f.lets[name] = fold(value, known, name);
            known[name] = make_const(UInt(64), f.lets[name]);
        } else if (!values.count(name) && name.rfind("harena.", 0) != 0) {
            // The preamble's own lets, in terms of the given values.
            Expr e = value;
            for (const auto &[n, v] : known) {
                e = substitute(n, v, e);
            }
            known[name] = simplify(e);
        }
    }
    f.needed = fold(parts.enter->args[3], known, "the bytes needed");
    f.worst_case = fold(parts.enter->args[4], known, "the worst case");
    f.known = known;
    return f;
}

int64_t Frame::evaluate(const Expr &e, const std::map<std::string, Expr> &more) const {
    std::map<std::string, Expr> all = known;
    for (const auto &[name, value] : more) {
        all[name] = value;
    }
    return (int64_t)fold(cast(UInt(64), e), all, "the expression");
}

Expr checked_bytes(const Stmt &s, const std::string &buffer) {
    // The check names the size in what is in scope where the buffer is
    // created (often through a let the pass binds there): the lets around it
    // inside the frame are substituted, innermost first, to leave the loops'
    // variables and what the frame sees (Frame::evaluate knows the rest).
    class Find : public IRVisitor {
    public:
        std::string buffer;
        Expr found;
        std::vector<std::pair<std::string, Expr>> in_scope;
        using IRVisitor::visit;
        void visit(const LetStmt *op) override {
            op->value.accept(this);
            in_scope.emplace_back(op->name, op->value);
            op->body.accept(this);
            in_scope.pop_back();
        }
        void visit(const Call *op) override {
            const StringImm *name = op->args.empty() ? nullptr : op->args[0].as<StringImm>();
            if (!found.defined() && op->name == "halide_error_buffer_allocation_too_large" && name &&
                name->value == buffer && op->args.size() == 3 && !is_const(op->args[2])) {
                found = op->args[1];
                for (auto it = in_scope.rbegin(); it != in_scope.rend() && it->first != "harena.base"; ++it) {
                    found = substitute(it->first, it->second, found);
                }
            }
            IRVisitor::visit(op);
        }
    } find;
    find.buffer = buffer;
    s.accept(&find);
    return find.found;
}

int count_calls(const Stmt &s, const std::string &function) {
    Calls c;
    c.function = function;
    s.accept(&c);
    return c.count;
}

int count_destructors(const Stmt &s, const std::string &destructor) {
    Calls c;
    c.destructor = destructor;
    s.accept(&c);
    return c.count;
}

std::vector<std::vector<Expr>> call_arguments(const Stmt &s, const std::string &function) {
    Calls c;
    c.function = function;
    s.accept(&c);
    return c.arguments;
}

std::string name_in(Expr e) {
    while (true) {
        if (const Cast *c = e.as<Cast>()) {
            e = c->value;
        } else if (Expr value = harena::reinterpreted_value(e); value.defined()) {
            e = value;
        } else {
            break;
        }
    }
    if (const Variable *v = e.as<Variable>()) {
        return v->name;
    }
    if (const Call *c = e.as<Call>()) {
        return c->name;
    }
    if (const StringImm *str = e.as<StringImm>()) {
        return str->value;
    }
    return "";
}

const Allocate *find_allocate(const Stmt &s, const std::string &name) {
    FindAllocate f;
    f.name = name;
    s.accept(&f);
    return f.found;
}

Expr let_value(const Stmt &s, const std::string &name) {
    class Find : public IRVisitor {
    public:
        std::string name;
        Expr found;
        using IRVisitor::visit;
        void visit(const LetStmt *op) override {
            if (!found.defined() && op->name == name) {
                found = op->value;
            }
            IRVisitor::visit(op);
        }
    } find;
    find.name = name;
    s.accept(&find);
    return find.found;
}

std::string text_of(const Stmt &s) {
    std::ostringstream o;
    o << s;
    return o.str();
}

}  // namespace harena_test
