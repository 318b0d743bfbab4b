// harena-solver-bench --folder: the published instances as evidence. Every
// CSV file under a folder is planned with the default options, twice, and
// gets one row: its size, lower bound, arena, ratio, CPU time, whether the
// two plans are the same bytes, and, for files named X.<capacity>.csv (as
// MiniMalloc's suites are), whether the default plan and capacity mode
// (harena::capacity_options, as harena-plan --capacity runs it) fit, and
// for the others the plan of a 5 s budget (as harena-plan --budget-ms 5000).
// --plans: the pipelines' own plan reports, planned again.
#pragma once

#include <string>

namespace harena::bench {

// The folder the bench reads when --folder names none: $HARENA_TRACES if
// set, else the shared traces beside the repository (../shared/traces from
// its root).
std::string default_traces_folder();

// Prints the table; returns 0, or 1 when a plan differed between its two
// runs or a file could not be read (invalid plans end the process, as in
// every table).
int folder_table(const std::string &folder);

// Every pipeline plan report (*.arena.csv, the problem with its offsets)
// under a folder, such as a build tree, planned again with the default
// options: how many, how many at the lower bound (naming the others), how
// many no larger than the plan the report holds, the worst ratio and the
// longest solve. Returns 0, or 1 when a file could not
// be read.
int plans_table(const std::string &folder);

}  // namespace harena::bench
