// The cross-stream suites' shared rounds (stream_rounds.h).
#include "stream_rounds.h"

#include <cstdlib>
#include <cstring>

#include "streams/events.h"

namespace harena_test {

TestStreams::TestStreams(int count) {
    for (int i = 0; i < count; i++) {
        CUstream s = nullptr;
        if (stream_test_driver()->stream_create(&s, CU_STREAM_NON_BLOCKING) == CUDA_SUCCESS) {
            streams.push_back(s);
        }
    }
}

TestStreams::~TestStreams() {
    for (CUstream s : streams) {
        (void)stream_test_driver()->stream_synchronize(s);
        (void)stream_test_driver()->stream_destroy(s);
    }
}

uint32_t round_words() {
    const char *words = std::getenv("HARENA_STREAM_TEST_WORDS");
    const long n = words != nullptr ? std::strtol(words, nullptr, 10) : 0;
    return n > 0 && n <= (1 << 24) ? static_cast<uint32_t>(n) : uint32_t(1) << 20;
}

void queue_round(CUstream stream, int round, const std::vector<RoundBuffer> &buffers, const ErrorCount &errors) {
    const uint32_t value = 0x9E3779B9u * static_cast<uint32_t>(round + 1);
    for (const RoundBuffer &b : buffers) {
        fill_pattern(stream, b.address, b.words, value, kFillDelayNs);
    }
    for (const RoundBuffer &b : buffers) {
        check_pattern(stream, b.address, b.words, value, kCheckDelayNs, errors);
    }
}

namespace {

harena::detail::StreamEventBackend without_waits;

}  // namespace

bool drop_stream_waits_if_asked() {
    const char *flag = std::getenv("HARENA_TEST_DROP_STREAM_WAIT");
    if (flag == nullptr || std::strcmp(flag, "1") != 0 || harena::detail::stream_event_backend() == nullptr) {
        return false;
    }
    without_waits = *harena::detail::stream_event_backend();
    without_waits.wait = [](void *, void *, void *) { return 0; };
    harena::detail::set_stream_event_backend(&without_waits);
    return true;
}

}  // namespace harena_test
