// Internal to the exact search: buffers that can trade places, so that the
// search need only try one of their orders.
//
// Every pruning rule of the search keeps a plan that, among all plans that
// fit, has the least sum over buffers of offset times size and then the
// buffers of each lifetime most in preorder from the bottom up: each rule
// drops only plans where some buffer could move down (which lowers the sum)
// or where buffers can trade places as below (which keeps the sum and
// brings them closer to preorder). So the rules below may be combined with
// one another and with the rest of the search.
#pragma once

#include <cstdint>
#include <vector>

#include "solver/detail/common/prepared.h"

namespace harena::detail {

inline constexpr uint32_t kNoTwin = UINT32_MAX;

// Buffers with the same lifetime, size and alignment are interchangeable:
// in any plan they can trade places. For each item, the one of its shape
// just before it in the preorder, which it may only be placed after (so
// below), or kNoTwin: one order of each such set instead of all of them.
std::vector<uint32_t> twins_before(const std::vector<Item> &, const std::vector<uint32_t> &preorder);

// Two buffers with the same lifetime and alignment, one resting directly on
// the other, can trade places: the pair fills the same bytes either way,
// whatever rests on the pair still does, and the sum of offset times size
// stays the same. So a buffer may not rest directly on one of its lifetime
// that comes later in the preorder: of a stack of k such buffers, one order
// is searched instead of k!, the one the preorder would try first. For each
// item, those later buffers (sizes must be multiples of the alignment, so
// that both stay aligned after a swap; others get none).
std::vector<std::vector<uint32_t>> later_mates(const std::vector<Item> &, const std::vector<uint32_t> &preorder);

}  // namespace harena::detail
