#include "size/size_bounds.h"

#include "size/split_at_minimum.h"

#include <algorithm>
#include <set>
#include <sstream>

namespace harena {

using namespace Halide;
using namespace Halide::Internal;

namespace {

// The loops' variables in `s`, outermost first, each bounded in terms of
// what lies outside all the loops.
void push_loops(Scope<Interval> &s, const std::vector<LoopRange> &loops) {
    for (const LoopRange &l : loops) {
        Interval lo = bounds_of_expr_in_scope(l.min, s);
        Interval hi = bounds_of_expr_in_scope(l.max, s);
        s.push(l.var, Interval(lo.min, hi.max));
    }
}

std::optional<uint64_t> constant_upper_bound(const Expr &e, const std::vector<LoopRange> &loops,
                                             const Scope<Interval> &outside) {
    Scope<Interval> s;
    s.set_containing_scope(&outside);
    push_loops(s, loops);
    if (const std::optional<int64_t> hi = constant_max(bounds_of_expr_in_scope(e, s))) {
        return (uint64_t)std::max<int64_t>(*hi, 0);
    }
    return std::nullopt;
}

// `e` with every name that has a single representative value replaced by it
// and folded: what interval arithmetic cannot follow through floating point
// (casts, ceil, floor, selects on signs) folds to a constant here.
Expr at_points(const Expr &e, const Preamble &preamble) {
    return preamble.points.empty() ? e : simplify(substitute(preamble.points, e));
}

std::vector<LoopRange> at_points(std::vector<LoopRange> loops, const Preamble &preamble) {
    for (LoopRange &l : loops) {
        l.min = at_points(l.min, preamble);
        l.max = at_points(l.max, preamble);
    }
    return loops;
}

// Whether `e` is never negative by its form: a constant, a max with one, or
// sums, products and widening casts of such.
bool non_negative(const Expr &e) {
    if (const std::optional<int64_t> c = const_int(e)) {
        return *c >= 0;
    }
    if (const Max *m = e.as<Max>()) {
        return non_negative(m->a) || non_negative(m->b);
    }
    if (const Add *a = e.as<Add>()) {
        return non_negative(a->a) && non_negative(a->b);
    }
    if (const Mul *m = e.as<Mul>()) {
        return non_negative(m->a) && non_negative(m->b);
    }
    if (const Cast *c = e.as<Cast>()) {
        return c->type.can_represent(c->value.type()) && non_negative(c->value);
    }
    return false;
}

// An upper bound of `e` over the loops in `scope`. Where interval arithmetic
// bounds a product by the largest of its four corners, a product of factors
// that are never negative is bounded by the product of their upper bounds:
// the same value in a much shorter expression (a size's extents are such
// factors, and the code that computes the bound each call is compiled for
// every pipeline).
Expr upper_bound(const Expr &e, const Scope<Interval> &scope) {
    const auto both = [&](const Expr &a, const Expr &b, auto combine) -> Expr {
        Expr ua = upper_bound(a, scope), ub = upper_bound(b, scope);
        return ua.defined() && ub.defined() ? combine(ua, ub) : Expr();
    };
    if (const Mul *m = e.as<Mul>(); m && non_negative(m->a) && non_negative(m->b)) {
        return both(m->a, m->b, [](const Expr &a, const Expr &b) { return a * b; });
    }
    if (const Add *a = e.as<Add>()) {
        return both(a->a, a->b, [](const Expr &x, const Expr &y) { return x + y; });
    }
    if (const Max *m = e.as<Max>()) {
        return both(m->a, m->b, [](const Expr &a, const Expr &b) { return max(a, b); });
    }
    if (const Cast *c = e.as<Cast>(); c && c->type.can_represent(c->value.type())) {
        Expr u = upper_bound(c->value, scope);
        return u.defined() ? cast(c->type, u) : Expr();
    }
    Interval i = bounds_of_expr_in_scope(e, scope);
    return i.has_upper_bound() ? i.max : Expr();
}

std::string shortened(const Expr &e) {
    std::ostringstream o;
    o << e;
    std::string text = o.str();
    return text.size() > 240 ? text.substr(0, 240) + "..." : text;
}

}  // namespace

bool evaluable_at_entry(const Expr &e, const Preamble &preamble) {
    class Names : public IRVisitor {
    public:
        const Preamble &p;
        std::set<std::string> local;  // bound by a Let inside the expression
        bool ok = true;
        explicit Names(const Preamble &p)
            : p(p) {
        }
        using IRVisitor::visit;
        void visit(const Let *op) override {
            local.insert(op->name);
            IRVisitor::visit(op);
        }
        void visit(const Variable *op) override {
            ok &= op->param.defined() || p.visible.count(op->name) > 0 || local.count(op->name) > 0;
        }
        void visit(const Load *op) override {
            ok = false;
            IRVisitor::visit(op);
        }
        void visit(const Call *op) override {
            ok &= op->is_pure();
            IRVisitor::visit(op);
        }
    } names(preamble);
    e.accept(&names);
    return names.ok;
}

SizeBounds bound_size(const Expr &size, const std::vector<LoopRange> &loops, const Preamble &preamble) {
    SizeBounds b;
    b.worst = constant_upper_bound(size, loops, preamble.bounds);
    if (evaluable_at_entry(size, preamble)) {
        b.per_call = size;
        b.exact = true;
    } else {
        // Over the loops with their bounds kept symbolic: what remains names
        // only what the frame can see, unless a bound was computed inside.
        Scope<Interval> loop_scope;
        push_loops(loop_scope, loops);
        Expr upper = upper_bound(size, loop_scope);
        if (upper.defined()) {
            Expr hi = simplify(upper);
            if (evaluable_at_entry(hi, preamble)) {
                b.per_call = hi;
            }
        }
    }
    // The layout is chosen at the bytes each call would need at the
    // representative values, so that measuring a call there gives the same.
    const Expr sized = b.per_call.defined() ? b.per_call : size;
    const std::vector<LoopRange> sized_loops = b.per_call.defined() ? std::vector<LoopRange>{} : loops;
    b.representative = constant_upper_bound(sized, sized_loops, preamble.representative);
    if (!b.representative) {
        b.representative = constant_upper_bound(at_points(sized, preamble), at_points(sized_loops, preamble),
                                                preamble.representative);
    }
    if (b.per_call.defined()) {
        b.per_call = split_at_minimum(b.per_call, preamble);
    }
    return b;
}

std::vector<std::string> unbounded_names(const Expr &e, const std::vector<LoopRange> &loops,
                                         const Preamble &preamble) {
    Scope<Interval> loop_scope;
    push_loops(loop_scope, loops);
    std::vector<std::string> out;
    std::set<std::string> seen;
    std::vector<Expr> work{e};
    while (!work.empty()) {
        const std::vector<std::string> names = free_names(work.back());
        work.pop_back();
        for (const std::string &n : names) {
            if (!seen.insert(n).second) {
                continue;
            }
            if (loop_scope.contains(n)) {
                // A loop variable: what its bounds depend on.
                const Interval &i = loop_scope.get(n);
                for (const Expr &side : {i.min, i.max}) {
                    if (side.defined() && !side.same_as(Interval::neg_inf()) && !side.same_as(Interval::pos_inf())) {
                        work.push_back(side);
                    }
                }
                continue;
            }
            if (preamble.bounds.contains(n) && constant_max(preamble.bounds.get(n))) {
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

std::string unbounded_message(const std::string &buffer, const Expr &size, const std::vector<Expr> &extents,
                              const std::vector<LoopRange> &loops, const Preamble &preamble) {
    std::ostringstream msg;
    msg << "harena: cannot bound the size of buffer '" << buffer << "' (" << shortened(size)
        << " bytes) at compile time";
    for (size_t d = 0; d < extents.size(); d++) {
        if (constant_upper_bound(extents[d], loops, preamble.bounds)) {
            continue;
        }
        std::string extent_text = shortened(extents[d]);
        msg << ": dimension " << d << " has extent " << extent_text;
        if (extent_text.find("_halide_buffer_get_") != std::string::npos) {
            msg << "; it depends on the region an extern stage asks for in its bounds query, which is "
                   "known only at run time: give the producer fixed bounds with Func::bound()";
        }
        std::vector<std::string> free = unbounded_names(extents[d], loops, preamble);
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
           "(harena::extent_at_most in harena/bounds.h); or give one when building it, with "
           "harena.max.<scalar>=N or harena.max.<buffer>.<dim>=N.";
    return msg.str();
}

}  // namespace harena
