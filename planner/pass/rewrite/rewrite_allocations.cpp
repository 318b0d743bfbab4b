#include "rewrite/rewrite_allocations.h"

#include "host_allocation.h"
#include "runtime_calls.h"
#include "rewrite/buffer_calls.h"
#include "rewrite/size_limit.h"

#include "harena/pipeline_abi.h"

namespace harena {

using namespace Halide;
using namespace Halide::Internal;

namespace {

class RewriteAllocations : public IRMutator {
public:
    RewriteAllocations(const std::map<const IRNode *, Placement> &p, const Expr &b, const Expr &i, const Checks &c,
                       uint64_t maximum_buffer_size, const SlotPools &slots)
        : placed(p), base(b), device_interface(i), checks(c), maximum_buffer_size(maximum_buffer_size), slots(slots) {
    }

    using IRMutator::visit;

private:
    const std::map<const IRNode *, Placement> &placed;
    Expr base, device_interface;
    const Checks &checks;
    const uint64_t maximum_buffer_size;
    const SlotPools &slots;
    Scope<> device_slot_buffers;            // planned device buffers in scope that lie in a task's slot
    Scope<> bound_by_let;                   // planned buffers in scope whose name a let binds to their slice
    Scope<> device_buffers;                 // planned device buffers in scope
    Scope<> host_and_device_buffers;        // those of them Halide also keeps on the host
    Scope<const Placement *> placement_of;  // of each planned buffer in scope, by the name its Free uses
    // Inside one of the two copies of a parallel loop with slots
    // (versioned): the one that runs while checks are off reports no event.
    enum class Copy { None,
                      Checked,
                      Unchecked };
    Copy copy = Copy::None;

    bool reports_events() const {
        return checks.enabled() && copy != Copy::Unchecked;
    }

    Expr slice(const Expr &offset) const {
        return base + offset;
    }
    Expr address(const Placement &p) const {
        if (p.candidate->region != 0) {
            return slot_base(pool_of(*p.candidate)) + p.offset;
        }
        return p.host_base.defined() ? p.host_base + p.offset : slice(p.offset);
    }

    // A slice event, where checks are on, and for a buffer of a slot where
    // its task holds one. Its status is not tested here: the table keeps the
    // first failure and the frame's end returns it. An exit at each event
    // would cost every one of them an error path that frees each allocation
    // in scope, which is most of the code the checks add.
    Stmt reported(const Placement &p, const Expr &event) const {
        const Expr on = p.candidate->region != 0 ? checks.on && slot_taken(pool_of(*p.candidate)) : checks.on;
        return IfThenElse::make(on, Evaluate::make(event));
    }

    // Where a buffer is created, its slice is handed out: declared to a
    // memory checker and its guard band filled from the end of its bytes.
    // `padding`: bytes at the end of the size that Halide may read but never
    // writes (host allocations, host_allocation.h); the band starts there.
    Stmt with_checks(const Candidate &c, const Placement &p, const Stmt &s, uint64_t padding = 0) {
        if (p.host_base.defined() || !reports_events()) {
            return with_created_size_check(c, p, s);  // a host companion's slice, or no checks: no event
        }
        const Expr size = created_size(c, p);
        Expr bytes = size.defined() ? simplify(size - make_const(UInt(64), padding)) : p.bytes;
        Expr live = runtime_calls::pipeline_slice(checks.table, p.slice, HARENA_SLICE_HANDED_OUT, address(p), p.bytes,
                                                  bytes);
        return with_created_size_check(c, p, Block::make(reported(p, live), s));
    }

    // The buffer's size where it is created (UInt(64)), undefined where the
    // census has none. Where that size is checked against the slice, it is
    // bound once for the check and the event (nothing eliminates common
    // subexpressions after this pass).
    static Expr created_size(const Candidate &c, const Placement &p) {
        if (!c.size.defined()) {
            return Expr();
        }
        return c.check_where_created ? Variable::make(UInt(64), created_name(p)) : cast(UInt(64), size_where_created(c));
    }

    static std::string created_name(const Placement &p) {
        if (p.candidate->region != 0) {
            return "harena.slot_created." + std::to_string(p.candidate->region) + "." + std::to_string(p.slice);
        }
        return (p.host_base.defined() ? "harena.host.created." : "harena.created.") + std::to_string(p.slice);
    }

