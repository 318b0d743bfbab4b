#include "rewrite/buffer_calls.h"

#include <sstream>

namespace harena {

using namespace Halide;
using namespace Halide::Internal;

namespace {

bool names_buffer_in(const Expr &object, const Scope<> &buffers) {
    const Variable *v = object.as<Variable>();
    return v && !buffer_owner(v->name).empty() && buffers.contains(buffer_owner(v->name));
}

}  // namespace

bool is_call_on(const Expr &e, const std::string &function, const Scope<> &buffers) {
    const Call *c = e.as<Call>();
    return c && c->name == function && !c->args.empty() && names_buffer_in(c->args[0], buffers);
}

bool is_destructor(const Expr &e, const std::string &destructor, const Scope<> &buffers) {
    const Call *c = e.as<Call>();
    if (!c || !c->is_intrinsic(Call::register_destructor) || c->args.size() != 2) {
        return false;
    }
    const StringImm *fn = c->args[0].as<StringImm>();
    return fn && fn->value == destructor && names_buffer_in(c->args[1], buffers);
}

Expr with_device(const Expr &value, const std::function<void(Expr &device, Expr &interface)> &bind) {
    if (const Let *let = value.as<Let>()) {
        return Let::make(let->name, let->value, with_device(let->body, bind));
    }
    const Call *init = value.as<Call>();
    if (!init || init->name != Call::buffer_init) {
        std::ostringstream msg;
        msg << "harena: unexpected form of a planned buffer: " << value;
        throw InternalError(msg.str());
    }
    std::vector<Expr> args = init->args;
    bind(args[3], args[4]);
    return Call::make(init->type, init->name, args, init->call_type);
}

}  // namespace harena
