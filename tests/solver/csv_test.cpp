// Reading and writing the CSV format, and its error messages.
#include <gtest/gtest.h>

#include <sstream>

#include "solver/csv.h"
#include "test_util.h"

namespace harena {
namespace {

Problem read(const std::string &text) {
    std::istringstream in(text);
    return read_problem_csv(in, "test.csv");
}

// The message of the InputError that reading `text` throws.
std::string error_of(const std::string &text) {
    try {
        read(text);
    } catch (const InputError &e) {
        return e.what();
    }
    return "(no error)";
}

TEST(Csv, ReadsMiniMallocFormat) {
    Problem p = read("id,lower,upper,size\nb1,0,3,4\nb2,3,9,4\n");
    ASSERT_EQ(p.buffers.size(), 2u);
    EXPECT_EQ(p.buffers[1].id, "b2");
    EXPECT_EQ(p.buffers[1].begin, 3);
    EXPECT_EQ(p.buffers[1].end, 9);
    EXPECT_EQ(p.buffers[1].size, 4u);
    EXPECT_EQ(p.buffers[1].alignment, 1u);  // no alignment column
}

TEST(Csv, ColumnsInAnyOrderWithAlignmentAndOffset) {
    Problem p = read("size, upper ,offset,alignment,lower,id\r\n64,5,128,256,1,x\r\n\r\n");
    ASSERT_EQ(p.buffers.size(), 1u);
    const Buffer &b = p.buffers[0];
    EXPECT_EQ(b.id, "x");
    EXPECT_EQ(b.begin, 1);
    EXPECT_EQ(b.end, 5);
    EXPECT_EQ(b.size, 64u);
    EXPECT_EQ(b.alignment, 256u);
}

TEST(Csv, ByteOrderMarkIsSkipped) {
    // Spreadsheets start a UTF-8 CSV with EF BB BF.
    Problem p = read("\xEF\xBB\xBFid,lower,upper,size\na,0,2,8\n");
    ASSERT_EQ(p.buffers.size(), 1u);
    EXPECT_EQ(p.buffers[0].id, "a");
    // Only at the very start: elsewhere it stays part of the text.
    EXPECT_EQ(read("id,lower,upper,size\n\xEF\xBB\xBF"
                   "a,0,2,8\n")
                  .buffers[0]
                  .id,
              "\xEF\xBB\xBF"
              "a");
}

TEST(Csv, DuplicateIdNamesBothLines) {
    EXPECT_EQ(error_of("id,lower,upper,size\na,0,2,8\nb,0,2,8\n\na,3,4,8\n"),
              "test.csv:5: duplicate id 'a' (first on line 2); each buffer needs its own id");
    // The same id with different case or spacing inside is another id.
    EXPECT_EQ(read("id,lower,upper,size\na,0,2,8\nA,0,2,8\na b,0,2,8\n").buffers.size(), 3u);
}

TEST(Csv, HeaderOnlyIsAnEmptyProblem) {
    EXPECT_TRUE(read("id,lower,upper,size\n").buffers.empty());
}

TEST(Csv, RoundTrip) {
    std::mt19937_64 rng(5);
    for (int k = 0; k < 50; k++) {
        Problem p = testing::random_problem(rng, 40);
        std::ostringstream out;
        write_problem_csv(out, p);
        Problem q = read(out.str());
        ASSERT_EQ(q.buffers.size(), p.buffers.size());
        for (size_t i = 0; i < p.buffers.size(); i++) {
            EXPECT_EQ(q.buffers[i].id, p.buffers[i].id);
            EXPECT_EQ(q.buffers[i].begin, p.buffers[i].begin);
            EXPECT_EQ(q.buffers[i].end, p.buffers[i].end);
            EXPECT_EQ(q.buffers[i].size, p.buffers[i].size);
            EXPECT_EQ(q.buffers[i].alignment, p.buffers[i].alignment);
        }
    }
}

TEST(Csv, PlanRoundTripsAsItsProblem) {
    Problem p = {{{"a", 0, 2, 100, 256}, {"b", 1, 3, 200, 256}}};
    Plan plan = solve(p);
    std::ostringstream out;
    write_plan_csv(out, p, plan);
    EXPECT_EQ(out.str().substr(0, out.str().find('\n')), "id,lower,upper,size,alignment,offset");
    Problem q = read(out.str());
    ASSERT_EQ(q.buffers.size(), 2u);
    EXPECT_EQ(q.buffers[1].size, 200u);
    EXPECT_EQ(q.buffers[1].alignment, 256u);
}

TEST(Csv, WriterOmitsAlignmentOfOne) {
    std::ostringstream out;
    write_problem_csv(out, {{{"a", 0, 2, 100, 1}}});
    EXPECT_EQ(out.str(), "id,lower,upper,size\na,0,2,100\n");
}

TEST(Csv, WriterRejectsIdsItCannotStore) {
    std::ostringstream out;
    EXPECT_THROW(write_problem_csv(out, {{{"a,b", 0, 2, 100, 1}}}), InputError);
}

TEST(Csv, EmptyFile) {
    EXPECT_EQ(error_of(""), "test.csv:1: empty file; expected a header such as id,lower,upper,size");
}

TEST(Csv, MissingColumn) {
    std::string e = error_of("id,lower,size\na,0,1\n");
    EXPECT_NE(e.find("test.csv:1:"), std::string::npos) << e;
    EXPECT_NE(e.find("missing column 'upper'"), std::string::npos) << e;
}

TEST(Csv, UnknownOrRepeatedColumn) {
    EXPECT_NE(error_of("id,lower,upper,sise\n").find("test.csv:1: unknown column 'sise'"), std::string::npos);
    EXPECT_NE(error_of("id,lower,upper,size,size\n").find("test.csv:1: column 'size' appears twice"),
              std::string::npos);
}

TEST(Csv, NotANumber) {
    std::string e = error_of("id,lower,upper,size\na,0,1,8\nb,0,x1,8\n");
    EXPECT_NE(e.find("test.csv:3: upper must be an integer, not 'x1'"), std::string::npos) << e;
    EXPECT_NE(error_of("id,lower,upper,size\na,0,1,8.5\n").find("test.csv:2: size"), std::string::npos);
    EXPECT_NE(error_of("id,lower,upper,size\na,0,1,\n").find("test.csv:2: size"), std::string::npos);
}

TEST(Csv, Negative) {
    std::string e = error_of("id,lower,upper,size\na,0,1,-8\n");
    EXPECT_NE(e.find("test.csv:2: size must be a non-negative integer, not '-8'"), std::string::npos) << e;
    EXPECT_NE(error_of("id,lower,upper,size,alignment\na,0,1,8,-256\n").find("test.csv:2: alignment"),
              std::string::npos);
    // Times may be negative.
    EXPECT_EQ(read("id,lower,upper,size\na,-5,-1,8\n").buffers[0].begin, -5);
}

TEST(Csv, TooLarge) {
    std::string e = error_of("id,lower,upper,size\na,0,1,99999999999999999999\n");
    EXPECT_NE(e.find("test.csv:2: size 99999999999999999999 is too large"), std::string::npos) << e;
    e = error_of("id,lower,upper,size\na,0,1,9223372036854775807\n");
    EXPECT_NE(e.find("test.csv:2: buffer 'a':"), std::string::npos) << e;
    EXPECT_NE(e.find("2^63"), std::string::npos) << e;
}

TEST(Csv, LowerNotBelowUpper) {
    std::string e = error_of("id,lower,upper,size\na,0,1,8\n\nb,4,4,8\n");
    EXPECT_NE(e.find("test.csv:4: lower 4 must be less than upper 4"), std::string::npos) << e;
}

TEST(Csv, BadAlignment) {
    std::string e = error_of("id,lower,upper,size,alignment\na,0,1,8,48\n");
    EXPECT_NE(e.find("test.csv:2: buffer 'a': alignment 48 is not a power of two"), std::string::npos) << e;
}

TEST(Csv, WrongFieldCount) {
    EXPECT_NE(error_of("id,lower,upper,size\na,0,1\n").find("test.csv:2: expected 4 fields, found 3"),
              std::string::npos);
    EXPECT_NE(error_of("id,lower,upper,size\na,0,1,8,9\n").find("test.csv:2: expected 4 fields, found 5"),
              std::string::npos);
}

}  // namespace
}  // namespace harena
