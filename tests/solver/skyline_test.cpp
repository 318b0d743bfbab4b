// The skyline segment tree and lowest first carried on over a floor, against
// naive per-section arrays.
#include <gtest/gtest.h>

#include <random>

#include "solver/instances.h"
#include "solver/lowest_first.h"
#include "solver/orders.h"
#include "solver/prepared.h"
#include "solver/skyline.h"

namespace harena::detail {
namespace {

TEST(Skyline, MatchesNaiveArray) {
  std::mt19937_64 rng(5);
  for (uint32_t sections : {1u, 2u, 7u, 64u, 100u}) {
    std::vector<uint64_t> naive(sections);
    for (uint64_t &h : naive) h = rng() % 50;
    Skyline skyline(naive);
    for (int k = 0; k < 300; k++) {
      uint32_t a = uint32_t(rng() % sections), b = uint32_t(rng() % sections);
      uint32_t begin = std::min(a, b), end = std::max(a, b) + 1;
      if (k % 2 == 0) {
        uint64_t to = rng() % 200;
        skyline.raise(begin, end, to);
        for (uint32_t s = begin; s < end; s++) naive[s] = std::max(naive[s], to);
      } else {
        uint64_t expected = *std::max_element(naive.begin() + begin, naive.begin() + end);
        ASSERT_EQ(skyline.max(begin, end), expected) << sections << " sections, step " << k;
      }
    }
    EXPECT_EQ(skyline.heights(sections), naive);
  }
}

TEST(LowestFirst, CarriesOnAPlanFromAFloor) {
  // Re-placing the buffers that end above some height, on the tops of the
  // others, in the same order, gives back the same plan.
  Prepared prepared = prepare(instances::uniform_random(500, 3));
  std::vector<uint32_t> order = make_order(prepared, Order::PressureDesc, peak_pressure(prepared));
  std::vector<uint64_t> offsets;
  uint64_t arena = lowest_first(prepared, order, offsets);
  for (uint64_t height : {uint64_t(0), arena / 3, arena / 2, arena - 1}) {
    std::vector<uint64_t> floor(prepared.points, 0);
    std::vector<uint32_t> above;
    for (uint32_t i : order) {
      const Item &item = prepared.items[i];
      if (offsets[i] + item.size > height) {
        above.push_back(i);
      } else {
        for (uint32_t s = item.begin; s < item.end; s++) floor[s] = std::max(floor[s], offsets[i] + item.size);
      }
    }
    std::vector<uint64_t> again = offsets;
    EXPECT_EQ(lowest_first(prepared, above, 0, floor, again), arena) << "height " << height;
    EXPECT_EQ(again, offsets) << "height " << height;
  }
}

}  // namespace
}  // namespace harena::detail
