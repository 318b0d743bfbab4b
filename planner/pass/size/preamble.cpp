#include "size/preamble.h"

#include "size/free_names.h"

#include <algorithm>
#include <map>
#include <vector>

namespace harena {

using namespace Halide;
using namespace Halide::Internal;

namespace {

// Scalar parameters referenced anywhere in the statement.
class FindScalarParams : public IRVisitor {
public:
    std::map<std::string, Parameter> params;
    using IRVisitor::visit;
    void visit(const Variable *op) override {
        if (op->param.defined() && !op->param.is_buffer()) {
            params.emplace(op->name, op->param);
        }
    }
};

// Asserts whose failure message says the condition is a declared bound. Halide's
// own sanity checks (e.g. extents below 2^31) are not bounds a user declared and
// would make every size "bounded" by exabytes.
bool is_declared_bound(const Expr &message) {
    const Call *c = message.as<Call>();
    if (!c) {
        return false;
    }
    const std::string &n = c->name;
    return n == halide_names::kRequirementFailed || n.rfind("halide_error_param_too_", 0) == 0 ||
           n == "halide_error_constraint_violated" || n == "halide_error_buffer_extents_negative" ||
           n == "halide_error_access_out_of_bounds";
}

// Walks the spine of the statement: lets, asserts, and the branch that is not
// the bounds query, stopping at the first statement that does real work.
class SpineWalker {
public:
    std::vector<std::pair<std::string, Expr>> lets;
    std::vector<Expr> conditions;

    Stmt walk(const Stmt &s) {
        if (const LetStmt *op = s.as<LetStmt>()) {
            lets.emplace_back(op->name, op->value);
            return walk(op->body);
        }
        if (const Block *op = s.as<Block>()) {
            if (is_preamble_piece(op->first)) {
                absorb(op->first);
                return walk(op->rest);
            }
            return s;
        }
        if (const IfThenElse *op = s.as<IfThenElse>()) {
            // The non-bounds-query branch holds the real pipeline.
            if (is_pipeline_branch(op)) {
                return walk(op->then_case);
            }
        }
        if (s.as<AssertStmt>()) {
            absorb(s);
        }
        return s;
    }

