// A per-call size split at the least value the preamble checks a name can
// take: the same value wherever the checks passed, for random expressions of
// the operators bounds inference writes, and shorter where bounds inference
// writes extents over a scale of unknown sign.
#include "size/split_at_minimum.h"

#include <gtest/gtest.h>

#include <random>
#include <set>

namespace {

using namespace Halide;
using namespace Halide::Internal;

const Expr a = Variable::make(Int(32), "a");
const Expr b = Variable::make(Int(32), "b");
const Expr c = Variable::make(Int(32), "c");

// a >= 0 and b >= 2 are checked; c >= 0 is only assumed (an input buffer's
// extent, which nothing checks).
harena::Preamble facts() {
    harena::Preamble p;
    p.bounds.push("a", Interval(make_const(Int(32), 0), Interval::pos_inf()));
    p.bounds.push("b", Interval(make_const(Int(32), 2), Interval::pos_inf()));
    p.bounds.push("c", Interval(make_const(Int(32), 0), Interval::pos_inf()));
    p.assumed_minimum.insert("c");
    return p;
}

int64_t value_at(const Expr &e, int64_t va, int64_t vb, int64_t vc) {
    std::map<std::string, Expr> at = {
        {"a", make_const(Int(32), va)}, {"b", make_const(Int(32), vb)}, {"c", make_const(Int(32), vc)}};
    Expr folded = simplify(substitute(at, e));
    std::optional<int64_t> v = harena::const_int(folded);
    if (!v) {
        ADD_FAILURE() << "not a constant: " << folded << " from " << e;
        return 0;
    }
    return *v;
}

// What bounds inference gives for the extent of x / s over x in [0, e - 1],
// s of unknown sign: 2 * |e - 1| + 1 for every e >= 0.
Expr extent_over_unknown_sign(const Expr &e) {
    return max(1 - e, max(e, 1) - 1) - min(1 - e, min(e, 1) - 1) + 1;
}

int count_min_max(const Expr &e) {
    class Count : public IRVisitor {
    public:
        int n = 0;
        using IRVisitor::visit;
        void visit(const Min *op) override {
            n++;
            IRVisitor::visit(op);
        }
        void visit(const Max *op) override {
            n++;
            IRVisitor::visit(op);
        }
    } count;
    e.accept(&count);
    return count.n;
}

TEST(SplitAtMinimum, AnExtentOverAScaleOfUnknownSignFoldsOnEitherSideOfTheMinimum) {
    const harena::Preamble p = facts();
    const Expr size = cast(Int(64), extent_over_unknown_sign(a)) * cast(Int(64), extent_over_unknown_sign(b) + 2) * 4;
    const Expr split = harena::split_at_minimum(size, p);
    EXPECT_EQ(count_min_max(split), 0) << split;
    for (int64_t va : {0, 1, 2, 3, 255, 256, 100000}) {
        for (int64_t vb : {2, 3, 4, 1000}) {
            const int64_t expected = (2 * std::abs(va - 1) + 1) * (2 * std::abs(vb - 1) + 3) * 4;
            EXPECT_EQ(value_at(split, va, vb, 0), expected) << va << " " << vb << ": " << split;
            EXPECT_EQ(value_at(size, va, vb, 0), expected) << va << " " << vb;
        }
    }
}

TEST(SplitAtMinimum, ANameWhoseMinimumIsOnlyAssumedIsLeftAsItIs) {
    const Expr size = extent_over_unknown_sign(c);
    EXPECT_TRUE(equal(harena::split_at_minimum(size, facts()), size));
}

TEST(SplitAtMinimum, ThePreambleTellsACheckedMinimumFromOneOnlyAssumed) {
    // An output's extent is checked to be at least 0; an input's, here, by
    // nothing: it is taken as at least 0 for bounding sizes, and so is what
    // is computed from it, but neither may be split at 0.
    const auto extent_of = [](const std::string &buffer) {
        return Call::make(Int(32), "_halide_buffer_get_extent",
                          {Variable::make(type_of<halide_buffer_t *>(), buffer + ".buffer"), 0}, Call::Extern);
    };
    const Expr out_extent = Variable::make(Int(32), "out.extent.0");
    const Expr in_extent = Variable::make(Int(32), "in.extent.0");
    const Expr negative = Call::make(Int(32), "halide_error_buffer_extents_negative",
                                     {Expr("Output buffer out"), 0, out_extent}, Call::Extern);
    Stmt s = Block::make(AssertStmt::make(0 <= out_extent, negative), Evaluate::make(0));
    s = LetStmt::make("t", in_extent + out_extent, s);
    s = LetStmt::make("in.extent.0", extent_of("in"), s);
    s = LetStmt::make("out.extent.0", extent_of("out"), s);
    const harena::Preamble p = harena::read_preamble(s);
    EXPECT_EQ(p.assumed_minimum, (std::set<std::string>{"in.extent.0", "t"}));
    ASSERT_TRUE(p.bounds.contains("out.extent.0"));
    EXPECT_EQ(harena::constant_min(p.bounds.get("out.extent.0")), 0);
    EXPECT_EQ(harena::constant_min(p.bounds.get("in.extent.0")), 0);
    const Expr size = extent_over_unknown_sign(out_extent) * extent_over_unknown_sign(in_extent);
    const Expr split = harena::split_at_minimum(size, p);
    EXPECT_FALSE(equal(split, size));
    EXPECT_TRUE(equal(harena::split_at_minimum(extent_over_unknown_sign(in_extent), p),
                      extent_over_unknown_sign(in_extent)));
}

TEST(SplitAtMinimum, AFormThatIsNoShorterIsLeftAsItIs) {
    // max(a, 0) is a for every a >= 0, but select(a <= 0, 0, a) has more nodes.
    const Expr e = max(a, 0) * 4;
    EXPECT_TRUE(equal(harena::split_at_minimum(e, facts()), e));
}

// Random expressions of one to three names, built from what bounds inference
// writes: sums, differences, min, max, abs, selects, multiplication and
// division by constants, lets.
class RandomExpr {
public:
    explicit RandomExpr(uint64_t seed)
        : random(seed) {
    }
    Expr make(int depth) {
        if (depth == 0 || random() % 5 == 0) {
            switch (random() % 4) {
            case 0:
                return make_const(Int(32), (int)(random() % 11) - 5);
            case 1:
                return a;
            case 2:
                return b;
            default:
                return random() % 2 ? a : c;
            }
        }
        const Expr x = make(depth - 1);
        switch (random() % 9) {
        case 0:
            return x + make(depth - 1);
        case 1:
            return x - make(depth - 1);
        case 2:
            return min(x, make(depth - 1));
        case 3:
            return max(x, make(depth - 1));
        case 4:
            return cast(Int(32), abs(x));
        case 5:
            return select(x < make(depth - 1), make(depth - 1), make(depth - 1));
        case 6:
            return x * (int)(random() % 7 - 3);
        case 7:
            return x / (int)(random() % 3 + 2);
        default: {
            const std::string name = "t" + std::to_string(lets++);
            const Expr t = Variable::make(Int(32), name);
            return Let::make(name, x, max(t, make(depth - 1)) - min(1 - t, t));
        }
        }
    }

private:
    std::mt19937_64 random;
    int lets = 0;
};

TEST(SplitAtMinimum, RandomExpressionsKeepTheirValueWhereverTheChecksPass) {
    const harena::Preamble p = facts();
    int changed = 0;
    for (uint64_t seed = 0; seed < 400; seed++) {
        RandomExpr generator(seed);
        const Expr e = generator.make(5);
        const Expr split = harena::split_at_minimum(e, p);
        if (equal(split, e)) {
            continue;
        }
        changed++;
        for (int64_t va : {0, 1, 2, 3, 4, 7, 100, 5001}) {
            for (int64_t vb : {2, 3, 4, 9, 640}) {
                for (int64_t vc : {0, 1, 6}) {
                    ASSERT_EQ(value_at(split, va, vb, vc), value_at(e, va, vb, vc))
                        << "seed " << seed << " at a=" << va << " b=" << vb << " c=" << vc << "\n"
                        << e << "\n"
                        << split;
                }
            }
        }
    }
    // The property is checked on expressions the split changes: enough of them.
    EXPECT_GT(changed, 40);
}

}  // namespace
