#include "rewrite/parallel_slots.h"

#include "runtime_calls.h"

#include "harena/pipeline_abi.h"

namespace harena {

using namespace Halide;
using namespace Halide::Internal;

namespace {

// The state of a pool its pipeline keeps: a halide_mutex (one pointer-sized
// word), the count of free slots, then the stack of free slot indices.
enum StateWord : int {
    kMutex = 0,
    kFree = 1,
    kFreeSlots = 2,
};

std::string state_name(const SlotPool &pool) {
    return "harena.slots." + std::to_string(pool.region);
}
Expr state_address(const SlotPool &pool) {
    return Variable::make(Handle(), state_name(pool));
}
int state_words(const SlotPool &pool) {
    return pool.keeper == SlotKeeper::Runtime ? HARENA_SLOT_POOL_WORDS(pool.capacity) : kFreeSlots + pool.capacity;
}

Expr word(const SlotPool &pool, const Expr &index) {
    return Load::make(UInt(64), state_name(pool), index, Halide::Buffer<>(), Parameter(), const_true(),
                      ModulusRemainder());
}
Expr word(const SlotPool &pool, int index) {
    return word(pool, make_const(Int(32), index));
}
Stmt set_word(const SlotPool &pool, const Expr &index, const Expr &value) {
    return Store::make(state_name(pool), value, index, Parameter(), const_true(), ModulusRemainder());
}
Stmt set_word(const SlotPool &pool, int index, const Expr &value) {
    return set_word(pool, make_const(Int(32), index), value);
}

// halide_mutex_lock/unlock on the state's first word. They return nothing;
// a call whose value is never used may say Int(32).
Stmt mutex_call(const SlotPool &pool, const char *function) {
    return Evaluate::make(Call::make(Int(32), function, {state_address(pool)}, Call::Extern));
}

std::string slot_name(const SlotPool &pool) {
    return "harena.slot." + std::to_string(pool.region);
}
std::string slot_base_name(const SlotPool &pool) {
    return "harena.slot_base." + std::to_string(pool.region);
}
Expr slot_index(const SlotPool &pool) {
    return Variable::make(Int(32), slot_name(pool));
}

const Expr &u64_one() {
    static const Expr one = make_const(UInt(64), 1);
    return one;
}

// Every slot free; slot 0 is taken first.
Stmt fill_state(const SlotPool &pool) {
    if (pool.keeper == SlotKeeper::Runtime) {
        return Evaluate::make(runtime_calls::slot_pool_init(state_address(pool), pool.capacity));
    }
    const Expr slots = make_const(UInt(64), pool.capacity);
    const std::string i = "harena.slot_fill." + std::to_string(pool.region);
    const Expr iv = Variable::make(Int(32), i);
    Stmt fill = make_for(i, 0, pool.capacity, ForType::Serial, DeviceAPI::None,
                         set_word(pool, iv + kFreeSlots, slots - u64_one() - cast(UInt(64), iv)));
    return Block::make({set_word(pool, kMutex, make_zero(UInt(64))), set_word(pool, kFree, slots), fill});
}

// The task's slot bound to slot_name(pool) around `body`, -1 for none, and
// given back after it.
Stmt take_and_give(const SlotPool &pool, const Stmt &body) {
    if (pool.keeper == SlotKeeper::Runtime) {
        const Stmt give = Evaluate::make(runtime_calls::slot_give(state_address(pool), slot_index(pool)));
        return LetStmt::make(slot_name(pool), runtime_calls::slot_take(state_address(pool)),
                             Block::make(body, IfThenElse::make(slot_taken(pool), give)));
    }
    // Give: the slot goes back on the stack.
    const Expr free_now = word(pool, kFree);
    Stmt give = Block::make({mutex_call(pool, "halide_mutex_lock"),
                             set_word(pool, cast(Int(32), free_now) + kFreeSlots, cast(UInt(64), slot_index(pool))),
                             set_word(pool, kFree, free_now + u64_one()), mutex_call(pool, "halide_mutex_unlock")});
    // Take: pop the top of the stack where it is not empty. With none free
    // the load reads the count's word, which the select drops.
    const std::string free_name = "harena.free." + std::to_string(pool.region);
    const Expr free = Variable::make(UInt(64), free_name);
    const Expr any = free > make_zero(UInt(64));
    Stmt take = Block::make({set_word(pool, kFree, select(any, free - u64_one(), free)),
                             mutex_call(pool, "halide_mutex_unlock"), body, IfThenElse::make(slot_taken(pool), give)});
    take = LetStmt::make(slot_name(pool),
                         select(any, cast(Int(32), word(pool, cast(Int(32), free) + (kFreeSlots - 1))), -1), take);
    take = LetStmt::make(free_name, word(pool, kFree), take);
    return Block::make(mutex_call(pool, "halide_mutex_lock"), take);
}

}  // namespace

Stmt with_slot_states(const std::vector<const SlotPool *> &pools, const Stmt &loop) {
    Stmt s = loop;
    for (const SlotPool *pool : pools) {
        if (pool->keeper == SlotKeeper::Runtime) {
            // Its status is not tested: counters never fail a call that ran.
            s = Block::make(s, Evaluate::make(runtime_calls::pipeline_slots(state_address(*pool))));
        }
    }
    for (const SlotPool *pool : pools) {
        s = Block::make(fill_state(*pool), s);
    }
    for (const SlotPool *pool : pools) {
        s = Allocate::make(state_name(*pool), UInt(64), MemoryType::Stack, {state_words(*pool)}, const_true(), s);
    }
    return s;
}

Expr slot_taken(const SlotPool &pool) {
    return slot_index(pool) >= 0;
}

Expr slot_base(const SlotPool &pool) {
    return Variable::make(UInt(64), slot_base_name(pool));
}

Stmt in_a_slot(const SlotPool &pool, const Expr &frame_base, const Stmt &body) {
    const Expr index = cast(UInt(64), max(slot_index(pool), 0));
    const Expr in_slot = frame_base + pool.offset + index * pool.stride;
    if (!pool.host_buffers) {
        return take_and_give(pool, LetStmt::make(slot_base_name(pool), in_slot, body));
    }
    // A task without a slot: one heap block of the slot's bytes. Halide
    // frees it at its Free and on every error path, and calls no free
    // function for a null block (a task in a slot).
    const std::string heap = "harena.slot_heap." + std::to_string(pool.region);
    const Expr taken = slot_taken(pool);
    // At least a byte: a custom halide_malloc may return null for none.
    const Expr bytes = max(pool.stride, make_const(UInt(64), 1));
    const Expr malloc = Call::make(Handle(), "halide_malloc", {bytes}, Call::Extern);
    const Expr none = reinterpret(Handle(), make_zero(UInt(64)));
    const Expr block = Call::make(Handle(), Call::if_then_else, {!taken, malloc, none}, Call::PureIntrinsic);
    const Expr where = select(taken, in_slot, reinterpret(UInt(64), Variable::make(Handle(), heap)));
    const Stmt bound = Block::make(LetStmt::make(slot_base_name(pool), where, body), Free::make(heap));
    return take_and_give(pool, Allocate::make(heap, UInt(8), MemoryType::Heap, {}, !taken, bound, block, "halide_free"));
}

}  // namespace harena
