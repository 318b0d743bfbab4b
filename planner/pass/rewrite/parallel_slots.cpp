#include "rewrite/parallel_slots.h"

#include "runtime_calls.h"

namespace harena {

using namespace Halide;
using namespace Halide::Internal;

namespace {

// The state's words: a halide_mutex (one pointer-sized word), the count of
// free slots, three counters, then the stack of free slot indices.
enum StateWord : int {
    kMutex = 0,
    kFree = 1,
    kTaken = 2,
    kMissed = 3,
    kHighWater = 4,
    kFreeSlots = 5,
};

Expr word(const SlotPool &pool, const Expr &index) {
    return Load::make(UInt(64), slot_state_name(pool), index, Halide::Buffer<>(), Parameter(), const_true(),
                      ModulusRemainder());
}
Expr word(const SlotPool &pool, int index) {
    return word(pool, make_const(Int(32), index));
}
Stmt set_word(const SlotPool &pool, const Expr &index, const Expr &value) {
    return Store::make(slot_state_name(pool), value, index, Parameter(), const_true(), ModulusRemainder());
}
Stmt set_word(const SlotPool &pool, int index, const Expr &value) {
    return set_word(pool, make_const(Int(32), index), value);
}

// halide_mutex_lock/unlock on the state's first word. They return nothing;
// a call whose value is never used may say Int(32).
Stmt mutex_call(const SlotPool &pool, const char *function) {
    return Evaluate::make(
        Call::make(Int(32), function, {Variable::make(Handle(), slot_state_name(pool))}, Call::Extern));
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

// Every slot free, the counters at zero; slot 0 is taken first.
Stmt fill_state(const SlotPool &pool) {
    const Expr slots = make_const(UInt(64), pool.capacity);
    const std::string i = "harena.slot_fill." + std::to_string(pool.region);
    const Expr iv = Variable::make(Int(32), i);
    Stmt fill = make_for(i, 0, pool.capacity, ForType::Serial, DeviceAPI::None,
                         set_word(pool, iv + kFreeSlots, slots - u64_one() - cast(UInt(64), iv)));
    const Expr zero = make_zero(UInt(64));
    return Block::make({set_word(pool, kMutex, zero), set_word(pool, kFree, slots), set_word(pool, kTaken, zero),
                        set_word(pool, kMissed, zero), set_word(pool, kHighWater, zero), fill});
}

}  // namespace

std::string slot_state_name(const SlotPool &pool) {
    return "harena.slots." + std::to_string(pool.region);
}

std::string heap_block_name(const std::string &name) {
    return name + ".harena_heap";
}

Stmt with_slot_states(const std::vector<const SlotPool *> &pools, const Stmt &loop, bool report) {
    Stmt s = loop;
    if (report) {
        // Its status is not tested: counters never fail a call that ran.
        for (const SlotPool *pool : pools) {
            s = Block::make(s, Evaluate::make(runtime_calls::pipeline_slots(word(*pool, kTaken), word(*pool, kMissed),
                                                                            word(*pool, kHighWater))));
        }
    }
    for (const SlotPool *pool : pools) {
        s = Block::make(fill_state(*pool), s);
    }
    for (const SlotPool *pool : pools) {
        s = Allocate::make(slot_state_name(*pool), UInt(64), MemoryType::Stack, {kFreeSlots + pool->capacity},
                           const_true(), s);
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
    // Release: the slot goes back on the stack.
    const Expr free_now = word(pool, kFree);
    Stmt release = Block::make({mutex_call(pool, "halide_mutex_lock"),
                                set_word(pool, cast(Int(32), free_now) + kFreeSlots, cast(UInt(64), slot_index(pool))),
                                set_word(pool, kFree, free_now + u64_one()), mutex_call(pool, "halide_mutex_unlock")});
    release = IfThenElse::make(slot_taken(pool), release);
    Stmt s = Block::make(body, release);
    const Expr index = cast(UInt(64), max(slot_index(pool), 0));
    s = LetStmt::make(slot_base_name(pool), frame_base + pool.offset + index * pool.stride, s);
    // Acquire: pop the top of the stack where it is not empty. With none
    // free the load reads the high-water word, which the select drops.
    const std::string free_name = "harena.free." + std::to_string(pool.region);
    const Expr free = Variable::make(UInt(64), free_name);
    const Expr any = free > make_zero(UInt(64));
    const Expr left = select(any, free - u64_one(), free);
    const Expr one_if_any = select(any, u64_one(), make_zero(UInt(64)));
    Stmt take = Block::make({set_word(pool, kFree, left), set_word(pool, kTaken, word(pool, kTaken) + one_if_any),
                             set_word(pool, kMissed, word(pool, kMissed) + (u64_one() - one_if_any)),
                             set_word(pool, kHighWater, max(word(pool, kHighWater), make_const(UInt(64), pool.capacity) - left)),
                             mutex_call(pool, "halide_mutex_unlock"), s});
    take = LetStmt::make(slot_name(pool),
                         select(any, cast(Int(32), word(pool, cast(Int(32), free) + (kFreeSlots - 1))), -1), take);
    take = LetStmt::make(free_name, word(pool, kFree), take);
    return Block::make(mutex_call(pool, "halide_mutex_lock"), take);
}

Stmt slot_or_heap(const SlotPool &pool, const std::string &name, const Expr &address, const Expr &bytes,
                  const Stmt &body) {
    const std::string heap = heap_block_name(name);
    const Expr none = reinterpret(Handle(), make_zero(UInt(64)));
    const Expr malloc = Call::make(Handle(), "halide_malloc", {bytes}, Call::Extern);
    const Expr taken = slot_taken(pool);
    const Expr block = Call::make(Handle(), Call::if_then_else, {!taken, malloc, none}, Call::PureIntrinsic);
    const Expr where = select(taken, address, reinterpret(UInt(64), Variable::make(Handle(), heap)));
    Stmt bound = LetStmt::make(name, reinterpret(Handle(), where), body);
    // Halide frees the block at its Free and on every error path, and calls
    // no free function for a null block (a task in a slot).
    return Allocate::make(heap, UInt(8), MemoryType::Heap, {}, !taken, bound, block, "halide_free");
}

}  // namespace harena
