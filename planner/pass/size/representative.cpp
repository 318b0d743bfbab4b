#include "size/representative.h"

#include <algorithm>
#include <set>
#include <string>

namespace harena {

using namespace Halide;
using namespace Halide::Internal;

namespace {

bool has_const_max(const Interval &i) {
    return constant_max(i).has_value();
}

bool has_const_min(const Interval &i) {
    return constant_min(i).has_value();
}

// The tighter of two bounds on the same name; either side may be unbounded.
Interval intersect(const Interval &a, const Interval &b) {
    Interval out = a;
    if (b.has_lower_bound()) {
        out.min = a.has_lower_bound() ? simplify(max(a.min, b.min)) : b.min;
    }
    if (b.has_upper_bound()) {
        out.max = a.has_upper_bound() ? simplify(min(a.max, b.max)) : b.max;
    }
    return out;
}

// A buffer argument's field as the preamble reads it:
// `let input.extent.0 = _halide_buffer_get_extent(input.buffer, 0)`.
struct ArgumentField {
    Parameter param;
    bool extent = false;  // else the min
    int dim = 0;
};

bool argument_field(const Expr &value, ArgumentField &out) {
    const Call *c = value.as<Call>();
    if (!c || (c->name != Call::buffer_get_extent && c->name != Call::buffer_get_min) || c->args.size() != 2) {
        return false;
    }
    const Variable *buffer = c->args[0].as<Variable>();
    std::optional<int64_t> dim = const_int(c->args[1]);
    if (!buffer || !buffer->param.defined() || !buffer->param.is_buffer() || !dim) {
        return false;
    }
    out.param = buffer->param;
    out.extent = c->name == Call::buffer_get_extent;
    out.dim = (int)*dim;
    return true;
}

class Chooser {
public:
    Chooser(Preamble &p, int64_t nominal)
        : p(p), nominal(nominal) {
    }

    void scalar(const std::string &name, const Parameter &param) {
        Interval declared = p.bounds.contains(name) ? p.bounds.get(name) : Interval::everything();
        const Type t = param.type();
        if (t.is_float()) {
            float_scalar(name, param, declared);
            return;
        }
        if ((has_const_max(declared) && has_const_min(declared)) || !(t.is_int() || t.is_uint())) {
            p.representative.push(name, declared);
            return;
        }
        std::optional<int64_t> estimate = param.estimate().defined() ? const_int(param.estimate()) : std::nullopt;
        int64_t value = estimate ? *estimate : nominal;
        Preamble::Assumption why{static_cast<double>(value), estimate ? "its estimate" : "the nominal value (harena.nominal_extent)"};
        p.representative.push(name, fill(name, declared, value, t, why));
    }

    void let(const std::string &name, const Expr &value) {
        Interval i = bounds_of_expr_in_scope(value, p.representative);
        i = intersect(i, p.bounds.contains(name) ? p.bounds.get(name) : Interval::everything());
        ArgumentField field;
        if ((!has_const_max(i) || !has_const_min(i)) && argument_field(value, field)) {
            i = field.extent ? extent(name, field, i) : min_of(name, field, i);
            // The call at the representative sizes has the assumed value here,
            // although any extent up to it is bounded by the same plan.
            auto assumed = p.assumed.find(name);
            if (assumed != p.assumed.end()) {
                p.points[name] = make_const(Int(32), static_cast<int64_t>(assumed->second.value));
            }
        } else if (!has_const_max(i) || !has_const_min(i)) {
            const Expr at_points = simplify(substitute(p.points, value));
            if (is_const(at_points)) {
                i = Interval::single_point(at_points);
            }
        }
        if (has_const_max(i) && has_const_min(i) && can_prove(i.min == i.max)) {
            p.points[name] = simplify(i.min);
        }
        p.representative.push(name, i);
    }

private:
    Preamble &p;
    int64_t nominal;

    // A floating-point scalar sizes buffers through a conversion (a bilateral
    // grid's depth is 1 / r_sigma): its estimate, where it has one, stands
    // for the sides its declared range leaves open.
    void float_scalar(const std::string &name, const Parameter &param, Interval declared) {
        std::optional<double> estimate = param.estimate().defined() ? const_float(param.estimate()) : std::nullopt;
        const bool open = !declared.has_lower_bound() || !declared.has_upper_bound();
        if (estimate && open) {
            Expr v = make_const(param.type(), *estimate);
            if (!declared.has_lower_bound()) {
                declared.min = v;
            }
            if (!declared.has_upper_bound()) {
                declared.max = v;
            }
            p.assumed[name] = Preamble::Assumption{*estimate, "its estimate"};
        }
        p.representative.push(name, declared);
    }

    Interval extent(const std::string &name, const ArgumentField &f, Interval i) {
        if (!has_const_min(i)) {
            i.min = make_zero(Int(32));  // a halide_buffer_t never has a negative extent
        }
        Expr e = f.param.extent_constraint_estimate(f.dim);
        std::optional<int64_t> estimate = e.defined() ? const_int(e) : std::nullopt;
        int64_t value = estimate ? *estimate : nominal;
        return fill(name, i, value, Int(32),
                    {static_cast<double>(value), estimate ? "its estimate" : "the nominal extent (harena.nominal_extent)"});
    }

    Interval min_of(const std::string &name, const ArgumentField &f, const Interval &i) {
        Expr e = f.param.min_constraint_estimate(f.dim);
        std::optional<int64_t> estimate = e.defined() ? const_int(e) : std::nullopt;
        int64_t value = estimate ? *estimate : 0;
        return fill(name, i, value, Int(32), {static_cast<double>(value), estimate ? "its estimate" : "0, no estimate"});
    }

    // Takes `value` for each side `declared` leaves open, within the side
    // that is declared, and records the assumption.
    Interval fill(const std::string &name, Interval declared, int64_t value, Type t,
                  const Preamble::Assumption &why) {
        const std::optional<int64_t> lo = constant_min(declared), hi = constant_max(declared);
        if (lo) {
            value = std::max(value, *lo);
        }
        if (hi) {
            value = std::min(value, *hi);
        }
        Expr v = make_const(t, value);
        if (!lo) {
            declared.min = v;
        }
        if (!hi) {
            declared.max = v;
            p.assumed[name] = Preamble::Assumption{static_cast<double>(value), why.source};
        }
        return declared;
    }
};

// The names bounded so far whose representative interval is one constant.
void record_points(Preamble &p) {
    for (auto it = p.representative.cbegin(); it != p.representative.cend(); ++it) {
        const Interval &i = it.value();
        if (!i.is_bounded()) {
            continue;
        }
        const Expr lo = simplify(i.min), hi = simplify(i.max);
        if (is_const(lo) && equal(lo, hi)) {
            p.points[it.name()] = lo;
        }
    }
}

}  // namespace

void choose_representative_values(Preamble &p, int64_t nominal_extent) {
    Chooser choose(p, nominal_extent);
    // Scalars and asserted names first: the lets are computed from them.
    std::set<std::string> let_names;
    for (const auto &[name, value] : p.lets) {
        let_names.insert(name);
    }
    for (auto it = p.bounds.cbegin(); it != p.bounds.cend(); ++it) {
        if (!let_names.count(it.name()) && !p.scalars.count(it.name())) {
            p.representative.push(it.name(), it.value());
        }
    }
    for (const auto &[name, param] : p.scalars) {
        choose.scalar(name, param);
    }
    record_points(p);
    for (const auto &[name, value] : p.lets) {
        choose.let(name, value);
    }
}

}  // namespace harena
