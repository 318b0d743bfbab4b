#include "report/capturability.h"

#include "runtime_calls.h"

#include <map>
#include <vector>

namespace harena {

using namespace Halide;
using namespace Halide::Internal;

namespace {

bool starts_with(const std::string &s, const char *prefix) {
    return s.rfind(prefix, 0) == 0;
}

// Runtime calls a capturable call may make on the host: the device interface,
// buffer bookkeeping,
// error reports (made only when a check fails, which ends the call), and
// allocations and uploads that do nothing when the buffers already have
// current device memory, which the graph cache checks before capturing.
bool harmless_on_host(const std::string &name) {
    const std::string interface_suffix = "_device_interface";
    const bool names_an_interface = name.size() > interface_suffix.size() &&
                                    name.compare(name.size() - interface_suffix.size(), std::string::npos,
                                                 interface_suffix) == 0;
    return names_an_interface || starts_with(name, "_halide_buffer_") || starts_with(name, "halide_error") ||
           runtime_calls::is_argument_call(name) || name == halide_names::kCopyToDevice ||
           name == halide_names::kDeviceMalloc || name == halide_names::kDeviceFree ||
           name == halide_names::kDeviceAndHostMalloc || name == halide_names::kDeviceAndHostFree ||
           name == halide_names::kNopFree;
}

bool is_kernel_loop(const For *op) {
    return op->device_api == DeviceAPI::CUDA || op->for_type == ForType::GPUBlock ||
           op->for_type == ForType::GPUThread || op->for_type == ForType::GPULane;
}

// What each host stage stores and loads on the host: a host store or load
// belongs to the innermost `produce` around it.
class HostStages : public IRVisitor {
public:
    std::map<std::string, std::set<std::string>> loads_of;   // by producer
    std::map<std::string, std::set<std::string>> stored_by;  // buffer -> producers storing it
    std::set<std::string> read_on_device;                    // loaded in a kernel

private:
    int in_kernel = 0;
    std::vector<std::string> producers{""};

    using IRVisitor::visit;

    void visit(const For *op) override {
        const bool kernel = is_kernel_loop(op);
        in_kernel += kernel;
        IRVisitor::visit(op);
        in_kernel -= kernel;
    }

    void visit(const ProducerConsumer *op) override {
        if (op->is_producer && in_kernel == 0) {
            producers.push_back(op->name);
            op->body.accept(this);
            producers.pop_back();
        } else {
            IRVisitor::visit(op);
        }
    }

    void visit(const Load *op) override {
        if (in_kernel == 0) {
            loads_of[producers.back()].insert(op->name);
        } else {
            read_on_device.insert(op->name);
        }
        IRVisitor::visit(op);
    }

    void visit(const Store *op) override {
        if (in_kernel == 0) {
            stored_by[op->name].insert(producers.back());
        }
        IRVisitor::visit(op);
    }
};

// Host-stored buffers and, for each that is not a key-host buffer, the first
// buffer its stage reads that is not one either.
struct HostStageFacts {
    std::map<std::string, std::string> offending;  // by host-stored buffer; empty: key-host
    std::set<std::string> read_on_device;

    // A key-host buffer no kernel reads: a graph needs nothing of it.
    [[nodiscard]] bool host_only_key_host(const std::string &buffer) const {
        auto it = offending.find(buffer);
        return it != offending.end() && it->second.empty() && read_on_device.count(buffer) == 0;
    }
};

HostStageFacts classify_host_stages(const Stmt &s) {
    HostStages stages;
    s.accept(&stages);
    HostStageFacts facts{{}, stages.read_on_device};
    std::map<std::string, std::string> &offending = facts.offending;
    for (const auto &[buffer, producers] : stages.stored_by) {
        offending[buffer] = "";
    }
    // Removes, until none is left to remove, each buffer whose stage reads a
    // buffer not (or no longer) believed key-host.
    for (bool changed = true; changed;) {
        changed = false;
        for (auto &[buffer, why] : offending) {
            for (const std::string &producer : stages.stored_by[buffer]) {
                for (const std::string &read : stages.loads_of[producer]) {
                    auto it = offending.find(read);
                    const bool key_host = it != offending.end() && it->second.empty();
                    if (why.empty() && read != buffer && !key_host) {
                        why = read;
                        changed = true;
                    }
                }
            }
        }
    }
    return facts;
}

class FindHostWork : public IRVisitor {
public:
    explicit FindHostWork(std::map<std::string, std::string> host_stages)
        : host_stages(std::move(host_stages)) {
    }

    std::string found;        // the first obstacle
    std::string stage_found;  // the first host stage that reads more than the key

private:
    int in_kernel = 0;
    // Every host-stored buffer; empty for key-host ones, else what its stage
    // reads that makes it a function of more than the key.
    const std::map<std::string, std::string> host_stages;

    using IRVisitor::visit;

    void note(const std::string &what) {
        if (found.empty()) {
            found = what;
        }
    }

    void visit(const For *op) override {
        const bool kernel = is_kernel_loop(op);
        if (!kernel && in_kernel == 0 && op->for_type == ForType::Parallel) {
            note("parallel loop " + op->name);
        }
        in_kernel += kernel;
        IRVisitor::visit(op);
        in_kernel -= kernel;
    }

    void visit(const Fork *op) override {
        if (in_kernel == 0) {
            note("an async() fork");
        }
        IRVisitor::visit(op);
    }

    void visit(const Store *op) override {
        if (in_kernel == 0) {
            auto it = host_stages.find(op->name);
            if (it == host_stages.end()) {
                note("a host-side store to " + op->name);
            } else if (!it->second.empty() && stage_found.empty()) {
                stage_found = "a host-side store to " + op->name + ", whose stage reads " + it->second +
                              " (a graph replays only what the scalar arguments determine)";
            }
        }
        IRVisitor::visit(op);
    }

    void visit(const Provide *op) override {
        if (in_kernel == 0) {
            note("a host-side store to " + op->name);
        }
        IRVisitor::visit(op);
    }

    void visit(const Call *op) override {
        if (in_kernel == 0 && (op->call_type == Call::Extern || op->call_type == Call::ExternCPlusPlus) &&
            !harmless_on_host(op->name)) {
            note("a host call to " + op->name);
        }
        IRVisitor::visit(op);
    }
};

}  // namespace

std::set<std::string> key_host_buffers(const Stmt &s) {
    std::set<std::string> result;
    for (const auto &[buffer, why] : classify_host_stages(s).offending) {
        if (why.empty()) {
            result.insert(buffer);
        }
    }
    return result;
}

bool is_capturable(const Stmt &s, const std::vector<Candidate> &candidates, bool device_target, std::string *why) {
    std::string obstacle;
    if (!device_target) {
        obstacle = "a host pipeline";
    }
    const HostStageFacts host_stages = classify_host_stages(s);
    FindHostWork f(host_stages.offending);
    s.accept(&f);
    // A host stage that reads more than the key is named first: it is what
    // a schedule would have to change.
    if (obstacle.empty()) {
        obstacle = f.stage_found;
    }
    for (const Candidate &c : candidates) {
        if (obstacle.empty() && !c.planned && !host_stages.host_only_key_host(c.name)) {
            obstacle = "buffer " + c.name + " is left to the runtime allocator";
        }
    }
    if (obstacle.empty()) {
        obstacle = f.found;
    }
    if (why != nullptr) {
        *why = obstacle;
    }
    return obstacle.empty();
}

}  // namespace harena
