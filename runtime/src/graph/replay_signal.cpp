#include "graph/replay_signal.h"

#include <chrono>

#include <sched.h>

#include "graph/backend.h"

namespace harena::detail {

namespace {

uint64_t read_word(const ReplaySignal &signal) {
    return __atomic_load_n(signal.word, __ATOMIC_ACQUIRE);
}

inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    asm volatile("yield");
#endif
}

}  // namespace

const ReplaySignal *ReplayWaiter::for_capture(const GraphBackend &backend, void *stream) {
    if (!usable_ || !wanted_) {
        return nullptr;
    }
    if (!made() && backend.signal_create(&signal_, stream) != 0) {
        usable_ = false;
        return nullptr;
    }
    return &signal_;
}

bool ReplayWaiter::signalled() const {
    if (ticket_ == 0) {
        return false;
    }
    using Clock = std::chrono::steady_clock;
    const Clock::time_point began = Clock::now();
    for (;;) {
        for (int i = 0; i < 64; i++) {
            if (read_word(signal_) >= ticket_) {
                return true;
            }
            cpu_relax();
        }
        if (Clock::now() - began > std::chrono::nanoseconds(kSignalSpinNanoseconds)) {
            return false;
        }
        // Where more threads wait than there are cores, the ones that have
        // work to queue run first.
        sched_yield();
    }
}

bool ReplayWaiter::outstanding() const {
    return made() && read_word(signal_) < launched_;
}

void ReplayWaiter::release(const GraphBackend &backend) {
    if (made()) {
        backend.signal_destroy(&signal_);  // leaves it empty
    }
}

}  // namespace harena::detail
