// What the fake NVTX injection library (fake_nvtx_injection.cpp) records of
// the calls a program's NVTX client makes into it. The test reaches the log
// through dlsym on the library the runtime loaded.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace harena_test {

struct FakeNvtxEvent {
    enum Kind { heap_register,
                heap_unregister,
                region_register,
                region_unregister } kind;
    void *domain;
    void *heap;
    uint64_t address;  // heap_register, region_register, region_unregister
    uint64_t bytes;    // heap_register, region_register
    uint32_t batch;    // the number of regions in the call this one came in
};

struct FakeNvtxLog {
    int core_inits = 0;
    int extension_inits = 0;
    void *domain = nullptr;  // what DomainCreateA returned
    std::string domain_name;
    std::vector<FakeNvtxEvent> events;
    // Departures from the ABI the client was checked against: wrong sizes,
    // ids, types or usages; expected empty.
    std::vector<std::string> errors;
};

using FakeNvtxLogFunction = FakeNvtxLog *(*)();
constexpr const char *kFakeNvtxLogSymbol = "fake_nvtx_log";

}  // namespace harena_test
