#include "size/buffer_facts.h"
#include "halide_compat.h"

#include "types.h"

namespace harena {

using namespace Halide;
using namespace Halide::Internal;

namespace {

Expr strip_lets(const Expr &e, std::vector<std::pair<std::string, Expr>> &lets) {
    if (const Let *op = e.as<Let>()) {
        lets.emplace_back(op->name, op->value);
        return strip_lets(op->body, lets);
    }
    return e;
}

}  // namespace

bool device_shape_of(const Expr &buffer_init_value, DeviceShape &out) {
    std::vector<std::pair<std::string, Expr>> lets;
    Expr e = strip_lets(buffer_init_value, lets);
    const Call *init = e.as<Call>();
    if (!init || init->name != Call::buffer_init || init->args.size() < 9) {
        return false;
    }
    Expr shape = init->args[8];
    for (auto it = lets.rbegin(); it != lets.rend(); ++it) {
        shape = substitute(it->first, it->second, shape);
    }
    std::optional<int64_t> bits = const_int(init->args[6]);
    std::optional<int64_t> dimensions = const_int(init->args[7]);
    if (!bits) {
        return false;
    }
    if (dimensions && *dimensions == 0) {
        // A zero-dimensional Func (a total, a scalar computed on the GPU)
        // has no shape at all: a null pointer, which nothing reads.
        out.bytes = make_const(Int(64), (*bits + 7) / 8);
        return true;
    }
    const Call *ms = shape.as<Call>();
    if (!ms || !ms->is_intrinsic(Call::make_struct) || ms->args.size() % 4 != 0) {
        return false;
    }
    Expr span = make_const(Int(64), 1);
    for (size_t d = 0; d + 3 < ms->args.size(); d += 4) {
        Expr extent = cast(Int(64), ms->args[d + 1]);
        Expr stride = cast(Int(64), ms->args[d + 2]);
        out.extents.push_back(extent);
        // max(s, -s): abs() would go through uint64, which bounds inference
        // cannot carry back.
        span = span + max(extent - 1, 0) * max(stride, 0 - stride);
    }
    out.bytes = span * make_const(Int(64), (*bits + 7) / 8);
    return true;
}

namespace {

class CollectBufferFacts : public IRVisitor {
public:
    std::map<const IRNode *, BufferFacts> facts;

    using IRVisitor::visit;
    void visit(const Allocate *op) override {
        if (is_buffer_object(op)) {
            // A heap pool FuseGPUThreadLoops lifted out of a kernel: the
            // Allocate is the halide_buffer_t itself, created by its new_expr.
            std::vector<const IRNode *> &stack = owners[buffer_owner(op->name)];
            facts[op].init_value = op->new_expr;
            facts[op].destructor = op->free_function;
            ScopedOwner own(stack, op);
            IRVisitor::visit(op);
            return;
        }
        ScopedOwner own(owners[op->name], op);
        IRVisitor::visit(op);
    }
    void visit(const LetStmt *op) override {
        op->value.accept(this);
        const std::string name = buffer_owner(op->name);
        if (name.empty()) {
            op->body.accept(this);
            return;
        }
        std::vector<const IRNode *> &stack = owners[name];
        for (const IRNode *owner : stack) {
            if (!facts[owner].init_value.defined()) {
                facts[owner].init_value = op->value;
            }
        }
        facts[op].init_value = op->value;
        ScopedOwner own(stack, op);
        op->body.accept(this);
    }
    void visit(const Call *op) override {
        IRVisitor::visit(op);
        if (op->is_intrinsic(Call::register_destructor) && op->args.size() == 2) {
            const StringImm *fn = op->args[0].as<StringImm>();
            for_each_owner(op->args[1], [&](BufferFacts &f) { f.destructor = fn ? fn->value : ""; });
        } else if (!op->args.empty()) {
            bool malloc = op->name == halide_names::kDeviceMalloc;
            bool copy = op->name == halide_names::kCopyToDevice;
            bool both = op->name == halide_names::kDeviceAndHostMalloc;
            for_each_owner(op->args[0], [&](BufferFacts &f) {
                f.device_malloc |= malloc;
                f.copy_to_device |= copy;
                f.device_and_host_malloc |= both;
            });
        }
    }

private:
    std::map<std::string, std::vector<const IRNode *>> owners;  // enclosing owners per buffer name

    struct ScopedOwner {
        std::vector<const IRNode *> &stack;
        ScopedOwner(std::vector<const IRNode *> &s, const IRNode *n)
            : stack(s) {
            stack.push_back(n);
        }
        ~ScopedOwner() {
            stack.pop_back();
        }
    };

    template<typename F>
    void for_each_owner(const Expr &buffer, F &&f) {
        const Variable *v = buffer.as<Variable>();
        if (!v || buffer_owner(v->name).empty()) {
            return;
        }
        auto it = owners.find(buffer_owner(v->name));
        if (it != owners.end()) {
            for (const IRNode *owner : it->second) {
                f(facts[owner]);
            }
        }
    }
};

}  // namespace

std::map<const IRNode *, BufferFacts> collect_buffer_facts(const Stmt &s) {
    CollectBufferFacts collect;
    s.accept(&collect);
    return std::move(collect.facts);
}

}  // namespace harena
