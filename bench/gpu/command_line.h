#pragma once
// The GPU benchmarks' command lines (harena-gpu-bench, harena-corpus-bench):
// options that each take one value, and --help.
#include <cstdio>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace bench {

struct Option {
    const char *flag;                            // "--seconds"
    std::function<void(const char *value)> set;  // stores the value
};

// The whole command line, as the reports print it.
inline std::string command_text(int argc, char **argv) {
    std::string text = argv[0];
    for (int i = 1; i < argc; i++) {
        text += std::string(" ") + argv[i];
    }
    return text;
}

// Sets each option given. Returns the program's exit code when it should
// stop: 0 after --help (usage on stdout), 2 after anything it does not know
// or an option without its value (usage on stderr); nothing to go on.
inline std::optional<int> parse_options(int argc, char **argv, const std::vector<Option> &options,
                                        void (*usage)(std::FILE *, const char *program)) {
    for (int i = 1; i < argc; i++) {
        const std::string arg = argv[i];
        if (arg == "--help" || arg == "-h") {
            usage(stdout, argv[0]);
            return 0;
        }
        const Option *match = nullptr;
        for (const Option &o : options) {
            if (arg == o.flag && i + 1 < argc) {
                match = &o;
            }
        }
        if (match == nullptr) {
            usage(stderr, argv[0]);
            return 2;
        }
        match->set(argv[++i]);
    }
    return std::nullopt;
}

}  // namespace bench
