// Fuzz target: the problem CSV reader (planner/solver/csv.h) on any bytes.
// Every input is either refused with an InputError whose message names the
// source, or read into a problem that passes check_problem and survives a
// write/read round trip unchanged. Any other exception escapes and is
// reported as a crash, as are sanitizer findings, leaks and hangs.
#include <sstream>
#include <string>

#include "fuzz_support.h"
#include "solver/csv.h"
#include "solver/problem.h"

namespace {

constexpr const char *kSource = "fuzz.csv";

bool same_buffers(const harena::Problem &a, const harena::Problem &b) {
    if (a.buffers.size() != b.buffers.size()) {
        return false;
    }
    for (size_t i = 0; i < a.buffers.size(); i++) {
        const harena::Buffer &x = a.buffers[i], &y = b.buffers[i];
        if (x.id != y.id || x.begin != y.begin || x.end != y.end || x.size != y.size || x.alignment != y.alignment) {
            return false;
        }
    }
    return true;
}

harena::Problem read(const std::string &text) {
    std::istringstream in(text);
    return harena::read_problem_csv(in, kSource);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const std::string text(reinterpret_cast<const char *>(data), size);
    harena::Problem problem;
    try {
        problem = read(text);
    } catch (const harena::InputError &e) {
        const std::string message = e.what();
        FUZZ_CHECK(message.rfind(std::string(kSource) + ":", 0) == 0 && message.size() > 10,
                   "a refusal must say where and what: '%s'", message.c_str());
        return 0;
    }
    try {
        harena::check_problem(problem);
    } catch (const harena::InputError &e) {
        FUZZ_CHECK(false, "the reader accepted a problem that check_problem refuses: %s", e.what());
    }

    // What was read is written back and read again. The writer refuses ids
    // holding a comma or a line break with an InputError; the reader splits
    // on both, except on a carriage return inside an id (it only trims one
    // at the end of a field), so that is the one refusal that may happen.
    std::ostringstream out;
    try {
        harena::write_problem_csv(out, problem);
    } catch (const harena::InputError &e) {
        bool carriage_return = false;
        for (const harena::Buffer &b : problem.buffers) {
            carriage_return |= b.id.find('\r') != std::string::npos;
        }
        FUZZ_CHECK(carriage_return, "the writer refused a problem the reader accepted: %s", e.what());
        return 0;
    }
    harena::Problem again;
    try {
        again = read(out.str());
    } catch (const harena::InputError &e) {
        FUZZ_CHECK(false, "a written problem does not read back: %s\n%s", e.what(), out.str().c_str());
    }
    FUZZ_CHECK(same_buffers(problem, again), "the round trip changed the problem:\n%s", out.str().c_str());
    return 0;
}
