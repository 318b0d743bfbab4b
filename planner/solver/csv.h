// The de-facto interchange format of offset planners (MiniMalloc's): one
// buffer per line, `id,lower,upper,size` with a half-open lifetime
// [lower, upper), an optional `alignment` (1 when the column is absent, as
// in MiniMalloc), and `offset` in plans.
#pragma once

#include <istream>
#include <ostream>
#include <string>

#include "solver/problem.h"
#include "solver/solver.h"

namespace harena {

// Columns may come in any order, named by the header line. An `offset`
// column is ignored, so a plan can be read back as its problem. Numbers are
// decimal integers, non-negative except lower and upper. Blank lines and a
// UTF-8 byte-order mark at the start are skipped. Ids must be unique within
// the file (Problem itself allows repeats). Throws InputError
// "<source_name>:<line>: <what is wrong>" for a malformed file or a buffer
// that check_problem would reject.
Problem read_problem_csv(std::istream &, const std::string &source_name);

// Writes the alignment column only when some alignment is not 1, so that
// MiniMalloc's own files round-trip unchanged.
void write_problem_csv(std::ostream &, const Problem &);

// The problem's columns plus `offset`.
void write_plan_csv(std::ostream &, const Problem &, const Plan &);

}  // namespace harena