    // A slice bound by a let has no allocation to free; others free what
    // Halide still allocates for them (the host side of a device buffer).
    Stmt visit(const Free *op) override {
        if (!placement_of.contains(op->name)) {
            return IRMutator::visit(op);
        }
        const Placement &p = *placement_of.get(op->name);
        // One bound by a let (a host buffer, also one in a task's slot or
        // heap block) or a device slot buffer has nothing on the host to free.
        const Stmt freed =
            bound_by_let.contains(op->name) || device_slot_buffers.contains(op->name) ? Evaluate::make(0) : Stmt(op);
        if (p.host_base.defined() || !checks.frees || !reports_events()) {
            return freed;
        }
        const Expr zero = make_zero(UInt(64));
        Expr event = runtime_calls::pipeline_slice(checks.table, p.slice, HARENA_SLICE_FREED, address(p), zero, zero);
        return Block::make(reported(p, event), freed);
    }

    // A planned buffer whose host memory is the slice (a host buffer), or is
    // never touched (a device-only buffer), is no allocation: its name is
    // bound by a let to the slice's address, which is what codegen would
    // bind for an Allocate. Halide would emit for each Allocate a size
    // check, a null check and a destructor on every error path; a let needs
    // none of them, and a host buffer gets its size check here.
    Stmt visit(const Allocate *op) override {
        auto it = placed.find(op);
        if (it == placed.end()) {
            return IRMutator::visit(op);
        }
        const Placement &p = it->second;
        const Candidate &c = *p.candidate;
        if (c.kind == BufferKind::Host) {
            // In a parallel loop's task, address(p) lies in its slot.
            ScopedBinding<const Placement *> place(placement_of, op->name, &p);
            ScopedBinding<> let(bound_by_let, op->name);
            Stmt bound = LetStmt::make(op->name, reinterpret(Handle(), address(p)), mutate(op->body));
            return with_size_limit_check(op, c, with_checks(c, p, bound, padding_bytes(op)));
        }
        if (c.region != 0) {
            return device_in_its_slot(op, p);
        }
        if (is_buffer_object(op)) {
            // The buffer object of a heap pool lifted out of a kernel: bound
            // where it is created; the arena, not its destructor, owns it.
            std::string buffer = buffer_owner(op->name);
            ScopedBinding<> bind(device_buffers, buffer);
            ScopedBinding<const Placement *> place(placement_of, buffer, &p);
            Stmt body = mutate(op->body);
            return with_checks(c, p,
                               Allocate::make(op->name, op->type, op->memory_type, op->extents, op->condition, body,
                                              bind_device(op->new_expr, p.offset), halide_names::kNopFree));
        }
        ScopedBinding<> bind(device_buffers, op->name);
        ScopedBinding<const Placement *> place(placement_of, op->name, &p);
        const bool device_only = is_const_zero(op->condition);
        ScopedBinding<> let(device_only, bound_by_let, op->name);
        Stmt body = mutate(op->body);
        if (device_only) {
            // Device-only: the host side is never touched; its name is bound
            // to the slice (never dereferenced on the host).
            return with_checks(c, p, LetStmt::make(op->name, reinterpret(Handle(), slice(p.offset)), body));
        }
        // Also on the host: Halide allocates and frees that side.
        Stmt alloc = Allocate::make(op->name, op->type, op->memory_type, op->extents, op->condition, body,
                                    op->new_expr, op->free_function);
        return with_checks(c, p, alloc);
    }

    // A device buffer of a parallel loop's iterations: at its offset in the
    // task's slot, or for a task without one, from Halide's device malloc.
    // (A host buffer there is bound as the frame's are: for a task without
    // a slot, its slot base is a heap block, rewrite/parallel_slots.h.) A
    // task in a slot reports its slices' events as the frame's buffers do;
    // one without a slot, none.
    Stmt device_in_its_slot(const Allocate *op, const Placement &p) {
        const Candidate &c = *p.candidate;
        ScopedBinding<const Placement *> place(placement_of, op->name, &p);
        // Device-only: its buffer is created bound to the slot, or where
        // the task has none, unbound for Halide's device_malloc.
        ScopedBinding<> device(device_slot_buffers, op->name);
        Stmt body = mutate(op->body);
        const Expr at = select(slot_taken(pool_of(c)), address(p), make_zero(UInt(64)));
        return with_checks(c, p, LetStmt::make(op->name, reinterpret(Handle(), at), body));
    }

    const SlotPool &pool_of(const Candidate &c) const {
        return slots.pools[slots.by_region.at(c.region)];
    }
    // The pool of the device slot buffer `buffer` (a "<name>.buffer" variable).
    const SlotPool &pool_of_buffer(const Expr &buffer) const {
        const Variable *v = buffer.as<Variable>();
        return pool_of(*placement_of.get(buffer_owner(v->name))->candidate);
    }

