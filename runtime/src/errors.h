// Reporting in Halide's runtime style: a message through halide_error when a
// Halide runtime is linked (stderr otherwise), kept per thread for
// harena_last_error, and the error code handed back to the caller.
#pragma once

#include <cstdint>

namespace harena::detail {

// Formats the message, reports it and returns `code`.
int report_error(void *user_context, int code, const char *format, ...) __attribute__((format(printf, 3, 4)));

// Informational message through halide_print (stderr otherwise); not an error.
void report_notice(void *user_context, const char *format, ...) __attribute__((format(printf, 2, 3)));

// "N bytes (X.YY MiB)", for messages a person reads.
struct ByteText {
    char text[48];
};
ByteText bytes_text(uint64_t bytes);

}  // namespace harena::detail
