// Replays fuzz inputs through a fuzz target without libFuzzer, so that the
// seed corpus runs in the normal test suite with any compiler:
//   harena-fuzz-replay-<target> DIR_OR_FILE...
// Each file is one input, directories are read in name order. A failing
// check aborts with the input's path printed just before; finding no input
// at all is an error too, so a misplaced corpus cannot pass.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "fuzz_support.h"

namespace fs = std::filesystem;

namespace {

std::vector<fs::path> inputs_in(const fs::path &path) {
    std::vector<fs::path> files;
    if (fs::is_directory(path)) {
        for (const fs::directory_entry &entry : fs::directory_iterator(path)) {
            if (entry.is_regular_file()) {
                files.push_back(entry.path());
            }
        }
        std::sort(files.begin(), files.end());
    } else if (fs::is_regular_file(path)) {
        files.push_back(path);
    }
    return files;
}

}  // namespace

int main(int argc, char **argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: %s DIR_OR_FILE...\n", argv[0]);
        return 2;
    }
    size_t replayed = 0;
    for (int i = 1; i < argc; i++) {
        for (const fs::path &file : inputs_in(argv[i])) {
            std::ifstream in(file, std::ios::binary);
            const std::vector<char> bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
            std::fprintf(stderr, "replaying %s (%zu bytes)\n", file.c_str(), bytes.size());
            LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t *>(bytes.data()), bytes.size());
            replayed++;
        }
    }
    if (replayed == 0) {
        std::fprintf(stderr, "no input found in the paths given\n");
        return 1;
    }
    std::printf("replayed %zu inputs\n", replayed);
    return 0;
}
