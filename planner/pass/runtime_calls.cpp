#include "runtime_calls.h"

#include "harena/pipeline_abi.h"

#include <map>
#include <sstream>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace harena::runtime_calls {

using namespace Halide;
using namespace Halide::Internal;

namespace {

template<typename T>
bool matches(const Expr &e) {
    return std::is_pointer_v<T> ? e.type().is_handle() : e.type() == type_of<T>();
}

template<typename Signature>
struct Extern;

// A call of the entry point declared as `R name(Args...)` in
// harena/pipeline_abi.h: its Halide type is the declaration's return type,
// and each argument must have its parameter's type.
template<typename R, typename... Args>
struct Extern<R(Args...)> {
    static Expr call(const char *name, const std::vector<Expr> &args) {
        check(name, args);
        return Call::make(type_of<R>(), name, args, Call::Extern);
    }

    static void check(const char *name, const std::vector<Expr> &args) {
        if (args.size() != sizeof...(Args)) {
            throw InternalError("harena: " + std::string(name) + " takes " + std::to_string(sizeof...(Args)) + " arguments, given " +
                                std::to_string(args.size()));
        }
        check_each(name, args, std::index_sequence_for<Args...>());
    }

    template<size_t... I>
    static void check_each(const char *name, const std::vector<Expr> &args, std::index_sequence<I...>) {
        using Params = std::tuple<Args...>;
        const bool ok[] = {true, matches<std::tuple_element_t<I, Params>>(args[I])...};
        for (size_t i = 0; i < sizeof...(I); i++) {
            if (!ok[i + 1]) {
                std::ostringstream type;
                type << args[i].type();
                throw InternalError("harena: " + std::string(name) + ": argument " + std::to_string(i) + " has type " + type.str() +
                                    ", which its declaration in harena/pipeline_abi.h does not take");
            }
        }
    }
};

#define HARENA_CALL(function, name, ...) Extern<decltype(function)>::call(name, {__VA_ARGS__})

Expr u64(uint64_t v) {
    return make_const(UInt(64), v);
}

struct Routed {
    const char *name;
    Expr (*make)(const Expr &, const Expr &);
};

// Halide's allocating entry points and the runtime's equivalents for
// argument buffers (runtime/src/arguments/abi.cpp).
const std::map<std::string, Routed> &routed() {
    static const std::map<std::string, Routed> m = {
        {halide_names::kCopyToDevice,
         {HARENA_ABI_ARGUMENT_COPY_TO_DEVICE,
          [](const Expr &b, const Expr &i) {
              return HARENA_CALL(harena_argument_copy_to_device, HARENA_ABI_ARGUMENT_COPY_TO_DEVICE,
                                 user_context(), b, i);
          }}},
        {halide_names::kDeviceMalloc,
         {HARENA_ABI_ARGUMENT_DEVICE_MALLOC,
          [](const Expr &b, const Expr &i) {
              return HARENA_CALL(harena_argument_device_malloc, HARENA_ABI_ARGUMENT_DEVICE_MALLOC, user_context(),
                                 b, i);
          }}},
        {halide_names::kDeviceAndHostMalloc,
         {HARENA_ABI_ARGUMENT_DEVICE_AND_HOST_MALLOC,
          [](const Expr &b, const Expr &i) {
              return HARENA_CALL(harena_argument_device_and_host_malloc, HARENA_ABI_ARGUMENT_DEVICE_AND_HOST_MALLOC,
                                 user_context(), b, i);
          }}},
    };
    return m;
}

}  // namespace

Expr user_context() {
    return Call::make(type_of<void *>(), Call::get_user_context, {}, Call::PureIntrinsic);
}

Expr pipeline_enter(const std::string &pipeline, const Expr &device_interface, const Expr &bytes,
                    uint64_t worst_case_bytes, uint32_t traits, uint64_t alignment) {
    return HARENA_CALL(harena_pipeline_enter, HARENA_ABI_PIPELINE_ENTER, user_context(), StringImm::make(pipeline),
                       device_interface, bytes, u64(worst_case_bytes), make_const(UInt(32), traits), u64(alignment));
}

Expr pipeline_declare(uint32_t traits) {
    return HARENA_CALL(harena_pipeline_declare, HARENA_ABI_PIPELINE_DECLARE, user_context(),
                       make_const(UInt(32), traits));
}

Expr pipeline_base() {
    return HARENA_CALL(harena_pipeline_base, HARENA_ABI_PIPELINE_BASE, user_context());
}

namespace {

// Registers `name`, the runtime's function of type Fn, as a destructor of
// `base`: Halide calls it with the user_context and the registered value.
template<typename Fn>
Expr register_frame_exit(const char *name, const Expr &base) {
    Extern<Fn>::check(name, {user_context(), reinterpret(Handle(), base)});
    return Call::make(Handle(), Call::register_destructor, {StringImm::make(name), reinterpret(Handle(), base)},
                      Call::Intrinsic);
}

}  // namespace

