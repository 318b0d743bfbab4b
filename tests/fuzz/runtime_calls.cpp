// The calls of the runtime fuzz target, each made on the runtime and on the
// model (see runtime_calls.h). One byte picks the call, the next ones its
// arguments.
#include "runtime_calls.h"

#include <cstdlib>
#include <cstring>

namespace harena_fuzz {

namespace {

// What a refused harena_create reports.
const Expect kInvalid{HARENA_ERROR_INVALID_ARGUMENT, 1, 0};

bool debug_forced() {
    const char *env = std::getenv("HARENA_DEBUG");
    return env != nullptr && std::strcmp(env, "1") == 0;
}

}  // namespace

void RuntimeCalls::run() {
    for (int calls = 0; calls < kMaxCalls && !in_.empty(); calls++) {
        switch (in_.byte() % 16) {
        case 0:
            create();
            break;
        case 1:
            destroy();
            break;
        case 2:
            push();
            break;
        case 3:
            pop();
            break;
        case 4:
        case 5:
            alloc();
            break;
        case 6:
            free();
            break;
        case 7:
            begin_scope(false);
            break;
        case 8:
            begin_scope(true);
            break;
        case 9:
            end_scope(static_cast<int>(in_.below(kScopes)));
            break;
        case 10:
            alloc_buffer();
            break;
        case 11:
            reset_stats();
            break;
        case 12:
            shrink_to_fit();
            break;
        case 13:
        case 14:
            query();
            break;
        default:
            misuse();
            break;
        }
        check_state();
    }
}

// Sizes near what is left of the arena and near the ends of uint64_t, as
// well as small ones.
uint64_t RuntimeCalls::request() {
    const uint64_t left = arena_ ? model_.capacity - model_.top : 0;
    const uint8_t kind = in_.byte();
    uint64_t v = 0;
    switch (kind % 8) {
    case 0:
        v = 0;
        break;
    case 1:
        v = in_.byte();
        break;
    case 2:
        v = in_.bits(2);
        break;
    case 3:
        v = in_.bits(3);
        break;
    case 4:
        v = left - (left > 0 ? in_.below(left < 256 ? left : 256) : 0);
        break;
    case 5:
        v = left + 1 + in_.byte();
        break;
    case 6:
        v = UINT64_MAX - in_.byte();
        break;
    default:
        v = kMaxCapacity - 128 + in_.byte();
        break;
    }
    if (model_.grow && v > kGrowRequestLimit && v <= kMaxCapacity) {
        v = kGrowRequestLimit - in_.byte();
    }
    return v;
}

harena_options RuntimeCalls::options() {
    harena_options o;
    harena_options_init(&o);
    const uint8_t flags = in_.byte();
    o.alignment = uint64_t(1) << in_.below(13);
    o.overflow_policy = (flags & 1) ? HARENA_OVERFLOW_FALLBACK : HARENA_OVERFLOW_ERROR;
    o.debug = (flags & 2) ? 1 : 0;
    o.grow = (flags & 4) ? 1 : 0;
    o.max_frames = 1 + static_cast<uint32_t>(in_.below(8));
    return o;
}

void RuntimeCalls::create() {
    if (arena_ != nullptr) {
        return;  // one arena at a time: the model is of one arena
    }
    const uint8_t how = in_.byte();
    harena_options o = options();
    const uint64_t unit = in_.bits(2);
    const uint64_t size = 1 + unit * (1 + in_.below(16));  // up to 1 MiB
    harena_arena *created = nullptr;
    begin_call();
    switch (how % 4) {
    case 0:
    case 1:
        if (!create_owned(o, size, created)) return;
        break;
    case 2:
        if (!create_from_memory(o, size, created)) return;
        break;
    default:
        create_refused(o, size);
        return;
    }
    arena_ = created;
    destroyed_ = nullptr;
    model_.alignment = o.alignment;
    model_.fallback = o.overflow_policy == HARENA_OVERFLOW_FALLBACK;
    model_.debug = o.debug != 0 || debug_forced();
    model_.grow = o.grow != 0;
    model_.max_frames = o.max_frames;
    model_.moved = true;  // the base is not known before
}

bool RuntimeCalls::create_owned(const harena_options &o, uint64_t size, harena_arena *&created) {
    // An alignment above the capacity would round the arena up to one allocation.
    if (o.alignment > size) {
        expect(kInvalid, "harena_create with an alignment above the capacity",
               harena_create(nullptr, nullptr, size, &o, &created));
        FUZZ_CHECK(created == nullptr, "a refused harena_create wrote an arena");
        return false;
    }
    expect({}, "harena_create", harena_create(nullptr, nullptr, size, &o, &created));
    model_ = ArenaModel{};
    model_.capacity = (size + o.alignment - 1) / o.alignment * o.alignment;
    return true;
}

bool RuntimeCalls::create_from_memory(const harena_options &o, uint64_t size, harena_arena *&created) {
    // Memory the caller owns, at an address that need not be aligned.
    const uint64_t misalign = in_.below(64);
    auto memory = std::make_unique<uint8_t[]>(size + misalign);
    const uint64_t address = reinterpret_cast<uint64_t>(memory.get()) + misalign;
    const uint64_t base = (address + o.alignment - 1) / o.alignment * o.alignment;
    const uint64_t capacity = size > base - address ? (size - (base - address)) / o.alignment * o.alignment : 0;
    const int code = harena_create_from_memory(nullptr, address, size, &o, &created);
    if (o.grow || capacity == 0) {
        expect(kInvalid, "harena_create_from_memory (grow, or no aligned block)", code);
        return false;
    }
    expect({}, "harena_create_from_memory", code);
    user_memory_ = std::move(memory);
    model_ = ArenaModel{};
    model_.capacity = capacity;
    model_.owns = false;
    return true;
}

void RuntimeCalls::create_refused(harena_options o, uint64_t size) {
    harena_arena *created = nullptr;
    const uint8_t which = in_.byte() % 6;
    if (which == 0) {
        expect(kInvalid, "harena_create of 0 bytes", harena_create(nullptr, nullptr, 0, &o, &created));
    } else if (which == 1) {
        o.alignment = in_.byte() % 2 ? 0 : (uint64_t(1) << in_.below(12)) * 3;
        expect(kInvalid, "harena_create with a bad alignment", harena_create(nullptr, nullptr, size, &o, &created));
    } else if (which == 2) {
        o.overflow_policy = 2 + in_.byte();
        expect(kInvalid, "harena_create with a bad policy", harena_create(nullptr, nullptr, size, &o, &created));
    } else if (which == 3) {
        o.max_frames = 0;
        expect(kInvalid, "harena_create with max_frames 0", harena_create(nullptr, nullptr, size, &o, &created));
    } else if (which == 4) {
        expect(kInvalid, "harena_create of more than 1 TiB",
               harena_create(nullptr, nullptr, kMaxCapacity + 1 + in_.byte(), &o, &created));
    } else {
        expect(kInvalid, "harena_create without an output", harena_create(nullptr, nullptr, size, &o, nullptr));
    }
    FUZZ_CHECK(created == nullptr, "a refused harena_create wrote an arena");
}

harena_arena *RuntimeCalls::absent_arena(int *code) {
    if (destroyed_ != nullptr && in_.byte() % 2) {
        *code = HARENA_ERROR_NOT_AN_ARENA;
        return destroyed_;
    }
    *code = HARENA_ERROR_INVALID_ARGUMENT;
    return nullptr;
}

void RuntimeCalls::destroy() {
    begin_call();
    if (arena_ == nullptr) {
        int code;
        harena_arena *a = absent_arena(&code);
        expect({code, 1, 0}, "harena_destroy of no arena", harena_destroy(a));
        return;
    }
    if (!model_.idle()) {
        expect({HARENA_ERROR_ARENA_IN_USE, 1, 0}, "harena_destroy while in use", harena_destroy(arena_));
        return;
    }
    expect({}, "harena_destroy", harena_destroy(arena_));
    destroyed_ = arena_;
    arena_ = nullptr;
    user_memory_.reset();
    model_ = ArenaModel{};
}

void RuntimeCalls::push() {
    begin_call();
    const uint64_t reserve = request();
    harena_frame frame{};
    if (arena_ == nullptr) {
        int code;
        harena_arena *a = absent_arena(&code);
        expect({code, 1, 0}, "harena_push on no arena", harena_push(a, reserve, &frame));
        return;
    }
    const bool want_frame = in_.byte() % 8 != 0;  // the frame output may be NULL
    const Expect e = model_.push(reserve, -1);
    expect(e, "harena_push", harena_push(arena_, reserve, want_frame ? &frame : nullptr));
    if (e.code == HARENA_OK) {
        check_state();  // learns the base if the arena grew
        const ModelFrame &f = model_.frames.back();
        FUZZ_CHECK(!want_frame || (frame.id == f.id && frame.base == base_ + f.offset),
                   "harena_push gave frame #%llu at 0x%llx, the model expects #%llu at 0x%llx",
                   (unsigned long long)frame.id, (unsigned long long)frame.base, (unsigned long long)f.id,
                   (unsigned long long)(base_ + f.offset));
    }
}

void RuntimeCalls::pop() {
    pop_frame(model_.frames.empty() ? 0 : in_.below(model_.frames.size() + 1));
}

// Pops the frame `depth_below_top` frames under the top, or, past the
// bottom (or for a frame an active scope owns), a frame id never handed out.
void RuntimeCalls::pop_frame(uint64_t depth_below_top) {
    begin_call();
    if (arena_ == nullptr) {
        int code;
        harena_arena *a = absent_arena(&code);
        expect({code, 1, 0}, "harena_pop on no arena", harena_pop(a, harena_frame{1, 0}));
        return;
    }
    const size_t depth = model_.frames.size();
    uint64_t id = model_.next_frame_id + in_.byte();
    if (depth_below_top < depth) {
        const ModelFrame &f = model_.frames[depth - 1 - depth_below_top];
        if (f.scope < 0 || !scope_model_[f.scope].active) {
            id = f.id;
        }
    }
    const Expect e = model_.pop(id);
    expect(e, "harena_pop", harena_pop(arena_, harena_frame{id, 0}));
}

void RuntimeCalls::alloc() {
    begin_call();
    const uint64_t bytes = request();
    const char *name = in_.byte() % 2 ? "fuzz allocation" : nullptr;
    uint64_t address = 0;
    if (arena_ == nullptr) {
        expect({HARENA_ERROR_INVALID_ARGUMENT, 1, 0}, "harena_alloc on NULL",
               harena_alloc(nullptr, bytes, name, &address));
        return;
    }
    uint64_t offset = 0;
    const Expect e = model_.alloc(bytes, &offset);
    expect(e, "harena_alloc", harena_alloc(arena_, bytes, name, &address));
    if (e.code == HARENA_OK) {
        check_placement(address, offset);
        write_tag(model_.live.back(), next_tag_++);
    }
}

void RuntimeCalls::alloc_buffer() {
    begin_call();
    // A valid buffer of any shape: extents from 1, strides of either sign.
    halide_dimension_t dims[8] = {};
    halide_buffer_t buf{};
    buf.type.code = static_cast<halide_type_code_t>(in_.below(6));
    buf.type.bits = in_.byte();
    buf.type.lanes = static_cast<uint16_t>(1 + in_.below(4));
    buf.dimensions = static_cast<int32_t>(in_.below(model_.grow ? 2 : 9));
    buf.dim = dims;
    uint64_t high = 0, low = 0;  // element offsets above and below the first
    for (int i = 0; i < buf.dimensions; i++) {
        dims[i].extent = static_cast<int32_t>(1 + in_.below(256));
        const int32_t stride = static_cast<int32_t>(1 + in_.below(model_.grow ? 128 : 65536));
        dims[i].stride = in_.byte() % 2 ? stride : -stride;
        (stride == dims[i].stride ? high : low) += uint64_t(stride) * uint64_t(dims[i].extent - 1);
    }
    const uint64_t bytes = (high + low + 1) * ((buf.type.bits + 7) / 8);
    uint64_t address = 0;
    if (arena_ == nullptr) {
        expect({HARENA_ERROR_INVALID_ARGUMENT, 1, 0}, "harena_alloc_buffer on NULL",
               harena_alloc_buffer(nullptr, &buf, &address));
        return;
    }
    uint64_t offset = 0;
    const Expect e = model_.alloc(bytes, &offset);
    expect(e, "harena_alloc_buffer", harena_alloc_buffer(arena_, &buf, &address));
    if (e.code == HARENA_OK) {
        check_placement(address, offset);
        write_tag(model_.live.back(), next_tag_++);
    }
}

void RuntimeCalls::free() {
    begin_call();
    const uint8_t how = in_.byte();
    if (arena_ == nullptr) {
        expect({HARENA_ERROR_INVALID_ARGUMENT, 1, 0}, "harena_free on NULL", harena_free(nullptr, 1, 1));
        return;
    }
    if (how % 4 != 0 && !model_.live.empty()) {
        const size_t which = in_.below(model_.live.size());
        const ModelAllocation a = model_.live[which];
        check_tag(a);
        const Expect e = model_.free_live(which);
        expect(e, "harena_free", harena_free(arena_, base_ + a.offset, a.bytes));
        // Freed again: once its bytes came back, it lies at the top.
        if (how % 4 == 3 && model_.refused_free(a.offset, a.bytes)) {
            check_state();
            begin_call();
            expect({HARENA_ERROR_INVALID_FREE, 1, 0}, "harena_free of a freed allocation",
                   harena_free(arena_, base_ + a.offset, a.bytes));
        }
        return;
    }
    if (how % 16 == 4 && !model_.live.empty()) {
        invalid_free();
        return;
    }
    // Addresses outside the arena, on either side.
    const uint64_t address = how % 8 == 0 ? base_ - 1 - in_.byte() : base_ + model_.capacity + in_.byte();
    expect({HARENA_ERROR_NOT_IN_ARENA, 1, 0}, "harena_free outside the arena", harena_free(arena_, address, 1));
}

// A free that matches no live allocation: an interior pointer of one, or its
// address with a size that reaches past the top. Made only where the model
// says that every mode refuses it; the state must not change.
void RuntimeCalls::invalid_free() {
    const ModelAllocation a = model_.live[in_.below(model_.live.size())];
    uint64_t offset = a.offset;
    uint64_t bytes = a.bytes;
    if (in_.byte() % 2 && model_.alignment > 1) {
        offset += 1 + in_.below(model_.alignment - 1);
    } else {
        bytes = model_.top - a.offset + 1 + in_.byte();
    }
    if (model_.refused_free(offset, bytes)) {
        expect({HARENA_ERROR_INVALID_FREE, 1, 0}, "harena_free matching no allocation",
               harena_free(arena_, base_ + offset, bytes));
    }
}

}  // namespace harena_fuzz
