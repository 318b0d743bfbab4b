// Internal to the solver: the orders buffers are ranked by, for both kinds
// of pass: the static orders of the greedy passes and the ranks lowest first
// starts from, the exact search's preorders, and the peak pressure both
// read.
#pragma once

#include <cstdint>
#include <vector>

#include "solver/detail/common/prepared.h"

namespace harena {
enum class Order;
}  // namespace harena

namespace harena::detail {

// For each item, the highest total of live sizes in any section of its
// lifetime: items alive at the busiest time come first in PressureDesc and
// are the ones the exact search must settle first.
std::vector<uint64_t> peak_pressure(const Prepared &);

// Lowest first's bias (see lowest_first.h) for each item: `weight` times
// the room its busiest time leaves, lower_bound - pressure. Buffers alive
// only at quiet times then wait while those at the busy times, which must
// fit with no gap at all, settle; the waiting ones end up higher, where
// their quiet times have room. 0 for every item when weight is 0.
std::vector<int64_t> slack_bias(const std::vector<uint64_t> &pressure, uint64_t lower_bound, double weight);

// Preorders for the search's by_preorder form (search.h): descending by
// (pressure, sections spanned, size x length) or, with `sections_first`, by
// (sections spanned, size x length, pressure).
std::vector<uint32_t> search_preorder(const Prepared &, const std::vector<uint64_t> &pressure, bool sections_first);

// MiniMalloc's preorders: descending by three keys in the order named, then
// by index. T: the most bytes still unplaced in any section of the buffer's
// lifetime (its pressure before anything is placed); W: its lifetime in
// steps; A: size x lifetime. The search draws them anew for each part it
// splits off, from the bytes still unplaced there.
enum class Preorder : uint8_t {
    Fixed,  // none: the SearchOrder's preorder throughout
    TWA,
    TAW,
    WAT,
};

// Sorts `subset` (item indices) by `preorder`, reading T of item i from
// most_unplaced[i].
void sort_by(Preorder preorder, const std::vector<Item> &, const std::vector<uint64_t> &most_unplaced,
             std::vector<uint32_t> &subset);

// All items sorted by `preorder`, with their pressure as T.
std::vector<uint32_t> preorder_of(const Prepared &, Preorder preorder, const std::vector<uint64_t> &pressure);

// A permutation of item indices; `pressure` is only read for PressureDesc.
std::vector<uint32_t> make_order(const Prepared &, Order, const std::vector<uint64_t> &pressure);

}  // namespace harena::detail
