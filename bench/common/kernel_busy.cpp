#include "kernel_busy.h"

#include <algorithm>
#include <cstdio>

namespace harena_bench {

uint64_t covered_ns(std::vector<std::pair<uint64_t, uint64_t>> intervals) {
    std::sort(intervals.begin(), intervals.end());
    uint64_t ns = 0, covered_to = 0;
    for (const auto &[begin, end] : intervals) {
        const uint64_t from = std::max(begin, covered_to);
        if (end > from) {
            ns += end - from;
            covered_to = end;
        }
    }
    return ns;
}

std::string busy_problem(const KernelBusy &busy, double batch_us) {
    char text[160] = "";
    if (busy.dropped != 0 || busy.incomplete != 0) {
        std::snprintf(text, sizeof text, "%llu kernel records lost, %llu incomplete",
                      static_cast<unsigned long long>(busy.dropped), static_cast<unsigned long long>(busy.incomplete));
    } else if (busy.us > batch_us) {
        std::snprintf(text, sizeof text, "kernels busy %.1f us in a batch of %.1f us", busy.us, batch_us);
    }
    return text;
}

}  // namespace harena_bench

#ifdef HARENA_HAVE_CUPTI

#include <cupti_activity.h>
#include <dlfcn.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <mutex>
#include <utility>
#include <vector>

namespace harena_bench {
namespace {

// The CUPTI entry points the clock uses, from the library loaded at run time.
struct Cupti {
    void *library = nullptr;
    decltype(&cuptiActivityEnable) enable = nullptr;
    decltype(&cuptiActivityDisable) disable = nullptr;
    decltype(&cuptiActivityRegisterCallbacks) register_callbacks = nullptr;
    decltype(&cuptiActivityFlushAll) flush_all = nullptr;
    decltype(&cuptiActivityGetNextRecord) next_record = nullptr;
    decltype(&cuptiActivityGetNumDroppedRecords) dropped_records = nullptr;
    decltype(&cuptiGetResultString) result_string = nullptr;
};

// Kernel intervals in ns on the GPU's clock, filled by CUPTI's buffer
// callbacks (from any thread) and read by busy().
struct Recorder {
    std::mutex mutex;
    std::vector<std::pair<uint64_t, uint64_t>> intervals;
    uint64_t incomplete = 0;
    uint64_t dropped = 0;
};

Cupti cupti;
Recorder recorder;
constexpr size_t kBufferBytes = 8 << 20;
constexpr size_t kBufferAlignment = 8;  // ACTIVITY_RECORD_ALIGNMENT in CUPTI's samples

void CUPTIAPI buffer_requested(uint8_t **buffer, size_t *size, size_t *max_records) {
    *buffer = static_cast<uint8_t *>(std::aligned_alloc(kBufferAlignment, kBufferBytes));
    *size = *buffer != nullptr ? kBufferBytes : 0;
    *max_records = 0;
}

void CUPTIAPI buffer_completed(CUcontext, uint32_t stream, uint8_t *buffer, size_t, size_t valid) {
    {
        std::lock_guard<std::mutex> lock(recorder.mutex);
        CUpti_Activity *record = nullptr;
        while (cupti.next_record(buffer, valid, &record) == CUPTI_SUCCESS) {
            if (record->kind != CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL) {
                continue;
            }
            const auto *kernel = reinterpret_cast<const CUpti_ActivityKernel10 *>(record);
            if (kernel->start == 0 || kernel->end < kernel->start) {
                recorder.incomplete++;
            } else {
                recorder.intervals.emplace_back(kernel->start, kernel->end);
            }
        }
        size_t dropped = 0;
        if (cupti.dropped_records(nullptr, stream, &dropped) == CUPTI_SUCCESS) {
            recorder.dropped += dropped;
        }
    }
    std::free(buffer);
}

std::string program_folder() {
    char path[4096];
    const ssize_t n = readlink("/proc/self/exe", path, sizeof(path) - 1);
    if (n <= 0) {
        return ".";
    }
    std::string exe(path, static_cast<size_t>(n));
    return exe.substr(0, exe.find_last_of('/'));
}

// Loads CUPTI from the first place that has it; empty on success, else why not.
std::string load_cupti() {
    std::vector<std::string> candidates;
    if (const char *given = std::getenv("HARENA_CUPTI")) {
        candidates.emplace_back(given);
    }
    candidates.insert(candidates.end(), {"libcupti.so.13", program_folder() + "/libcupti.so.13",
                                         "/usr/local/cuda/lib64/libcupti.so.13",
                                         "/usr/local/cuda/extras/CUPTI/lib64/libcupti.so.13"});
    std::string tried;
    for (const std::string &c : candidates) {
        cupti.library = dlopen(c.c_str(), RTLD_NOW | RTLD_LOCAL);
        if (cupti.library != nullptr) {
            break;
        }
        tried += (tried.empty() ? "" : ", ") + c;
    }
    if (cupti.library == nullptr) {
        return "CUPTI not found (tried " + tried + "; set HARENA_CUPTI to libcupti.so.13)";
    }
    const auto symbol = [](auto &fn, const char *name) {
        fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(dlsym(cupti.library, name));
        return fn != nullptr;
    };
    if (!symbol(cupti.enable, "cuptiActivityEnable") || !symbol(cupti.disable, "cuptiActivityDisable") ||
        !symbol(cupti.register_callbacks, "cuptiActivityRegisterCallbacks") ||
        !symbol(cupti.flush_all, "cuptiActivityFlushAll") ||
        !symbol(cupti.next_record, "cuptiActivityGetNextRecord") ||
        !symbol(cupti.dropped_records, "cuptiActivityGetNumDroppedRecords") ||
        !symbol(cupti.result_string, "cuptiGetResultString")) {
        return "the CUPTI found lacks an entry point this program needs";
    }
    return "";
}

std::string failure(const char *call, CUptiResult result) {
    const char *text = "unknown error";
    if (cupti.result_string != nullptr) {
        cupti.result_string(result, &text);
    }
    return std::string(call) + " failed: " + text + " (" + std::to_string(result) + ")";
}

}  // namespace

std::unique_ptr<KernelBusyClock> KernelBusyClock::start(std::string &why_not) {
    if (cupti.library == nullptr) {
        why_not = load_cupti();
        if (!why_not.empty()) {
            return nullptr;
        }
    }
    if (const CUptiResult r = cupti.register_callbacks(buffer_requested, buffer_completed); r != CUPTI_SUCCESS) {
        why_not = failure("cuptiActivityRegisterCallbacks", r);
        return nullptr;
    }
    if (const CUptiResult r = cupti.enable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL); r != CUPTI_SUCCESS) {
        why_not = failure("cuptiActivityEnable(CONCURRENT_KERNEL)", r);
        return nullptr;
    }
    return std::unique_ptr<KernelBusyClock>(new KernelBusyClock());
}

