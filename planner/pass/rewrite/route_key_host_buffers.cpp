#include "rewrite/route_key_host_buffers.h"

#include "types.h"
#include "runtime_calls.h"

namespace harena {

using namespace Halide;
using namespace Halide::Internal;

namespace {

class RouteKeyHostBuffers : public IRMutator {
public:
    explicit RouteKeyHostBuffers(const std::set<std::string> &b)
        : buffers(b) {
    }

private:
    const std::set<std::string> &buffers;

    using IRMutator::visit;

    Expr visit(const Call *op) override {
        if (op->name != halide_names::kDeviceAndHostMalloc || op->call_type != Call::Extern ||
            op->args.size() != 2) {
            return IRMutator::visit(op);
        }
        const Variable *buf = op->args[0].as<Variable>();
        if (buf == nullptr || buffers.count(buffer_owner(buf->name)) == 0) {
            return IRMutator::visit(op);
        }
        return runtime_calls::key_host_malloc(op->args[0], op->args[1]);
    }
};

}  // namespace

Stmt route_key_host_buffers(const Stmt &s, const std::set<std::string> &buffers) {
    return buffers.empty() ? s : RouteKeyHostBuffers(buffers).mutate(s);
}

}  // namespace harena
