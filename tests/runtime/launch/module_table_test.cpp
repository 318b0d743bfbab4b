// The launch path's module table (runtime/launch/module_table.h) with a fake
// driver: one load per source and context however many threads ask at once,
// one function lookup per name, and failures that leave nothing behind.
#include "module_table.h"

#include <gtest/gtest.h>

#include <atomic>
#include <string>
#include <thread>
#include <vector>

namespace {

using harena::detail::launch::FunctionCache;
using harena::detail::launch::LoadedModule;
using harena::detail::launch::ModuleLoader;
using harena::detail::launch::ModuleSource;
using harena::detail::launch::source_of;

std::atomic<int> loads{0};
std::atomic<int> lookups{0};
std::atomic<bool> fail_loads{false};
int module_storage[16];

int fake_load(const char *, int, void **module) {
    if (fail_loads.load()) {
        return 200;  // CUDA_ERROR_INVALID_IMAGE
    }
    *module = &module_storage[loads.fetch_add(1) % 16];
    return 0;
}

// A function's "address" is its name's, so a wrong answer shows.
int fake_get_function(void *, const char *name, void **function) {
    lookups.fetch_add(1);
    *function = const_cast<char *>(name);
    return 0;
}

const ModuleLoader fake{fake_load, fake_get_function};

class LaunchTable : public ::testing::Test {
protected:
    void SetUp() override {
        loads = 0;
        lookups = 0;
        fail_loads = false;
    }
};

template<typename Body>
void on_threads(int count, Body body) {
    std::vector<std::thread> threads;
    for (int t = 0; t < count; t++) {
        threads.emplace_back([&body, t] { body(t); });
    }
    for (auto &t : threads) {
        t.join();
    }
}

TEST_F(LaunchTable, OneRecordPerStateVariableAcrossThreads) {
    void *state = nullptr;
    std::vector<ModuleSource *> seen(8);
    on_threads(8, [&](int t) { seen[t] = source_of(&state, "src", 3); });
    ASSERT_NE(state, nullptr);
    for (ModuleSource *s : seen) {
        EXPECT_EQ(s, state);
    }
    delete static_cast<ModuleSource *>(state);
}

TEST_F(LaunchTable, OneLoadPerContextAcrossThreads) {
    ModuleSource source("src", 3);
    std::vector<LoadedModule *> got(16);
    on_threads(16, [&](int t) {
        for (int i = 0; i < 200; i++) {
            ASSERT_EQ(source.module_for(static_cast<uint64_t>(t % 2) + 1, fake, &got[t]), 0);
        }
    });
    EXPECT_EQ(loads.load(), 2);
    EXPECT_EQ(source.modules(), 2);
    for (int t = 2; t < 16; t++) {
        EXPECT_EQ(got[t], got[t % 2]) << "thread " << t;
    }
    EXPECT_NE(got[0], got[1]);
    EXPECT_EQ(got[1]->context_key, 2u);
}

TEST_F(LaunchTable, FailedLoadIsReportedAndRetried) {
    ModuleSource source("src", 3);
    LoadedModule *module = nullptr;
    fail_loads = true;
    EXPECT_EQ(source.module_for(7, fake, &module), 200);
    EXPECT_EQ(source.modules(), 0);
    fail_loads = false;
    ASSERT_EQ(source.module_for(7, fake, &module), 0);
    EXPECT_EQ(source.modules(), 1);
    EXPECT_EQ(module->context_key, 7u);
}

TEST_F(LaunchTable, OneLookupPerFunctionAcrossThreads) {
    static const char *names[] = {"kernel_f0", "kernel_f1", "kernel_f2"};
    auto cache = std::make_unique<FunctionCache>();
    on_threads(8, [&](int) {
        for (int i = 0; i < 300; i++) {
            const char *name = names[i % 3];
            void *function = nullptr;
            ASSERT_EQ(cache->function(module_storage, name, fake, &function), 0);
            ASSERT_EQ(function, name);
        }
    });
    // A thread may look a name up before the one that claimed its slot has
    // filled it; the count stays far below one per call.
    EXPECT_GE(lookups.load(), 3);
    EXPECT_LE(lookups.load(), 3 * 8);
}

TEST_F(LaunchTable, FullCacheStillAnswersEveryName) {
    std::vector<std::string> names;
    for (int i = 0; i < FunctionCache::slot_count + 16; i++) {
        names.push_back("kernel_" + std::to_string(i));
    }
    auto cache = std::make_unique<FunctionCache>();
    for (int round = 0; round < 2; round++) {
        for (const std::string &name : names) {
            void *function = nullptr;
            ASSERT_EQ(cache->function(module_storage, name.c_str(), fake, &function), 0);
            EXPECT_EQ(function, name.c_str());
        }
    }
    // Cached names are looked up once; the 16 that found no slot every time.
    EXPECT_EQ(lookups.load(), FunctionCache::slot_count + 2 * 16);
}

}  // namespace
