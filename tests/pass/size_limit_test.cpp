// The size-limit check the pass gives a planned host buffer refuses exactly
// what Halide's codegen refuses for a heap allocation, for any number of
// extents, constant or not, and for extents that 32- or 64-bit arithmetic
// would wrap: in its one-product form (at most two varying extents and
// constant bytes below 2^32) and in codegen's tracked form (the others).
#include "rewrite/size_limit.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

namespace {

using namespace Halide;
using namespace Halide::Internal;

struct Shape {
    std::string name;
    std::vector<int64_t> constants;  // -1: a variable extent
    int element_bytes;
};

void PrintTo(const Shape &shape, std::ostream *os) {
    *os << shape.name;
}

std::string shape_name(const testing::TestParamInfo<Shape> &info) {
    return info.param.name;
}

class SizeLimitCheck : public testing::TestWithParam<Shape> {};

// Codegen's rule for a heap allocation, computed exactly: each extent read
// as max(0, e) in 32 bits, the bytes multiplied in the extents' order, refused
// where a partial product reaches 2^64 (even if a later extent is 0) or the
// whole exceeds the limit.
bool within(const std::vector<int64_t> &extents, int element_bytes, uint64_t limit) {
    unsigned __int128 bytes = element_bytes;
    for (int64_t e : extents) {
        bytes *= (uint32_t)std::max<int64_t>(0, e);
        if (bytes >> 64) {
            return false;
        }
    }
    return bytes <= limit;
}

TEST_P(SizeLimitCheck, HoldsExactlyWhenTheBytesAreWithinTheLimit) {
    const Shape &shape = GetParam();
    std::vector<Expr> extents;
    std::vector<std::string> names;
    for (int64_t c : shape.constants) {
        if (c < 0) {
            names.push_back("e" + std::to_string(names.size()));
            extents.push_back(Variable::make(Int(32), names.back()));
        } else {
            extents.push_back(make_const(Int(32), c));
        }
    }
    const Type type = shape.element_bytes == 1 ? UInt(8) : Float(8 * shape.element_bytes);
    Stmt body = Evaluate::make(0);
    std::mt19937_64 random(17);
    // Around 2^16, 2^31 and the limits over 4 bytes (2^29 = 16384 * 32768).
    const std::vector<int64_t> edges = {0, 1, -1, 3, 46340, 46341, 65535,
                                        65536, 16384, 32767, 32768, 536870911, 536870912, (1 << 30), 2147483647};
    for (uint64_t limit : {(uint64_t)2147483647, (uint64_t)9223372036854775807ull}) {
        Stmt alloc = Allocate::make("b", type, MemoryType::Heap, extents, const_true(), body);
        Stmt check = harena::size_limit_check(alloc.as<Allocate>(), limit);
        const AssertStmt *a = check.as<AssertStmt>();
        ASSERT_NE(a, nullptr);
        for (int trial = 0; trial < 400; trial++) {
            std::vector<int64_t> values;
            Expr condition = a->condition;
            for (size_t i = 0; i < names.size(); i++) {
                int64_t v = trial % 2 ? edges[random() % edges.size()] : (int64_t)(random() % 100000) - 10;
                values.push_back(v);
                condition = substitute(names[i], make_const(Int(32), v), condition);
            }
            std::vector<int64_t> all;
            size_t next = 0;
            for (int64_t c : shape.constants) {
                all.push_back(c < 0 ? values[next++] : c);
            }
            bool expected = within(all, shape.element_bytes, limit);
            Expr holds = simplify(condition);
            ASSERT_TRUE(is_const(holds, expected ? 1 : 0))
                << "limit " << limit << ", extents " << testing::PrintToString(all) << ": " << holds;
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Shapes, SizeLimitCheck,
                         testing::Values(Shape{"OneExtent", {-1}, 4}, Shape{"TwoExtents", {-1, -1}, 4},
                                         Shape{"TwoExtentsAndAConstant", {-1, 3, -1}, 4},
                                         Shape{"ThreeExtents", {-1, -1, -1}, 4},
                                         Shape{"ThreeExtentsOfBytes", {-1, -1, -1}, 1},
                                         Shape{"FourExtentsOfDoubles", {-1, -1, 1, -1, -1}, 8},
                                         Shape{"AZeroConstantLast", {-1, -1, -1, 0}, 8},
                                         Shape{"AZeroConstantBetweenTwoExtents", {-1, 0, -1}, 4},
                                         Shape{"TwoExtentsAfterALargeConstant", {65536, -1, -1}, 8},
                                         Shape{"TwoExtentsAroundTheLargestConstant", {-1, 2147483647, -1}, 2},
                                         Shape{"TwoExtentsAfterAConstantOver2To32Bytes", {1 << 30, -1, -1}, 8},
                                         Shape{"TwoExtentsAfterConstantsOver2To36Bytes", {1 << 30, 16, -1, -1}, 8}),
                         shape_name);

}  // namespace
