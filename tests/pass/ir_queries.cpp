#include "ir_queries.h"

#include <sstream>

namespace harena_test {

using namespace Halide;
using namespace Halide::Internal;

namespace {

class Calls : public IRVisitor {
public:
    std::string function, destructor;
    int count = 0;
    using IRVisitor::visit;
    void visit(const Call *op) override {
        if (!function.empty() && op->name == function) {
            count++;
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

}  // namespace

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

const Allocate *find_allocate(const Stmt &s, const std::string &name) {
    FindAllocate f;
    f.name = name;
    s.accept(&f);
    return f.found;
}

std::string text_of(const Stmt &s) {
    std::ostringstream o;
    o << s;
    return o.str();
}

}  // namespace harena_test
