// The runtime loaded with dlopen after start-up, in a shared library of its
// own (loaded_library.cpp): the registry's per-thread check uses
// initial-exec thread-local storage (core/registry.h), which such a library
// takes from the static TLS block glibc keeps for it. Loading must succeed,
// and each thread must see its own check.
#include <dlfcn.h>

#include <thread>
#include <vector>

#include <gtest/gtest.h>

namespace {

using Round = int (*)();

TEST(LoadedLibrary, TheRuntimeInALibraryLoadedAfterStartUpWorksOnEveryThread) {
    void *library = dlopen(HARENA_LOADED_LIBRARY, RTLD_NOW | RTLD_LOCAL);
    ASSERT_NE(library, nullptr) << dlerror();
    const auto round = reinterpret_cast<Round>(dlsym(library, "harena_loaded_library_round"));
    ASSERT_NE(round, nullptr) << dlerror();
    EXPECT_EQ(round(), 0);
    // Each thread's arenas are new to its check: 100 rounds each, at once.
    std::vector<int> results(4, -1);
    std::vector<std::thread> threads;
    for (size_t t = 0; t < results.size(); t++) {
        threads.emplace_back([&results, round, t] {
            int result = 0;
            for (int i = 0; i < 100 && result == 0; i++) {
                result = round();
            }
            results[t] = result;
        });
    }
    for (std::thread &t : threads) {
        t.join();
    }
    for (int r : results) {
        EXPECT_EQ(r, 0);
    }
    EXPECT_EQ(dlclose(library), 0);
}

}  // namespace
