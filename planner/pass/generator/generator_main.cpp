// A drop-in for Halide's GenGen.cpp that understands the `arena` target
// feature. Halide rejects feature tokens it does not know, so the token is
// stripped from every target string (also for the -r runtime invocation) and,
// when present, turns the planner pass on and adds `user_context`: a planned
// pipeline's user_context argument is the harena_arena * it runs in; with
// harena.argument, the arena is one of its buffer inputs instead and
// user_context stays as the target says.
// Arguments of the form harena.<option>=<value> are ours too and are stripped
// (add_halide_library passes its PARAMS through as such arguments):
//   harena.max.<scalar>=N        a maximum for a scalar input (maxima.h)
//   harena.max.<buffer>.<dim>=N  a maximum for a buffer input's or output's extent
//   harena.unbounded=plan        plan sizes without a maximum per call (default)
//   harena.unbounded=runtime     leave them to the runtime allocator
//   harena.require_bounds=1      a build error for them (harena.unbounded=error)
//   harena.nominal_extent=N      the representative value of an extent or scalar
//                                with neither a maximum nor an estimate (1024)
//   harena.trace=N               0 silent, 1 summary (default), 2 one line per buffer
//   harena.argument=<input>      the arena is this buffer input (uint8, one
//                                dimension), not user_context (rewrite/argument_frame.h)
//   harena.parallel_slots=N      tasks of each parallel loop that run in the
//                                arena at once (16; rewrite/parallel_slots.h)
//
// How the pass is attached depends on the Halide release (generator_attach.h).
// Whatever the mechanism, an `arena` build that lowered a pipeline without
// running the pass fails here, naming the cause, rather than emitting an
// unplanned library.
#include "generator/arena_main.h"
#include "generator/generator_attach.h"

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

