// A drop-in for Halide's GenGen.cpp that understands the `arena` target
// feature. Halide rejects feature tokens it does not know, so the token is
// stripped from every target string (also for the -r runtime invocation) and,
// when present, turns the planner pass on and adds `user_context`: a planned
// pipeline's user_context argument is the harena_arena * it runs in.
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
#include "arena_pass.h"
#include "maxima.h"

#include <iostream>
#include <string>
#include <vector>

namespace harena {
namespace {

struct GeneratorConfig {
    bool arena = false;
    PassOptions options;
    std::vector<GivenMaximum> maxima;
    std::string bad_options;  // one line per bad harena.* argument
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

const char *const kKnownOptions =
    "known: harena.max.<scalar>=N, harena.max.<buffer>.<dim>=N, harena.unbounded=plan|runtime|error, "
    "harena.require_bounds=0|1, harena.nominal_extent=N, harena.trace=0|1|2";

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
    } else {
        bad_option(arg, "unknown option or value");
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
    // Maxima are checked against the generator's arguments in every build,
    // so that a misspelt name is reported, and required only where they
    // bound a plan.
    if (!c.maxima.empty()) {
        std::vector<harena::NamedArgument> arguments;
        for (GeneratorInputBase *input : param_info().inputs()) {
            if (input->kind() != IOKind::Function) {
                for (const Parameter &p : input->parameters_) {
                    arguments.push_back({p.name(), p});
                }
            }
        }
        for (GeneratorOutputBase *output : param_info().outputs()) {
            if (output->kind() == IOKind::Buffer) {
                for (const Func &f : output->funcs()) {
                    for (const OutputImageParam &b : f.output_buffers()) {
                        arguments.push_back({b.name(), b.parameter()});
                    }
                }
            }
        }
        for (harena::MaximumRequirement &r : harena::requirements_for(c.maxima, arguments)) {
            if (c.arena) {
                get_pipeline().add_requirement(r.condition, r.message);
            }
        }
    }
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
    if (!config().bad_options.empty()) {
        std::cerr << config().bad_options;
        return 1;
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
