#include "autoschedulers.h"

#include <sstream>

namespace harena_test {

const std::vector<std::string> &autoschedulers() {
    static const std::vector<std::string> names = [] {
        std::vector<std::string> loaded;
#ifdef HARENA_AUTOSCHEDULER_PLUGINS
        std::stringstream plugins(HARENA_AUTOSCHEDULER_PLUGINS);
        std::string entry;
        while (std::getline(plugins, entry, ',')) {
            const size_t eq = entry.find('=');
            if (eq == std::string::npos) {
                continue;
            }
            Halide::load_plugin(entry.substr(eq + 1));
            loaded.push_back(entry.substr(0, eq));
        }
#endif
        return loaded;
    }();
    return names;
}

void autoschedule(Halide::Pipeline &pipeline, const std::string &name, const Halide::Target &target, int parallelism) {
#ifdef HALIDE_VERSION_MAJOR
    Halide::AutoschedulerParams params(name);
    if (name == "Mullapudi2016" || name == "Adams2019") {
        params.extra["parallelism"] = std::to_string(parallelism);
    }
    pipeline.apply_autoscheduler(target, params);
#else
    // Halide 14: the machine's parallelism, the generic cache and balance.
    Halide::MachineParams machine = Halide::MachineParams::generic();
    machine.parallelism = parallelism;
    pipeline.auto_schedule(name, target, machine);
#endif
}

}  // namespace harena_test
