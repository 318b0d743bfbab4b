// A drop-in for Halide's GenGen.cpp that understands the `arena` target
// feature. Halide rejects feature tokens it does not know, so the token is
// stripped from every target string (also for the -r runtime invocation) and,
// when present, turns the planner pass on and adds `user_context`: a planned
// pipeline's user_context argument is the harena_arena * it runs in.
// Arguments of the form harena.<option>=<value> are ours too and are stripped:
//   harena.unbounded=runtime   leave unboundable buffers to the runtime allocator
//   harena.trace=N             0 silent, 1 summary (default), 2 one line per buffer
#include "arena_pass.h"

#include <cstring>
#include <iostream>
#include <string>
#include <vector>

namespace harena {
namespace {

struct GeneratorConfig {
    bool arena = false;
    PassOptions options;
};

GeneratorConfig &config() {
    static GeneratorConfig c;
    return c;
}

std::vector<std::string> split(const std::string &s, char sep) {
    std::vector<std::string> out;
    size_t start = 0;
    for (size_t i = 0; i <= s.size(); i++) {
        if (i == s.size() || s[i] == sep) {
            out.push_back(s.substr(start, i - start));
            start = i + 1;
        }
    }
    return out;
}

std::string join(const std::vector<std::string> &parts, char sep) {
    std::string out;
    for (size_t i = 0; i < parts.size(); i++) {
        out += (i ? std::string(1, sep) : "") + parts[i];
    }
    return out;
}

// "host-cuda-arena,arm-64-linux-arena" -> "host-cuda-user_context,..."; sets
// `found` if any target named the feature.
std::string strip_arena(const std::string &targets, bool &found) {
    std::vector<std::string> list = split(targets, ',');
    bool any = false;
    for (std::string &t : list) {
        std::vector<std::string> kept;
        bool here = false, has_uc = false;
        for (const std::string &tok : split(t, '-')) {
            if (tok == "arena") {
                here = true;
            } else {
                has_uc |= tok == "user_context";
                kept.push_back(tok);
            }
        }
        if (here && !has_uc) {
            kept.push_back("user_context");
        }
        any |= here;
        t = join(kept, '-');
    }
    // The pass is switched on for the whole run when any target names the
    // feature. Halide's CMake rules list every library's targets when they
    // build a shared runtime (-r), where no pipeline is lowered, so a mixed
    // list is not refused.
    found |= any;
    return join(list, ',');
}

bool take_option(const std::string &arg) {
    const std::string prefix = "harena.";
    if (arg.rfind(prefix, 0) != 0) {
        return false;
    }
    size_t eq = arg.find('=');
    std::string key = arg.substr(prefix.size(), eq == std::string::npos ? std::string::npos : eq - prefix.size());
    std::string value = eq == std::string::npos ? "" : arg.substr(eq + 1);
    if (key == "unbounded" && (value == "runtime" || value == "error")) {
        config().options.unbounded_to_runtime = value == "runtime";
    } else if (key == "trace" && !value.empty()) {
        config().options.trace = std::stoi(value);
    } else {
        std::cerr << "harena: unknown generator option '" << arg
                  << "' (known: harena.unbounded=runtime|error, harena.trace=0|1|2)\n";
        std::exit(1);
    }
    return true;
}

}  // namespace
}  // namespace harena

// Attaching the pass needs a hook between schedule() and lowering that works
// for any generator. GeneratorBase::post_schedule() runs exactly there and is
// defined out of line in libHalide; this definition, linked into the generator
// executable, takes its place and does its work (tracking parameter values)
// before adding the pass to the generator's pipeline.
namespace Halide {
namespace Internal {
void GeneratorBase::post_schedule() {
    track_parameter_values(true);
    const harena::GeneratorConfig &c = harena::config();
    if (c.arena) {
        harena::PassOptions options = c.options;
        options.device_target = get_target().has_gpu_feature();
        get_pipeline().add_custom_lowering_pass(new harena::ArenaPlannerPass(options));
    }
}
}  // namespace Internal
}  // namespace Halide

int main(int argc, char **argv) {
    using namespace harena;
    std::vector<std::string> args;
    std::string function_name, generator_name;
    for (int i = 0; i < argc; i++) {
        std::string a = argv[i];
        if (i > 0 && take_option(a)) {
            continue;
        }
        if (a.rfind("target=", 0) == 0) {
            a = "target=" + strip_arena(a.substr(7), config().arena);
        } else if (i + 1 < argc && a == "-o") {
            config().options.report_dir = argv[i + 1];
        } else if (i + 1 < argc && a == "-f") {
            function_name = argv[i + 1];
        } else if (i + 1 < argc && a == "-g") {
            generator_name = argv[i + 1];
        }
        args.push_back(a);
    }
    std::string name = function_name.empty() ? generator_name : function_name;
    size_t colons = name.rfind("::");
    config().options.pipeline_name = colons == std::string::npos ? name : name.substr(colons + 2);

    std::vector<char *> cargs;
    for (std::string &a : args) {
        cargs.push_back(a.data());
    }
    cargs.push_back(nullptr);
    try {
        return Halide::Internal::generate_filter_main((int)args.size(), cargs.data(), std::cerr);
    } catch (const Halide::Error &e) {
        // A user's mistake (e.g. a size the planner cannot bound) reads as a
        // compiler error, not as an abort.
        std::cerr << e.what() << "\n";
        return 1;
    }
}
