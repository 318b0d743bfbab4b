#include "rewrite/route_argument_buffers.h"

#include "runtime_calls.h"

#include <string>

namespace harena {

using namespace Halide;
using namespace Halide::Internal;

namespace {

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
        if (runtime_calls::argument_routing(op->name).empty() || op->call_type != Call::Extern ||
            op->args.size() != 2) {
            return IRMutator::visit(op);
        }
        const Variable *buf = op->args[0].as<Variable>();
        if (buf == nullptr || bound.contains(buf->name)) {
            return IRMutator::visit(op);
        }
        return runtime_calls::argument_call(op->name, op->args[0], mutate(op->args[1]));
    }
};

}  // namespace

Stmt route_argument_buffers(const Stmt &s) {
    return RouteArgumentBuffers().mutate(s);
}

}  // namespace harena