    // A call on a device slot buffer that allocates or frees it (Halide's,
    // with its status), made only by a task without a slot.
    Expr unless_in_a_slot(const Call *call) const {
        const SlotPool &pool = pool_of_buffer(call->args[0]);
        return Call::make(call->type, Call::if_then_else, {slot_taken(pool), make_zero(call->type), Expr(call)},
                          Call::PureIntrinsic);
    }
    static bool allocates_or_frees(const Expr &e, const Scope<> &buffers) {
        return is_call_on(e, halide_names::kDeviceMalloc, buffers) || is_call_on(e, halide_names::kDeviceFree, buffers);
    }

    // A parallel loop whose tasks take slots, and the outermost parallel
    // loop, which keeps the states of the pools inside it.
    Stmt visit(const For *op) override {
        Stmt s;
        if (auto pool = slots.by_loop.find(op); pool != slots.by_loop.end()) {
            s = versioned(op, slots.pools[pool->second]);
        } else {
            s = IRMutator::visit(op);
        }
        if (auto states = slots.states_at.find(op); states != slots.states_at.end()) {
            std::vector<const SlotPool *> pools;
            for (size_t i : states->second) {
                pools.push_back(&slots.pools[i]);
            }
            s = with_slot_states(pools, s);
        }
        return s;
    }

    // A parallel loop with slots. Where checks may be on and the slots hold
    // host buffers only, it is two loops: one whose tasks report their
    // slices' events, and one, run while checks are off, with no trace of
    // them. Halide gives each its own task function, so the events'
    // arguments and calls cost the other's hot loops no registers. The
    // loops inside either copy are that copy's.
    Stmt versioned(const For *loop, const SlotPool &pool) {
        const auto with_slots = [&] {
            const Stmt body = mutate(loop->body);
            const Stmt opened = slot_opened(pool);
            return with_body(loop, in_a_slot(pool, base, opened.defined() ? Block::make(opened, body) : body));
        };
        // Device slot buffers keep one copy, reporting where checks are on.
        if (!checks.enabled() || copy != Copy::None || slots.device_buffers) {
            return with_slots();
        }
        ScopedValue<Copy> checked(copy, Copy::Checked);
        const Stmt reporting = with_slots();
        copy = Copy::Unchecked;
        return IfThenElse::make(checks.on, reporting, with_slots());
    }

    // Where checks are on and the task holds a slot, the band that opens it.
    Stmt slot_opened(const SlotPool &pool) const {
        if (!reports_events()) {
            return Stmt();
        }
        const Expr zero = make_zero(UInt(64));
        const Expr event = runtime_calls::pipeline_slice(checks.table, pool.opening_slice, HARENA_SLICE_SLOT_OPENED,
                                                         slot_base(pool), zero, zero);
        return IfThenElse::make(checks.on && slot_taken(pool), Evaluate::make(event));
    }

    // A host buffer's size limit, checked where it is created.
    Stmt with_size_limit_check(const Allocate *op, const Candidate &c, const Stmt &s) const {
        if (!needs_size_limit_check(c, maximum_buffer_size)) {
            return s;
        }
        return Block::make(size_limit_check(op, maximum_buffer_size), s);
    }

    // The slice holds what the frame computed for this call. Where that is a
    // bound derived over the loops, a size above it means the bound was
    // wrong, and must never reach a kernel. Where it is the size itself the
    // check could not fail, and is left out: it would only add code.
    static Stmt with_created_size_check(const Candidate &c, const Placement &p, const Stmt &s) {
        if (!c.check_where_created) {
            return s;
        }
        Expr bytes = created_size(c, p);
        Expr error = Call::make(Int(32), halide_names::kAllocationTooLarge,
                                {StringImm::make(c.name), bytes, p.bytes}, Call::Extern);
        Stmt checked = Block::make(AssertStmt::make(bytes <= p.bytes, error), s);
        return LetStmt::make(created_name(p), cast(UInt(64), size_where_created(c)), checked);
    }

    // Where the rewrite places its events and checks, the Allocate's own
    // names are in scope: a host buffer's size in them needs no let substituted.
    static Expr size_where_created(const Candidate &c) {
        return c.size_where_created.defined() ? c.size_where_created : c.size;
    }

    // The host part of a buffer on host and device is Halide's; its device
    // part, a slice of the arena, must never reach Halide's free.
    static Expr host_part_free(const Call *free_call) {
        return runtime_calls::planned_host_free(free_call->args[0]);
    }