namespace harena {
namespace {

// Each slot is a word of the loop's state on the pipeline's stack: Halide's
// thread pool runs at most 256 threads.
constexpr int kMaxParallelSlots = 1024;

GeneratorConfig &config() {
    return generator_config();
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

// "host-cuda-arena,arm-64-linux-arena" -> "host-cuda-user_context,..."
// (without user_context where the arena is an argument); sets `found` if any
// target named the feature.
std::string strip_arena(const std::string &targets, bool &found) {
    const bool add_user_context = config().options.arena_argument.empty();
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
        if (here && !has_uc && add_user_context) {
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

const char *const kKnownOptions =
    "known: harena.max.<scalar>=N, harena.max.<buffer>.<dim>=N, harena.unbounded=plan|runtime|error, "
    "harena.require_bounds=0|1, harena.nominal_extent=N, harena.trace=0|1|2, harena.argument=<buffer input>, "
    "harena.parallel_slots=N";

// Recorded for main, which reports every bad option and returns an error
// instead of running the generator: nothing here ends the process.
void bad_option(const std::string &arg, const std::string &why) {
    config().bad_options += "harena: generator option '" + arg + "': " + why + " (" + kKnownOptions + ")\n";
}

int64_t number(const std::string &arg, const std::string &value, int64_t least) {
    size_t used = 0;
    int64_t n = 0;
    try {
        n = std::stoll(value, &used);
    } catch (const std::exception &) {
        used = 0;
    }
    if (value.empty() || used != value.size() || n < least) {
        bad_option(arg, "expected an integer of at least " + std::to_string(least));
    }
    return n;
}

bool take_option(const std::string &arg) {
    const std::string prefix = "harena.";
    if (arg.rfind(prefix, 0) != 0) {
        return false;
    }
    size_t eq = arg.find('=');
    if (eq == std::string::npos) {
        bad_option(arg, "expected harena.<option>=<value>");
        return true;
    }
    std::string key = arg.substr(prefix.size(), eq - prefix.size());
    std::string value = arg.substr(eq + 1);
    PassOptions &o = config().options;
    if (key.rfind("max.", 0) == 0 && key.size() > 4) {
        config().maxima.push_back(GivenMaximum{key.substr(4), number(arg, value, 0)});
    } else if (key == "unbounded" && (value == "plan" || value == "runtime" || value == "error")) {
        o.unbounded = value == "plan" ? Unbounded::PlanPerCall : value == "runtime" ? Unbounded::Runtime :
                                                                                      Unbounded::Error;
    } else if (key == "require_bounds" && (value == "0" || value == "1")) {
        o.unbounded = value == "1" ? Unbounded::Error : Unbounded::PlanPerCall;
    } else if (key == "nominal_extent") {
        o.nominal_extent = number(arg, value, 1);
    } else if (key == "trace") {
        o.trace = (int)number(arg, value, 0);
    } else if (key == "parallel_slots") {
        o.parallel_slots = (int)std::min<int64_t>(number(arg, value, 0), kMaxParallelSlots + 1);
        if (o.parallel_slots > kMaxParallelSlots) {
            bad_option(arg, "expected at most " + std::to_string(kMaxParallelSlots) + " slots");
        }
    } else if (key == "argument" && !value.empty()) {
        o.arena_argument = value;
    } else {
        bad_option(arg, "unknown option or value");
    }
    return true;
}

// The command line with our arguments taken out, and what the checks need.
struct CommandLine {
    std::vector<std::string> args;
    std::string function_name, generator_name, file_base_name, output_dir;
    std::vector<std::string> emits;
};

CommandLine parse(int argc, char **argv) {
    CommandLine c;
    // Our options first: how targets are rewritten depends on harena.argument.
    std::vector<std::string> rest;
    for (int i = 0; i < argc; i++) {
        if (i == 0 || !take_option(argv[i])) {
            rest.push_back(argv[i]);
        }
    }
    for (size_t i = 0; i < rest.size(); i++) {
        std::string a = rest[i];
        const std::string next = i + 1 < rest.size() ? rest[i + 1] : "";
        if (a.rfind("target=", 0) == 0) {
            a = "target=" + strip_arena(a.substr(7), config().arena);
        } else if (a == "-o") {
            c.output_dir = next;
        } else if (a == "-f") {
            c.function_name = next;
        } else if (a == "-g") {
            c.generator_name = next;
        } else if (a == "-n") {
            c.file_base_name = next;
        } else if (a == "-e") {
            c.emits = split(next, ',');
        }
        c.args.push_back(a);
    }
    return c;
}

// Whether this invocation lowers a pipeline: it builds a generator (not just
// a runtime, -r) and emits more than the C++ stub.
bool lowers(const CommandLine &c) {
    if (c.generator_name.empty()) {
        return false;
    }
    for (const std::string &e : c.emits) {
        if (e != "cpp_stub") {
            return true;
        }
    }
    return c.emits.empty();
}

// An `arena` build whose pass never ran emitted an unplanned library: remove
// what it wrote (so that no build tool takes it as up to date) and fail.
int refuse_unplanned(const CommandLine &c, const std::string &base) {
    std::error_code ec;
    for (const auto &entry : std::filesystem::directory_iterator(c.output_dir.empty() ? "." : c.output_dir, ec)) {
        const std::string file = entry.path().filename().string();
        if (entry.is_regular_file() && file.rfind(base + ".", 0) == 0) {
            std::filesystem::remove(entry.path(), ec);
        }
    }
    std::cerr << "harena: generator '" << c.generator_name << "' was built for the `arena` feature, but the "
              << "arena planner pass never ran, so the library would be unplanned; nothing was emitted. "
              << "The hook that attaches the pass (planner/pass/generator_attach_*.cpp) did not take "
                 "effect with this libHalide ("
              << "Halide " << halide_major << "): build the generator with add_halide_arena_generator and a Halide release halide-arena "
                                              "supports.\n";
    return 1;
}

}  // namespace
}  // namespace harena

int harena::arena_generator_main(int argc, char **argv, const GeneratorRunner &run_generators) {
    using namespace harena;
    CommandLine c = parse(argc, argv);
    if (!config().bad_options.empty()) {
        std::cerr << config().bad_options;
        return 1;
    }
    config().options.report_dir = c.output_dir;
    std::string name = c.function_name.empty() ? c.generator_name : c.function_name;
    size_t colons = name.rfind("::");
    config().options.pipeline_name = colons == std::string::npos ? name : name.substr(colons + 2);

    std::vector<char *> cargs;
    for (std::string &a : c.args) {
        cargs.push_back(a.data());
    }
    cargs.push_back(nullptr);
    int result = 1;
    try {
        result = run_generators((int)c.args.size(), cargs.data());
    } catch (const Halide::Error &e) {
        // A user's mistake (e.g. a size the planner cannot bound) reads as a
        // compiler error, not as an abort.
        std::cerr << e.what() << "\n";
        return 1;
    }
    if (result == 0 && config().arena && lowers(c) && arena_passes_run() == 0) {
        return refuse_unplanned(c, c.file_base_name.empty() ? config().options.pipeline_name : c.file_base_name);
    }
    return result;
}
