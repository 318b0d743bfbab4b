// Reporting in Halide's runtime style: a message through halide_error when a
// Halide runtime is linked (stderr otherwise), kept per thread for
// harena_last_error, and the error code handed back to the caller.
#pragma once

#include <cstdint>
#include <exception>
#include <new>

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

// Reports an exception that reached the boundary of a C entry point.
int report_exception(void *user_context, const char *function, const std::exception *e);

// Runs `body` (returning an error code) so that no exception leaves it: the
// runtime's host allocations (messages, records, guard bands, NVTX regions,
// the registry) throw std::bad_alloc, which becomes
// HARENA_ERROR_OUT_OF_MEMORY; anything else is an internal error. Used where
// a C entry point's work may allocate; a call that fails this way may have
// done part of its work, as any call that fails for want of host memory.
template<typename Body>
int guarded(void *user_context, const char *function, Body &&body) noexcept {
    try {
        return body();
    } catch (const std::exception &e) {
        return report_exception(user_context, function, &e);
    } catch (...) {
        return report_exception(user_context, function, nullptr);
    }
}

}  // namespace harena::detail
