#pragma once
// Where the Halide releases this project builds with (14 and 21) differ in the
// compiler API the pass uses. Each alias is derived from the release's own
// declarations, so a release that changes one again fails to compile here
// rather than planning wrongly.
#include "Halide.h"

#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>

namespace harena {

// The release of the headers in use: Halide 15 added HALIDE_VERSION_MAJOR.
#ifdef HALIDE_VERSION_MAJOR
constexpr int halide_major = HALIDE_VERSION_MAJOR;
#define halide_major_at_least_17 (HALIDE_VERSION_MAJOR >= 17)
#else
#define halide_major_at_least_17 0
constexpr int halide_major = 14;
#endif
#ifdef HARENA_HALIDE_VERSION_MAJOR
static_assert(halide_major == HARENA_HALIDE_VERSION_MAJOR,
              "Halide.h is not from the release CMake found (Halide_DIR): the include path mixes two releases");
#endif

// A pipeline argument's parameter: Halide::Internal::Parameter up to
// Halide 16, Halide::Parameter from 17.
using Parameter = std::decay_t<decltype(std::declval<const Halide::OutputImageParam &>().parameter())>;

// Halide's as_const_int/as_const_float return a pointer into the expression
// up to Halide 18 and a std::optional from 19; these copy the value out, so
// callers hold it without holding the expression.
inline std::optional<int64_t> const_int(const Halide::Expr &e) {
    auto v = Halide::Internal::as_const_int(e);
    static_assert(std::is_same_v<std::decay_t<decltype(*v)>, int64_t>, "as_const_int: unexpected value type");
    return v ? std::optional<int64_t>(*v) : std::nullopt;
}

inline std::optional<uint64_t> const_uint(const Halide::Expr &e) {
    auto v = Halide::Internal::as_const_uint(e);
    static_assert(std::is_same_v<std::decay_t<decltype(*v)>, uint64_t>, "as_const_uint: unexpected value type");
    return v ? std::optional<uint64_t>(*v) : std::nullopt;
}

inline std::optional<double> const_float(const Halide::Expr &e) {
    auto v = Halide::Internal::as_const_float(e);
    static_assert(std::is_same_v<std::decay_t<decltype(*v)>, double>, "as_const_float: unexpected value type");
    return v ? std::optional<double>(*v) : std::nullopt;
}

// The value a reinterpret wraps, or an undefined Expr where `e` is not one:
// an intrinsic Call (Call::reinterpret) in Halide 14, its own IR node
// (Reinterpret) from Halide 15. A release that differs fails to compile here.
inline Halide::Expr reinterpreted_value(const Halide::Expr &e) {
#ifdef HALIDE_VERSION_MAJOR
    const Halide::Internal::Reinterpret *r = e.as<Halide::Internal::Reinterpret>();
    return r ? r->value : Halide::Expr();
#else
    const Halide::Internal::Call *c = e.as<Halide::Internal::Call>();
    return c && c->is_intrinsic(Halide::Internal::Call::reinterpret) ? c->args[0] : Halide::Expr();
#endif
}

// A loop node as Halide 14 builds it: For::make takes a loop-partitioning
// policy after the loop type from Halide 17 (Partition::Auto: Halide's
// default). A release that differs fails to compile here.
inline Halide::Internal::Stmt make_for(const std::string &name, const Halide::Expr &min, const Halide::Expr &extent,
                                       Halide::Internal::ForType for_type, Halide::DeviceAPI device_api,
                                       const Halide::Internal::Stmt &body) {
#if halide_major_at_least_17
    return Halide::Internal::For::make(name, min, extent, for_type, Halide::Partition::Auto, device_api, body);
#else
    return Halide::Internal::For::make(name, min, extent, for_type, device_api, body);
#endif
}

// `loop` with another body, everything else kept (its partitioning policy
// from Halide 17).
inline Halide::Internal::Stmt with_body(const Halide::Internal::For *loop, const Halide::Internal::Stmt &body) {
#if halide_major_at_least_17
    return Halide::Internal::For::make(loop->name, loop->min, loop->extent, loop->for_type, loop->partition_policy,
                                       loop->device_api, body);
#else
    return Halide::Internal::For::make(loop->name, loop->min, loop->extent, loop->for_type, loop->device_api, body);
#endif
}

namespace detail {
template<typename A>
auto declared_padding(const A *op, int) -> decltype(std::optional<int>(op->padding)) {
    return op->padding;
}
template<typename A>
std::optional<int> declared_padding(const A *, long) {
    return std::nullopt;
}
}  // namespace detail

// The elements past its end an allocation asks codegen for, which vector
// loads may read but nothing writes: Halide 21's Allocate declares them (set
// where a strided load is widened into dense ones) and codegen adds them to
// the heap size and counts them in its stack decision. Halide 14's declares
// none (nullopt): its codegen pads every heap allocation by three elements
// (CodeGen_Posix::allocation_padding) and its stack decision counts none.
// Read from the node's declaration, not the version.
inline std::optional<int> declared_padding(const Halide::Internal::Allocate *op) {
    return detail::declared_padding(op, 0);
}

}  // namespace harena
