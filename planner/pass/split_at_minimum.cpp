#include "split_at_minimum.h"

#include "size_bounds.h"

#include <set>

namespace harena {

using namespace Halide;
using namespace Halide::Internal;

namespace {

// Distinct nodes: what LLVM computes once the common parts are merged.
size_t node_count(const Expr &e) {
    class Count : public IRGraphVisitor {
    public:
        std::set<const IRNode *> seen;
        using IRGraphVisitor::include;
        void include(const Expr &e) override {
            if (seen.insert(e.get()).second) {
                IRGraphVisitor::include(e);
            }
        }
    } count;
    e.accept(&count);
    return count.seen.size() + 1;
}

class SplitAtMinimum : public IRMutator {
public:
    explicit SplitAtMinimum(const Preamble &preamble)
        : preamble(preamble) {
    }

    using IRMutator::mutate;
    Expr mutate(const Expr &e) override {
        if (!e.as<Variable>() && !is_const(e) && (e.type().is_int() || e.type().is_uint())) {
            if (Expr form = split(e); form.defined()) {
                return form;
            }
        }
        return IRMutator::mutate(e);
    }

private:
    const Preamble &preamble;

    // The split form of `e`, where `e` names one checked name and the form
    // is shorter; undefined otherwise.
    Expr split(const Expr &e) const {
        const std::vector<std::string> names = free_names(e);
        if (names.size() != 1 || !preamble.bounds.contains(names[0]) || preamble.assumed_minimum.count(names[0])) {
            return Expr();
        }
        const std::string &name = names[0];
        const Interval range = preamble.bounds.get(name);
        const std::optional<int64_t> least = constant_min(range);
        const Type t = range.min.type();
        if (!least || !(t.is_int() || t.is_uint()) || (t.is_int() && *least == t.max().as<IntImm>()->value)) {
            return Expr();
        }
        const Expr at_least = make_const(t, *least);
        Scope<Interval> above;
        above.push(name, Interval(make_const(t, *least + 1), range.has_upper_bound() ? range.max : t.max()));
        Expr form = select(Variable::make(t, name) <= at_least, simplify(substitute(name, at_least, e)),
                           simplify(e, true, above));
        return node_count(form) < node_count(e) ? form : Expr();
    }
};

}  // namespace

Expr split_at_minimum(const Expr &e, const Preamble &preamble) {
    return SplitAtMinimum(preamble).mutate(e);
}

}  // namespace harena
