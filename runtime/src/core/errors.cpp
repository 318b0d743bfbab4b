#include "core/errors.h"

#include <cstdarg>
#include <cstdio>

#include "harena/runtime.h"

// Weak so that the runtime links into programs without a Halide runtime; in a
// program with AOT pipelines these resolve to the pipelines' runtime, whose
// handlers (halide_set_error_handler, halide_print overrides) then apply.
extern "C" void halide_error(void *user_context, const char *message) __attribute__((weak));
extern "C" void halide_print(void *user_context, const char *message) __attribute__((weak));

namespace harena::detail {

namespace {

constexpr int kMessageSize = 1024;
thread_local char last_error[kMessageSize] = "";

}  // namespace

int report_error(void *user_context, int code, const char *format, ...) {
    va_list args;
    va_start(args, format);
    std::vsnprintf(last_error, kMessageSize, format, args);
    va_end(args);
    if (halide_error) {
        halide_error(user_context, last_error);
    } else {
        std::fprintf(stderr, "Error: %s\n", last_error);
    }
    return code;
}

void report_notice(void *user_context, const char *format, ...) {
    char message[kMessageSize];
    va_list args;
    va_start(args, format);
    int length = std::vsnprintf(message, kMessageSize - 1, format, args);
    va_end(args);
    // A notice that did not fit ends where it was cut, still on a line of its own.
    if (length >= 0) {
        const int end = length < kMessageSize - 1 ? length : kMessageSize - 2;
        message[end] = '\n';
        message[end + 1] = '\0';
    }
    if (halide_print) {
        halide_print(user_context, message);
    } else {
        std::fputs(message, stderr);
    }
}

int report_exception(void *user_context, const char *function, const std::exception *e) {
    if (dynamic_cast<const std::bad_alloc *>(e) != nullptr) {
        return report_error(user_context, HARENA_ERROR_OUT_OF_MEMORY,
                            "%s: out of host memory for the runtime's own bookkeeping; free host memory and retry",
                            function);
    }
    return report_error(user_context, halide_error_code_internal_error,
                        "%s: internal error: unexpected exception (%s); please report it", function,
                        e != nullptr ? e->what() : "not a std::exception");
}

ByteText bytes_text(uint64_t bytes) {
    ByteText t;
    unsigned long long n = bytes;
    if (bytes < 1024) {
        std::snprintf(t.text, sizeof(t.text), "%llu bytes", n);
    } else if (bytes < (uint64_t(1) << 20)) {
        std::snprintf(t.text, sizeof(t.text), "%llu bytes (%.2f KiB)", n, bytes / 1024.0);
    } else if (bytes < (uint64_t(1) << 30)) {
        std::snprintf(t.text, sizeof(t.text), "%llu bytes (%.2f MiB)", n, bytes / (1024.0 * 1024.0));
    } else {
        std::snprintf(t.text, sizeof(t.text), "%llu bytes (%.2f GiB)", n, bytes / (1024.0 * 1024.0 * 1024.0));
    }
    return t;
}

}  // namespace harena::detail

extern "C" const char *harena_last_error(void) {
    return harena::detail::last_error;
}

extern "C" void harena_clear_last_error(void) {
    harena::detail::last_error[0] = '\0';
}
