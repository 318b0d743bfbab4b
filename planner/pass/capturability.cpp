#include "capturability.h"

#include "runtime_calls.h"

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

class FindHostWork : public IRVisitor {
public:
    std::string found;

private:
    int in_kernel = 0;

    using IRVisitor::visit;

    void note(const std::string &what) {
        if (found.empty()) {
            found = what;
        }
    }

    void visit(const For *op) override {
        const bool kernel = op->device_api == DeviceAPI::CUDA || op->for_type == ForType::GPUBlock ||
                            op->for_type == ForType::GPUThread || op->for_type == ForType::GPULane;
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
            note("a host-side store to " + op->name);
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

bool is_capturable(const Stmt &s, const std::vector<Candidate> &candidates, bool device_target, std::string *why) {
    std::string obstacle;
    if (!device_target) {
        obstacle = "a host pipeline";
    }
    for (const Candidate &c : candidates) {
        if (obstacle.empty() && !c.planned) {
            obstacle = "buffer " + c.name + " is left to the runtime allocator";
        }
    }
    if (obstacle.empty()) {
        FindHostWork f;
        s.accept(&f);
        obstacle = f.found;
    }
    if (why != nullptr) {
        *why = obstacle;
    }
    return obstacle.empty();
}

}  // namespace harena
