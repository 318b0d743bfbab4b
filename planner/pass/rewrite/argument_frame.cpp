#include "rewrite/argument_frame.h"

#include "runtime_calls.h"

namespace harena {

using namespace Halide;
using namespace Halide::Internal;

namespace {

Expr argument_buffer(const ArgumentFrame &frame) {
    return Variable::make(type_of<halide_buffer_t *>(), frame.argument + ".buffer");
}

// Halide's report of a failed requirement, with a message built when it fails.
Expr requirement_failed(const std::string &condition, const std::vector<Expr> &message) {
    Expr text = Call::make(type_of<const char *>(), Call::stringify, message, Call::PureIntrinsic);
    return Call::make(Int(32), halide_names::kRequirementFailed, {StringImm::make(condition), text}, Call::Extern);
}

// The argument holds at least the bytes this call's layout needs.
Stmt check_size(const ArgumentFrame &frame, const Expr &needed) {
    Expr bytes =
        cast(UInt(64), max(Call::make(Int(32), Call::buffer_get_extent, {argument_buffer(frame), 0}, Call::Extern), 0));
    Expr message = requirement_failed(
        frame.argument + ".extent.0 >= bytes needed",
        {StringImm::make("arena argument '" + frame.argument + "' of " + frame.pipeline + " holds "), bytes,
         StringImm::make(" bytes; this call needs "), needed,
         StringImm::make(": pass a uint8 buffer of at least that extent (its estimate is the plan's bytes at the "
                         "other arguments' estimates)")});
    return AssertStmt::make(bytes >= needed, message);
}

// Device plans: the buffer's device memory, allocated into it by the first
// call that finds none (the caller keeps it, as it keeps an output's).
Stmt bind_device_base(const ArgumentFrame &frame, const Stmt &body) {
    Expr buffer = argument_buffer(frame);
    Expr device = Call::make(UInt(64), Call::buffer_get_device, {buffer}, Call::Extern);
    Expr status = Variable::make(Int(32), "harena.argument_malloc");
    Stmt malloc = LetStmt::make(
        "harena.argument_malloc",
        Call::make(Int(32), halide_names::kDeviceMalloc, {buffer, frame.device_interface}, Call::Extern),
        AssertStmt::make(status == 0, status));
    Stmt s = LetStmt::make("harena.base", device, body);
    return Block::make(IfThenElse::make(device == make_zero(UInt(64)), malloc), s);
}

// Host plans: the buffer's host memory, which must be there.
Stmt bind_host_base(const ArgumentFrame &frame, const Stmt &body) {
    Expr host = Call::make(type_of<uint8_t *>(), Call::buffer_get_host, {argument_buffer(frame)}, Call::Extern);
    Expr address = reinterpret(UInt(64), host);
    Expr message = requirement_failed(frame.argument + ".host != NULL",
                                      {StringImm::make("arena argument '" + frame.argument + "' of " + frame.pipeline +
                                                       " has no host memory; a host pipeline plans into it")});
    Stmt s = LetStmt::make("harena.base", address, body);
    return Block::make(AssertStmt::make(address != make_zero(UInt(64)), message), s);
}

}  // namespace

Stmt open_argument_frame(const Stmt &s, const std::map<const IRNode *, Placement> &placed, const RunLayout &layout,
                         const ArgumentFrame &frame) {
    return open_before_first_use(s, placed, [&](const Stmt &body) {
        Stmt framed = frame.device_target ? bind_device_base(frame, body) : bind_host_base(frame, body);
        framed = Block::make(check_size(frame, layout.needed), framed);
        for (auto it = layout.lets.rbegin(); it != layout.lets.rend(); ++it) {
            framed = LetStmt::make(it->first, it->second, framed);
        }
        return framed;
    });
}

}  // namespace harena
