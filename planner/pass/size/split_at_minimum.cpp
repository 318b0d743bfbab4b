#include "size/split_at_minimum.h"

#include <map>
#include <set>
#include <vector>

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

// Whether `e` has a part whose value depends on which side of another it
// lies: a min, max, select or abs, which a name's range can resolve.
bool has_comparison(const Expr &e) {
    class Find : public IRGraphVisitor {
    public:
        bool found = false;
        using IRGraphVisitor::visit;
        void visit(const Min *) override {
            found = true;
        }
        void visit(const Max *) override {
            found = true;
        }
        void visit(const Select *) override {
            found = true;
        }
        void visit(const Call *op) override {
            found |= op->is_intrinsic(Call::abs);
            IRGraphVisitor::visit(op);
        }
    } find;
    e.accept(&find);
    return find.found;
}

// The direct subexpressions of a node.
std::vector<Expr> children(const Expr &e) {
    class Children : public IRGraphVisitor {
    public:
        std::vector<Expr> found;
        using IRGraphVisitor::include;
        void include(const Expr &child) override {
            found.push_back(child);
        }
    } children;
    e.accept(&children);
    return children.found;
}

class SplitAtMinimum : public IRMutator {
public:
    explicit SplitAtMinimum(const Preamble &preamble)
        : preamble(preamble) {
    }

    // Each distinct node once: sizes with their lets substituted share
    // subexpressions many times over.
    using IRMutator::mutate;
    Expr mutate(const Expr &e) override {
        auto done = mutated.find(e.get());
        if (done != mutated.end()) {
            return done->second;
        }
        Expr out = e;
        const std::set<std::string> &names = names_of(e);
        if ((!e.type().is_int() && !e.type().is_uint()) || names.size() > 1) {
            out = IRMutator::mutate(e);
        } else if (names.size() == 1) {
            // Every part of `e` names that one name or none: split here or nowhere.
            if (Expr form = split(e, *names.begin()); form.defined()) {
                out = form;
            }
        }
        mutated.emplace(e.get(), out);
        return out;
    }

private:
    const Preamble &preamble;
    std::map<const IRNode *, Expr> mutated;
    std::map<const IRNode *, std::set<std::string>> names;

    // The names `e` reads from outside itself (free_names, remembered for
    // every node).
    const std::set<std::string> &names_of(const Expr &e) {
        auto known = names.find(e.get());
        if (known != names.end()) {
            return known->second;
        }
        std::set<std::string> n;
        if (const Variable *v = e.as<Variable>()) {
            n.insert(v->name);
        } else if (const Let *let = e.as<Let>()) {
            n = names_of(let->body);
            n.erase(let->name);
            const std::set<std::string> &value = names_of(let->value);
            n.insert(value.begin(), value.end());
        } else {
            for (const Expr &child : children(e)) {
                const std::set<std::string> &c = names_of(child);
                n.insert(c.begin(), c.end());
            }
        }
        return names.emplace(e.get(), std::move(n)).first->second;
    }

    // The split form of `e`, which names only `name`, where that name's
    // minimum is checked, `e` has a part whose value depends on which side of
    // another it lies (min, max, select, abs), and the form is shorter;
    // undefined otherwise.
    Expr split(const Expr &e, const std::string &name) const {
        if (!preamble.bounds.contains(name) || preamble.assumed_minimum.count(name) || !has_comparison(e)) {
            return Expr();
        }
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