Expr register_pipeline_exit(const Expr &base) {
    return register_frame_exit<decltype(harena_pipeline_exit_as_destructor)>(HARENA_ABI_PIPELINE_EXIT_AS_DESTRUCTOR,
                                                                             base);
}

Expr pipeline_host_enter(const std::string &pipeline, const std::string &buffers, const Expr &bytes,
                         uint64_t worst_case_bytes) {
    return HARENA_CALL(harena_pipeline_host_enter, HARENA_ABI_PIPELINE_HOST_ENTER, user_context(),
                       StringImm::make(pipeline), StringImm::make(buffers), bytes, u64(worst_case_bytes));
}

Expr pipeline_host_base() {
    return HARENA_CALL(harena_pipeline_host_base, HARENA_ABI_PIPELINE_HOST_BASE, user_context());
}

Expr register_pipeline_host_exit(const Expr &base) {
    return register_frame_exit<decltype(harena_pipeline_host_exit_as_destructor)>(
        HARENA_ABI_PIPELINE_HOST_EXIT_AS_DESTRUCTOR, base);
}

Expr guard_bytes() {
    return HARENA_CALL(harena_pipeline_guard_bytes, HARENA_ABI_PIPELINE_GUARD_BYTES, user_context());
}

Expr nvtx_attached() {
    return HARENA_CALL(harena_nvtx_attached, HARENA_ABI_NVTX_ATTACHED);
}

Expr slice_table(const std::string &names) {
    // Field by field the struct of harena/pipeline_abi.h (runtime/src/checking/pipeline_slices.cpp checks its layout).
    static_assert(std::is_same_v<decltype(harena_slice_table::names), const char *> &&
                      std::is_same_v<decltype(harena_slice_table::status), int32_t> && sizeof(harena_slice_table) == 2 * sizeof(void *),
                  "harena_slice_table is not (const char *, int32_t)");
    return Call::make(Handle(), Call::make_struct, {StringImm::make(names), make_zero(Int(32))}, Call::Intrinsic);
}

Expr pipeline_slice(const Expr &table, uint32_t index, int live, const Expr &address, const Expr &slice_bytes,
                    const Expr &bytes) {
    return HARENA_CALL(harena_pipeline_slice, HARENA_ABI_PIPELINE_SLICE, user_context(), table,
                       make_const(UInt(32), index), live, address, slice_bytes, bytes);
}

Expr pipeline_slices_end(const Expr &table, const Expr &base) {
    return HARENA_CALL(harena_pipeline_slices_end, HARENA_ABI_PIPELINE_SLICES_END, user_context(), table, base);
}

Expr slot_pool_init(const Expr &pool, int slots) {
    return HARENA_CALL(harena_slot_pool_init, HARENA_ABI_SLOT_POOL_INIT, pool, make_const(Int(32), slots));
}

Expr slot_take(const Expr &pool) {
    return HARENA_CALL(harena_slot_take, HARENA_ABI_SLOT_TAKE, pool);
}

Expr slot_give(const Expr &pool, const Expr &slot) {
    return HARENA_CALL(harena_slot_give, HARENA_ABI_SLOT_GIVE, pool, slot);
}

Expr pipeline_slots(const Expr &pool) {
    return HARENA_CALL(harena_pipeline_slots, HARENA_ABI_PIPELINE_SLOTS, user_context(), pool);
}

Expr planned_host_free(const Expr &buffer) {
    return HARENA_CALL(harena_planned_host_free, HARENA_ABI_PLANNED_HOST_FREE, user_context(), buffer);
}

Expr key_host_malloc(const Expr &buffer, const Expr &device_interface) {
    return HARENA_CALL(harena_key_host_malloc, HARENA_ABI_KEY_HOST_MALLOC, user_context(), buffer, device_interface);
}

const char *planned_host_free_destructor() {
    return HARENA_ABI_PLANNED_HOST_FREE_AS_DESTRUCTOR;
}

std::string argument_routing(const std::string &halide_function) {
    auto it = routed().find(halide_function);
    return it == routed().end() ? "" : it->second.name;
}

Expr argument_call(const std::string &halide_function, const Expr &buffer, const Expr &device_interface) {
    auto it = routed().find(halide_function);
    if (it == routed().end()) {
        throw InternalError("harena: " + halide_function + " has no routed equivalent for argument buffers");
    }
    return it->second.make(buffer, device_interface);
}

bool is_argument_call(const std::string &name) {
    for (const auto &[halide_function, r] : routed()) {
        if (name == r.name) {
            return true;
        }
    }
    return false;
}

}  // namespace harena::runtime_calls
