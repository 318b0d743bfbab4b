// harena-plan, run as a process: outputs appear only on success.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "solver/csv.h"
#include "solver/validator.h"
#include "solver_instances/instances.h"

namespace harena {
namespace {

namespace fs = std::filesystem;

class SolverCli : public ::testing::Test {
protected:
    void SetUp() override {
        dir_ = fs::temp_directory_path() /
               ("harena_cli_" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
        fs::remove_all(dir_);
        fs::create_directories(dir_);
    }
    void TearDown() override {
        fs::remove_all(dir_);
    }

    std::string path(const std::string &name) const {
        return (dir_ / name).string();
    }

    void write(const std::string &name, const std::string &text) const {
        std::ofstream(path(name)) << text;
    }

    // Exit status of harena-plan with `args`; its output goes to a file.
    int run(const std::string &args) const {
        std::string command = std::string("\"") + HARENA_PLAN_EXE + "\" " + args + " > \"" + path("out.txt") + "\" 2>&1";
        int status = std::system(command.c_str());
        return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    }

    std::string output() const {
        return read(path("out.txt"));
    }

    static std::string read(const std::string &file) {
        std::ifstream in(file, std::ios::binary);
        std::stringstream s;
        s << in.rdbuf();
        return s.str();
    }

    fs::path dir_;
};

TEST_F(SolverCli, PlansAndWritesOutputs) {
    write("p.csv", "id,lower,upper,size,alignment\na,0,2,100,256\nb,1,3,200,256\nc,2,4,100,256\n");
    ASSERT_EQ(run(path("p.csv") + " -o " + path("plan.csv") + " --svg " + path("plan.svg")), 0) << output();
    // b at 0; a and c at 256, the first aligned offset above b.
    EXPECT_NE(output().find("arena bytes  356"), std::string::npos) << output();
    EXPECT_NE(output().find("lower bound  356"), std::string::npos) << output();
    std::ifstream plan_in(path("plan.csv"));
    std::stringstream plan_text;
    plan_text << plan_in.rdbuf();
    EXPECT_EQ(plan_text.str().substr(0, plan_text.str().find('\n')), "id,lower,upper,size,alignment,offset");
    EXPECT_TRUE(fs::exists(path("plan.svg")));
    EXPECT_FALSE(fs::exists(path("plan.csv.tmp")));
}

TEST_F(SolverCli, MalformedInputWritesNothing) {
    write("p.csv", "id,lower,upper,size\na,0,2,100\nb,5,x,8\n");
    write("old.csv", "stale");
    EXPECT_EQ(run(path("p.csv") + " -o " + path("plan.csv") + " --svg " + path("plan.svg")), 1);
    EXPECT_NE(output().find("p.csv:3: upper must be an integer"), std::string::npos) << output();
    EXPECT_FALSE(fs::exists(path("plan.csv")));
    EXPECT_FALSE(fs::exists(path("plan.svg")));
    // An existing output is left as it was.
    EXPECT_EQ(run(path("p.csv") + " -o " + path("old.csv")), 1);
    std::ifstream old(path("old.csv"));
    std::string text;
    old >> text;
    EXPECT_EQ(text, "stale");
}

TEST_F(SolverCli, AcceptsSpreadsheetByteOrderMark) {
    write("p.csv", "\xEF\xBB\xBFid,lower,upper,size\na,0,2,100\nb,1,3,200\n");
    ASSERT_EQ(run(path("p.csv") + " -o " + path("plan.csv")), 0) << output();
    EXPECT_NE(output().find("buffers      2"), std::string::npos) << output();
}

TEST_F(SolverCli, RefusesDuplicateIds) {
    write("p.csv", "id,lower,upper,size\nconv,0,2,100\npool,1,3,200\nconv,2,4,100\n");
    EXPECT_EQ(run(path("p.csv") + " -o " + path("plan.csv")), 1);
    EXPECT_NE(output().find("p.csv:4: duplicate id 'conv' (first on line 2)"), std::string::npos) << output();
    EXPECT_FALSE(fs::exists(path("plan.csv")));
}

TEST_F(SolverCli, MissingFileAndUsage) {
    EXPECT_EQ(run(path("absent.csv")), 1);
    EXPECT_EQ(run(""), 2);
    EXPECT_EQ(run("--frobnicate x.csv"), 2);
    EXPECT_EQ(run("x.csv --budget-ms -3"), 2);
    EXPECT_EQ(run("x.csv --search-nodes 0"), 2);
    EXPECT_EQ(run("x.csv --search-nodes -5"), 2);
    EXPECT_EQ(run("--help"), 0);
}

TEST_F(SolverCli, BudgetFlag) {
    write("p.csv", "id,lower,upper,size\na,0,2,100\nb,1,3,200\n");
    EXPECT_EQ(run(path("p.csv") + " --budget-ms 50 -o " + path("plan.csv")), 0) << output();
    std::ifstream in(path("plan.csv"));
    Problem p = read_problem_csv(in, "plan.csv");
    EXPECT_EQ(p.buffers.size(), 2u);
}

TEST_F(SolverCli, SearchNodesDecideHowFarTheSearchGoes) {
    // A packing the greedy passes leave about 12% above its optimum: one
    // search node changes nothing, a hundred thousand reach the optimum.
    std::ostringstream csv;
    write_problem_csv(csv, instances::cut_square(60, 1, true));
    write("p.csv", csv.str());
    ASSERT_EQ(run(path("p.csv") + " --search-nodes 1"), 0) << output();
    EXPECT_EQ(output().find("ratio        1.000000"), std::string::npos) << output();
    ASSERT_EQ(run(path("p.csv") + " --search-nodes 100000"), 0) << output();
    EXPECT_NE(output().find("ratio        1.000000"), std::string::npos) << output();
    EXPECT_NE(output().find("method       exact search"), std::string::npos) << output();
}

TEST_F(SolverCli, CapacityWritesAValidPlanWithinIt) {
    // A perfect packing of 2^20 bytes: the greedy passes leave it above, the
    // capacity search fits it.
    Problem problem = instances::cut_square(60, 1, true);
    std::ostringstream csv;
    write_problem_csv(csv, problem);
    write("p.csv", csv.str());
    ASSERT_EQ(run(path("p.csv") + " --capacity 1048576 -o " + path("plan.csv")), 0) << output();
    std::ifstream in(path("plan.csv"));
    std::string header;
    std::getline(in, header);
    EXPECT_EQ(header, "id,lower,upper,size,offset");
    Plan plan;
    for (std::string line; std::getline(in, line);) {
        plan.offsets.push_back(std::stoull(line.substr(line.rfind(',') + 1)));
        plan.arena_bytes = std::max(plan.arena_bytes, plan.offsets.back() + problem.buffers[plan.offsets.size() - 1].size);
    }
    EXPECT_LE(plan.arena_bytes, uint64_t(1) << 20);
    Validation v = validate(problem, plan);
    EXPECT_TRUE(v.ok) << v.error;
}

// A process that keeps a core busy until it is killed: the load that other
// builds put on a shared machine.
class BusyProcess {
public:
    BusyProcess()
        : pid_(fork()) {
        if (pid_ == 0) {
            for (volatile uint64_t x = 0;; x = x + 1) {
            }
        }
    }
    ~BusyProcess() {
        if (pid_ > 0) {
            kill(pid_, SIGKILL);
            waitpid(pid_, nullptr, 0);
        }
    }

private:
    pid_t pid_;
};

TEST_F(SolverCli, DefaultPlanIsTheSameBytesUnderLoad) {
    // Tens of thousands of buffers, where the improvement does much work:
    // with the default options every budget is a count, so two runs, one of
    // them sharing the core with a busy process, write the same plan.
    std::ostringstream csv;
    write_problem_csv(csv, instances::training_trace(30000, 2, 4));
    write("p.csv", csv.str());
    ASSERT_EQ(run(path("p.csv") + " -o " + path("a.csv")), 0) << output();
    const std::string summary = output();
    {
        BusyProcess load[2];
        ASSERT_EQ(run(path("p.csv") + " -o " + path("b.csv")), 0) << output();
    }
    const std::string a = read(path("a.csv")), b = read(path("b.csv"));
    EXPECT_GT(a.size(), 30000u * 10);
    EXPECT_TRUE(a == b) << "the plans differ";
    // The arena too, which the summary reports.
    auto arena = [](const std::string &text) { return text.substr(text.find("arena bytes"), 40); };
    EXPECT_EQ(arena(summary), arena(output()));
}

TEST_F(SolverCli, CapacityBelowTheBoundIsAClearError) {
    write("p.csv", "id,lower,upper,size\na,0,2,100\nb,1,3,200\n");
    EXPECT_EQ(run(path("p.csv") + " --capacity 299 -o " + path("plan.csv")), 4);
    EXPECT_NE(output().find("no plan within the capacity of 299 bytes"), std::string::npos) << output();
    EXPECT_NE(output().find("below the lower bound"), std::string::npos) << output();
    EXPECT_FALSE(fs::exists(path("plan.csv")));
    EXPECT_EQ(run(path("p.csv") + " --capacity 0"), 2);
    EXPECT_EQ(run(path("p.csv") + " --capacity 300"), 0) << output();
}

}  // namespace
}  // namespace harena
