#include "route_argument_buffers.h"

#include <map>
#include <string>

namespace harena {

using namespace Halide;
using namespace Halide::Internal;

namespace {

// Halide's allocating entry points and the runtime's routed equivalents
// (runtime/src/argument_buffers.cpp).
const std::map<std::string, std::string> &routed() {
    static const std::map<std::string, std::string> m = {
        {"halide_copy_to_device", "harena_argument_copy_to_device"},
        {"halide_device_malloc", "harena_argument_device_malloc"},
        {"halide_device_and_host_malloc", "harena_argument_device_and_host_malloc"},
    };
    return m;
}

// A buffer the pipeline did not create: every intermediate's halide_buffer_t
// is bound by a let (or, for heap pools lifted out of kernels, an Allocate)
// inside the pipeline, so a free buffer variable is an argument or a buffer
// compiled into the pipeline, and outlives the call.
class RouteArgumentBuffers : public IRMutator {
    Scope<> bound;

    using IRMutator::visit;

    Stmt visit(const LetStmt *op) override {
        Expr value = mutate(op->value);
        ScopedBinding<> bind(bound, op->name);
        Stmt body = mutate(op->body);
        return LetStmt::make(op->name, value, body);
    }

    Expr visit(const Let *op) override {
        Expr value = mutate(op->value);
        ScopedBinding<> bind(bound, op->name);
        Expr body = mutate(op->body);
        return Let::make(op->name, value, body);
    }

    Stmt visit(const Allocate *op) override {
        ScopedBinding<> bind(bound, op->name);
        return IRMutator::visit(op);
    }

    Expr visit(const Call *op) override {
        auto it = routed().find(op->name);
        if (it == routed().end() || op->call_type != Call::Extern || op->args.size() != 2) {
            return IRMutator::visit(op);
        }
        const Variable *buf = op->args[0].as<Variable>();
        if (buf == nullptr || bound.contains(buf->name)) {
            return IRMutator::visit(op);
        }
        // Not in Halide's list of runtime functions that receive the user
        // context implicitly, so it is passed explicitly.
        Expr uc = Call::make(type_of<void *>(), Call::get_user_context, {}, Call::PureIntrinsic);
        return Call::make(op->type, it->second, {uc, op->args[0], mutate(op->args[1])}, Call::Extern);
    }
};

}  // namespace

Stmt route_argument_buffers(const Stmt &s) {
    return RouteArgumentBuffers().mutate(s);
}

}  // namespace harena