KernelBusyClock::~KernelBusyClock() {
    cupti.flush_all(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
    cupti.disable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
}

void KernelBusyClock::restart() {
    cupti.flush_all(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
    std::lock_guard<std::mutex> lock(recorder.mutex);
    recorder.intervals.clear();
    recorder.incomplete = recorder.dropped = 0;
}

KernelBusy KernelBusyClock::busy() {
    cupti.flush_all(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
    std::lock_guard<std::mutex> lock(recorder.mutex);
    const uint64_t ns = covered_ns(recorder.intervals);
    KernelBusy b;
    b.us = static_cast<double>(ns) / 1000.0;
    b.kernels = recorder.intervals.size() + recorder.incomplete;
    b.incomplete = recorder.incomplete;
    b.dropped = recorder.dropped;
    return b;
}

}  // namespace harena_bench

#else  // built without CUPTI's headers

namespace harena_bench {

std::unique_ptr<KernelBusyClock> KernelBusyClock::start(std::string &why_not) {
    why_not = "built without CUPTI's headers (cupti_activity.h from the CUDA toolkit)";
    return nullptr;
}

KernelBusyClock::~KernelBusyClock() = default;

void KernelBusyClock::restart() {
}

KernelBusy KernelBusyClock::busy() {
    return {};
}

}  // namespace harena_bench

#endif
