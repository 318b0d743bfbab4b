// The published real traces (../shared/traces/real beside the repository,
// or $HARENA_TRACES/real): with the default options every plan is valid,
// within 0.1% of the lower bound, and the same offsets on a second solve.
// Skipped where the folder is absent.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "solver/csv.h"
#include "test_util.h"

namespace harena {
namespace {

namespace fs = std::filesystem;

fs::path real_traces() {
    const char *env = std::getenv("HARENA_TRACES");
    return fs::path(env != nullptr ? env : HARENA_SHARED_TRACES) / "real";
}

TEST(SharedTraces, DefaultPlansAreWithinATenthOfAPercentAndRepeatable) {
    const fs::path folder = real_traces();
    std::error_code error;
    if (!fs::is_directory(folder, error)) GTEST_SKIP() << folder << " is absent";
    int files = 0;
    for (const fs::directory_entry &e : fs::directory_iterator(folder)) {
        if (e.path().extension() != ".csv") continue;
        SCOPED_TRACE(e.path().string());
        std::ifstream in(e.path());
        const Problem problem = read_problem_csv(in, e.path().string());
        const Plan plan = testing::solve_checked(problem);
        EXPECT_LE(plan.ratio(), 1.001) << plan.method;
        EXPECT_EQ(solve(problem).offsets, plan.offsets);
        files++;
    }
    EXPECT_GT(files, 0);
}

}  // namespace
}  // namespace harena
