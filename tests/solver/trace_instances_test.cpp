// The real-trace-shaped generators give what their comments promise: the
// exact number of buffers, the same problem for the same seed, sizes over
// six orders of magnitude, a long-lived share and a peak made by few buffers.
#include <gtest/gtest.h>

#include <algorithm>

#include "solver/problem.h"
#include "solver_instances/instances.h"

namespace harena {
namespace {

struct Shape {
    const char *name;
    Problem (*make)(size_t, uint64_t);
};

void PrintTo(const Shape &shape, std::ostream *os) {
    *os << shape.name;
}

Problem training(size_t n, uint64_t seed) {
    return instances::training_trace(n, seed, 1);
}
Problem accumulation(size_t n, uint64_t seed) {
    return instances::training_trace(n, seed, 4);
}

class TraceInstances : public ::testing::TestWithParam<Shape> {};

TEST_P(TraceInstances, HaveTheirShape) {
    for (size_t n : {1000, 5000}) {
        SCOPED_TRACE(n);
        Problem p = GetParam().make(n, 7);
        ASSERT_EQ(p.buffers.size(), n);
        EXPECT_NO_THROW(check_problem(p));
        Problem again = GetParam().make(n, 7);
        for (size_t i = 0; i < n; i++)
            ASSERT_EQ(p.buffers[i].size, again.buffers[i].size);
        uint64_t smallest = UINT64_MAX, largest = 0;
        int64_t last = 0;
        for (const Buffer &b : p.buffers) {
            smallest = std::min(smallest, b.size);
            largest = std::max(largest, b.size);
            last = std::max(last, b.end);
        }
        EXPECT_GE(double(largest) / double(smallest), 1e6);
        // An eighth alive for most of the program.
        size_t long_lived = size_t(std::count_if(p.buffers.begin(), p.buffers.end(), [&](const Buffer &b) {
            return b.end - b.begin >= last * 8 / 10;
        }));
        EXPECT_GE(long_lived, n / 10);
        // The largest buffer is a fifth of the bound or more.
        EXPECT_GE(double(largest), 0.15 * double(lower_bound(p)));
    }
}

INSTANTIATE_TEST_SUITE_P(Shapes, TraceInstances,
                         ::testing::Values(Shape{"training", training}, Shape{"accumulation", accumulation},
                                           Shape{"graph", instances::graph_trace}),
                         [](const ::testing::TestParamInfo<Shape> &info) { return std::string(info.param.name); });

}  // namespace
}  // namespace harena