    Stmt visit(const LetStmt *op) override {
        auto it = placed.find(op);
        if (it != placed.end()) {
            // A buffer on host and device, created here and allocated by
            // halide_device_and_host_malloc, which finds the device part
            // bound and allocates only the host part.
            const Candidate &c = *it->second.candidate;
            ScopedBinding<> bind(device_buffers, c.name);
            ScopedBinding<> both(host_and_device_buffers, c.name);
            ScopedBinding<const Placement *> place(placement_of, c.name, &it->second);
            Stmt body = mutate(op->body);
            return with_checks(c, it->second,
                               LetStmt::make(op->name, bind_device(op->value, it->second.offset), body));
        }
        if (is_call_on(op->value, halide_names::kDeviceAndHostFree, host_and_device_buffers)) {
            return LetStmt::make(op->name, host_part_free(op->value.as<Call>()), mutate(op->body));
        }
        if (const std::string owner = buffer_owner(op->name); !owner.empty() && device_slot_buffers.contains(owner)) {
            return LetStmt::make(op->name, bind_device_in_slot(op->value, *placement_of.get(owner)), mutate(op->body));
        }
        if (allocates_or_frees(op->value, device_slot_buffers)) {
            return LetStmt::make(op->name, unless_in_a_slot(op->value.as<Call>()), mutate(op->body));
        }
        if (const std::string owner = buffer_owner(op->name); !owner.empty() && device_buffers.contains(owner)) {
            const Expr &offset = placement_of.get(owner)->offset;
            return LetStmt::make(op->name, bind_device(op->value, offset), mutate(op->body));
        }
        if (allocates_or_frees(op->value, device_buffers)) {
            return LetStmt::make(op->name, make_zero(op->value.type()), mutate(op->body));
        }
        return IRMutator::visit(op);
    }

    Stmt visit(const Evaluate *op) override {
        if (allocates_or_frees(op->value, device_slot_buffers)) {
            return Evaluate::make(unless_in_a_slot(op->value.as<Call>()));
        }
        if (is_destructor(op->value, halide_names::kDeviceFreeAsDestructor, device_slot_buffers)) {
            // Registered for a task without a slot only: Halide calls no
            // destructor whose object is null.
            const Call *c = op->value.as<Call>();
            const Expr buffer = c->args[1];
            const Expr object = reinterpret(buffer.type(), select(slot_taken(pool_of_buffer(buffer)), make_zero(UInt(64)),
                                                                  reinterpret(UInt(64), buffer)));
            return Evaluate::make(Call::make(c->type, c->name, {c->args[0], object}, c->call_type));
        }
        if (is_destructor(op->value, halide_names::kDeviceAndHostFreeAsDestructor, host_and_device_buffers)) {
            const Call *c = op->value.as<Call>();
            return Evaluate::make(Call::make(c->type, c->name,
                                             {StringImm::make(runtime_calls::planned_host_free_destructor()), c->args[1]},
                                             c->call_type));
        }
        if (is_call_on(op->value, halide_names::kDeviceAndHostFree, host_and_device_buffers)) {
            return Evaluate::make(host_part_free(op->value.as<Call>()));
        }
        if (is_destructor(op->value, halide_names::kDeviceFreeAsDestructor, device_buffers) ||
            allocates_or_frees(op->value, device_buffers)) {
            return Evaluate::make(0);
        }
        return IRMutator::visit(op);
    }

    // _halide_buffer_init for a device slot buffer: bound to the task's slot
    // where it has one, as Halide creates it (unbound) where it has none.
    Expr bind_device_in_slot(const Expr &value, const Placement &p) {
        const SlotPool &pool = pool_of(*p.candidate);
        const Expr taken = slot_taken(pool);
        const auto either = [&](const Expr &in_slot, const Expr &otherwise) {
            return reinterpret(otherwise.type(),
                               select(taken, reinterpret(UInt(64), in_slot), reinterpret(UInt(64), otherwise)));
        };
        return with_device(value, [&](Expr &device, Expr &interface) {
            device = either(slot_base(pool) + p.offset, device);
            interface = either(device_interface, interface);
        });
    }

    // _halide_buffer_init(..., host, device, device_interface, ...): create the
    // buffer already bound to its slice.
    Expr bind_device(const Expr &value, const Expr &offset) {
        return with_device(value, [&](Expr &device, Expr &interface) {
            device = slice(offset);
            interface = device_interface;
        });
    }
};

}  // namespace

Stmt checked_call(const std::string &name, const Expr &call, const Expr &when) {
    Expr status = Variable::make(Int(32), name);
    Stmt check = LetStmt::make(name, call, AssertStmt::make(status == 0, status));
    return when.defined() ? IfThenElse::make(when != make_zero(when.type()), check) : check;
}

Stmt rewrite_allocations(const Stmt &s, const std::map<const IRNode *, Placement> &placed, const Expr &base,
                         const Expr &device_interface, const Checks &checks, uint64_t maximum_buffer_size,
                         const SlotPools &slots) {
    return RewriteAllocations(placed, base, device_interface, checks, maximum_buffer_size, slots).mutate(s);
}

}  // namespace harena
