#pragma once
// Questions the pass tests ask of a statement.
#include "Halide.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace harena_test {

// Number of calls to `function` (extern or intrinsic name) in s.
int count_calls(const Halide::Internal::Stmt &s, const std::string &function);

// The arguments of each call to `function`, in the statement's order.
std::vector<std::vector<Halide::Expr>> call_arguments(const Halide::Internal::Stmt &s, const std::string &function);

// What `e` names, through the casts and reinterprets around it: a variable's
// or a call's name, a string's value; empty for anything else. Checks on
// names rather than on statement text hold for every release, whose IR
// printers write types differently (Halide 21: "(struct halide_buffer_t *)").
std::string name_in(Halide::Expr e);

// Number of register_destructor calls naming `destructor`.
int count_destructors(const Halide::Internal::Stmt &s, const std::string &destructor);

// The Allocate named `name` (the first one), or null.
const Halide::Internal::Allocate *find_allocate(const Halide::Internal::Stmt &s, const std::string &name);

// The value of the first `let <name> = ...` in s; undefined if there is none.
Halide::Expr let_value(const Halide::Internal::Stmt &s, const std::string &name);

// The address a planned buffer named `name` is bound to: the let that takes
// the place of its Allocate.
inline Halide::Expr slice_binding(const Halide::Internal::Stmt &s, const std::string &name) {
    return let_value(s, name);
}

// Statement text, for messages and substring checks.
std::string text_of(const Halide::Internal::Stmt &s);

// The frame a planned statement opens, evaluated for one call: the values of
// its harena.size.<i> and harena.offset.<i> lets and the two byte counts it
// passes to harena_pipeline_enter, with `values` (by variable name) for the
// pipeline's arguments and argument fields (out.extent.0), the preamble's
// other lets computed from them. Throws std::runtime_error if something does
// not fold to a constant.
struct Frame {
    std::map<std::string, uint64_t> lets;
    uint64_t needed = 0, worst_case = 0;
    std::map<std::string, Halide::Expr> known;  // every name above, folded
    [[nodiscard]] uint64_t size(int i) const {
        return lets.at("harena.size." + std::to_string(i));
    }
    [[nodiscard]] uint64_t offset(int i) const {
        return lets.at("harena.offset." + std::to_string(i));
    }
    // `e` (of an unsigned or signed integer type) in this call, with `more`
    // (loop variables, say) on top.
    [[nodiscard]] int64_t evaluate(const Halide::Expr &e, const std::map<std::string, Halide::Expr> &more = {}) const;
};
// `e` with every call of harena_pipeline_guard_bytes replaced by `bytes`.
Halide::Expr answer_guard_bytes(const Halide::Expr &e, uint64_t bytes);

// guard_bytes: what harena_pipeline_guard_bytes answers (guard mode; 0: off).
Frame evaluate_frame(const Halide::Internal::Stmt &s, const std::map<std::string, Halide::Expr> &values,
                     uint64_t guard_bytes = 0);

// The bytes the size check of planned buffer `buffer` against its slice
// computes where the buffer is created (in terms of the loops around it);
// undefined if none. (Its check against the target's maximum buffer size,
// whose limit is a constant, is not this one.)
Halide::Expr checked_bytes(const Halide::Internal::Stmt &s, const std::string &buffer);

}  // namespace harena_test