    static bool is_preamble_piece(const Stmt &s) {
        if (s.as<AssertStmt>()) {
            return true;
        }
        // `if (bounds query) { ... }` blocks only fill in shapes and return.
        const IfThenElse *op = s.as<IfThenElse>();
        return op && !op->else_case.defined() && !op->condition.as<Not>() &&
               is_bounds_query_test(op->condition);
    }

private:
    void absorb(const Stmt &s) {
        if (const AssertStmt *op = s.as<AssertStmt>()) {
            if (is_declared_bound(op->message)) {
                conditions.push_back(op->condition);
            }
        }
    }
};

void tighten(Scope<Interval> &scope, const std::string &name, Interval i) {
    if (!i.min.defined()) {
        i.min = Interval::neg_inf();
    }
    if (!i.max.defined()) {
        i.max = Interval::pos_inf();
    }
    Interval cur = scope.contains(name) ? scope.get(name) : Interval::everything();
    if (i.has_lower_bound()) {
        cur.min = cur.has_lower_bound() ? simplify(max(cur.min, i.min)) : i.min;
    }
    if (i.has_upper_bound()) {
        cur.max = cur.has_upper_bound() ? simplify(min(cur.max, i.max)) : i.max;
    }
    scope.push(name, cur);
}

const Variable *as_var(const Expr &e) {
    if (const Cast *c = e.as<Cast>()) {
        // A widening cast keeps the order: uint64(x) <= c bounds x.
        if (c->type.bits() >= c->value.type().bits()) {
            return c->value.as<Variable>();
        }
    }
    return e.as<Variable>();
}

// Bounds inference wants a variable's bounds in the variable's own type.
// Constants it cannot represent bound nothing.
Expr in_type_of(const Variable *v, const Expr &bound) {
    std::optional<int64_t> c = const_int(bound);
    if (!c || (v->type.is_int() && v->type.bits() < 64 &&
               (*c > (int64_t)v->type.max().as<IntImm>()->value || *c < (int64_t)v->type.min().as<IntImm>()->value))) {
        return bound.same_as(Interval::neg_inf()) ? bound : Expr();
    }
    return make_const(v->type, *c);
}

// e <= hi: every variable that e is a max of (or e itself, shifted by a
// constant) is at most the matching bound.
void learn_upper(Scope<Interval> &scope, const Expr &e, const Expr &hi) {
    if (const Max *op = e.as<Max>()) {
        learn_upper(scope, op->a, hi);
        learn_upper(scope, op->b, hi);
    } else if (const Add *op = e.as<Add>(); op && is_const(op->b)) {
        learn_upper(scope, op->a, simplify(hi - cast(Int(64), op->b)));
    } else if (const Variable *v = as_var(e)) {
        tighten(scope, v->name, Interval(Interval::neg_inf(), in_type_of(v, hi)));
    }
}

// lo <= e, the mirror image.
void learn_lower(Scope<Interval> &scope, const Expr &e, const Expr &lo) {
    if (const Min *op = e.as<Min>()) {
        learn_lower(scope, op->a, lo);
        learn_lower(scope, op->b, lo);
    } else if (const Add *op = e.as<Add>(); op && is_const(op->b)) {
        learn_lower(scope, op->a, simplify(lo - cast(Int(64), op->b)));
    } else if (const Variable *v = as_var(e)) {
        tighten(scope, v->name, Interval(in_type_of(v, lo), Interval::pos_inf()));
    }
}

// Learns variable bounds from `a <= b` style conditions with a constant side.
void learn(Scope<Interval> &scope, const Expr &cond) {
    if (const And *op = cond.as<And>()) {
        learn(scope, op->a);
        learn(scope, op->b);
        return;
    }
    Expr a, b;
    int strict = 0;
    bool equal = false;
    if (const LE *op = cond.as<LE>()) {
        a = op->a, b = op->b;
    } else if (const LT *op = cond.as<LT>()) {
        a = op->a, b = op->b, strict = 1;
    } else if (const EQ *op = cond.as<EQ>()) {
        a = op->a, b = op->b, equal = true;
    } else {
        return;
    }
    if (is_const(b)) {
        learn_upper(scope, a, simplify(cast(Int(64), b) - strict));
        if (equal) {
            learn_lower(scope, a, simplify(cast(Int(64), b)));
        }
    }
    if (is_const(a)) {
        learn_lower(scope, b, simplify(cast(Int(64), a) + strict));
        if (equal) {
            learn_upper(scope, b, simplify(cast(Int(64), a)));
        }
    }
}

bool is_buffer_extent(const std::string &name) {
    return name.find(".extent.") != std::string::npos;
}

}  // namespace

Preamble read_preamble(const Stmt &s) {
    SpineWalker w;
    w.walk(s);
    Preamble p;
    Scope<Interval> asserted;
    for (const Expr &c : w.conditions) {
        learn(asserted, c);
    }
    // Scalar params carry their declared range; the asserts usually repeat it.
    FindScalarParams params;
    s.accept(&params);
    for (const auto &[name, param] : params.params) {
        Interval i = Interval::everything();
        if (param.min_value().defined()) {
            i.min = param.min_value();
        }
        if (param.max_value().defined()) {
            i.max = param.max_value();
        }
        tighten(asserted, name, i);
    }
    for (auto it = asserted.cbegin(); it != asserted.cend(); ++it) {
        p.bounds.push(it.name(), it.value());
    }
    p.scalars = params.params;
    p.lets = w.lets;
    for (const auto &[name, value] : w.lets) {
        Interval i = bounds_of_expr_in_scope(value, p.bounds);
        const std::vector<std::string> reads = free_names(value);
        bool assumed = std::any_of(reads.begin(), reads.end(), [&](const std::string &n) {
            return p.assumed_minimum.count(n) > 0;
        });
        if (is_buffer_extent(name) && !i.has_lower_bound()) {
            i.min = make_zero(value.type());  // a halide_buffer_t never has a negative extent
            assumed = true;
        }
        if (asserted.contains(name)) {
            Interval a = asserted.get(name);
            if (a.has_lower_bound()) {
                assumed = assumed && i.has_lower_bound() && !can_prove(a.min >= i.min);
                i.min = i.has_lower_bound() ? simplify(max(i.min, a.min)) : a.min;
            }
            if (a.has_upper_bound()) {
                i.max = i.has_upper_bound() ? simplify(min(i.max, a.max)) : a.max;
            }
        }
        p.bounds.push(name, i);
        if (assumed) {
            p.assumed_minimum.insert(name);
        }
        p.visible.insert(name);
        p.definitions[name] = value;
    }
    return p;
}

namespace {

std::optional<int64_t> constant_of(const Expr &e) {
    if (const std::optional<int64_t> c = const_int(e)) {
        return c;
    }
    return const_int(simplify(e));
}

}  // namespace

std::optional<int64_t> constant_max(const Interval &i) {
    return i.has_upper_bound() ? constant_of(i.max) : std::nullopt;
}

std::optional<int64_t> constant_min(const Interval &i) {
    return i.has_lower_bound() ? constant_of(i.min) : std::nullopt;
}

}  // namespace harena
