// Every kernel of the corpus's CUDA builds (plain and planned), as Halide
// compiled them: the PTX analysis (runtime/src/graph/ptx_access.h) must
// follow each one, or a graph keeps that kernel in its captured order. The
// PTX is read from the archives, where Halide embeds it as a string.
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <regex>
#include <string>
#include <vector>

#include "graph/ptx_access.h"

using harena::detail::analyze_ptx_entry;
using harena::detail::PtxKernelAccess;

namespace {

std::vector<std::string> archives() {
    std::ifstream list(HARENA_CORPUS_ARCHIVES);
    std::vector<std::string> paths;
    for (std::string line; std::getline(list, line);) {
        if (!line.empty()) {
            paths.push_back(line);
        }
    }
    return paths;
}

// The PTX modules embedded in an archive: from ".version" to the string's end.
std::vector<std::string> ptx_modules(const std::string &path) {
    std::ifstream in(path, std::ios::binary);
    const std::string data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::vector<std::string> modules;
    for (size_t at = data.find(".version"); at != std::string::npos; at = data.find(".version", at + 1)) {
        const size_t end = data.find('\0', at);
        const std::string module = data.substr(at, end == std::string::npos ? std::string::npos : end - at);
        if (module.find(".entry") != std::string::npos) {
            modules.push_back(module);
            at = end == std::string::npos ? data.size() : end;
        }
    }
    return modules;
}

std::vector<std::string> entries(const std::string &module) {
    static const std::regex entry(R"(\.entry\s+([A-Za-z0-9_$]+)\s*\()");
    std::vector<std::string> names;
    for (auto it = std::sregex_iterator(module.begin(), module.end(), entry); it != std::sregex_iterator(); ++it) {
        names.push_back((*it)[1]);
    }
    return names;
}

std::string base_name(const std::string &path) {
    return path.substr(path.find_last_of('/') + 1);
}

}  // namespace

TEST(CorpusPtx, EveryKernelOfEveryBuildIsFollowed) {
    const std::vector<std::string> paths = archives();
    ASSERT_FALSE(paths.empty());
    size_t kernels = 0;
    for (const std::string &path : paths) {
        const std::vector<std::string> modules = ptx_modules(path);
        ASSERT_FALSE(modules.empty()) << base_name(path) << " holds no PTX";
        for (const std::string &module : modules) {
            for (const std::string &name : entries(module)) {
                const PtxKernelAccess a = analyze_ptx_entry(module, name);
                EXPECT_TRUE(a.known) << base_name(path) << ": " << name;
                // Every kernel of a Halide pipeline stores into some buffer.
                EXPECT_NE(a.written, 0u) << base_name(path) << ": " << name;
                EXPECT_EQ(a.written & ~a.accessed, 0u) << base_name(path) << ": " << name;
                kernels++;
            }
        }
    }
    EXPECT_GT(kernels, paths.size());
}

TEST(CorpusPtx, MipLevelsKernelsEachReadOneBufferAndWriteAnother) {
    // Each level's kernel reads the input and writes its own output: the
    // shape that lets a graph run the three side by side.
    for (const std::string &path : archives()) {
        if (base_name(path).find("mip_levels") == std::string::npos) {
            continue;
        }
        const std::vector<std::string> modules = ptx_modules(path);
        ASSERT_EQ(modules.size(), 1u) << base_name(path);
        const std::vector<std::string> names = entries(modules[0]);
        ASSERT_EQ(names.size(), 3u) << base_name(path);
        for (const std::string &name : names) {
            const PtxKernelAccess a = analyze_ptx_entry(modules[0], name);
            ASSERT_TRUE(a.known) << name;
            EXPECT_EQ(__builtin_popcountll(a.accessed), 2) << name;
            EXPECT_EQ(__builtin_popcountll(a.written), 1) << name;
        }
    }
}
