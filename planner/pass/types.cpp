// The shared types' few functions (types.h).
#include "types.h"

namespace harena {

using namespace Halide;
using namespace Halide::Internal;

namespace {

class FindBoundsQuery : public IRVisitor {
public:
    bool found = false;
    using IRVisitor::visit;
    void visit(const Call *op) override {
        found |= op->name == Call::buffer_is_bounds_query;
        IRVisitor::visit(op);
    }
};

bool is_buffer_init(const Expr &e) {
    if (const Let *let = e.as<Let>()) {
        return is_buffer_init(let->body);
    }
    const Call *c = e.as<Call>();
    return c && c->name == Call::buffer_init;
}

}  // namespace

int PassReport::planned_count() const {
    int n = 0;
    for (const BufferDecision &b : buffers) {
        n += b.planned;
    }
    return n;
}

double PassReport::ratio() const {
    return lower_bound ? (double)plan_bytes / (double)lower_bound : 1.0;
}

std::string buffer_owner(const std::string &name) {
    return ends_with(name, ".buffer") ? name.substr(0, name.size() - 7) : std::string();
}

bool is_bounds_query_test(const Expr &cond) {
    FindBoundsQuery f;
    cond.accept(&f);
    return f.found;
}

bool is_pipeline_branch(const IfThenElse *op) {
    return !op->else_case.defined() && op->condition.as<Not>() && is_bounds_query_test(op->condition);
}

bool is_buffer_object(const Allocate *op) {
    return !buffer_owner(op->name).empty() && op->new_expr.defined() && is_buffer_init(op->new_expr);
}

}  // namespace harena
