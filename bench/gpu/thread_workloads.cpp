#include "thread_workloads.h"

#include "graph_calls.h"
#include "regimes.h"
#include "workloads.h"

#include "HalideRuntime.h"

#include <cstring>

namespace bench {
namespace {

// An app's workload (workloads.h): device views, argv entry points.
class AppWorkload final : public ThreadWorkload {
public:
    explicit AppWorkload(const WorkloadSpec &spec)
        : workload_(spec.make()) {
    }

    [[nodiscard]] size_t steps() const override {
        return workload_->steps.size();
    }
    int plain(size_t i) override {
        return workload_->app->plain(const_cast<void **>(step(i).plain_args.data()));
    }
    int planned(size_t i, harena_arena *arena) override {
        // The planned arguments point at workload.arena for their first.
        workload_->arena = arena;
        return workload_->app->planned(const_cast<void **>(step(i).planned_args.data()));
    }
    int through_graphs(size_t i, harena_graph_cache *cache) override {
        return run_through_graphs(cache, *workload_->app, step(i));
    }
    int sync(size_t i, void *user_context) override {
        return halide_device_sync(user_context, step(i).output->raw());
    }
    void poison(size_t i) override {
        step(i).output->poison();
    }
    [[nodiscard]] std::vector<uint8_t> output(size_t i) override {
        const std::vector<float> values = step(i).output->read();
        std::vector<uint8_t> bytes(values.size() * sizeof(float));
        std::memcpy(bytes.data(), values.data(), bytes.size());
        return bytes;
    }
    [[nodiscard]] uint64_t override_bytes() override {
        return sum_of_worst_cases(workload_->app->plan_json);
    }

private:
    std::unique_ptr<Workload> workload_;

    [[nodiscard]] const Step &step(size_t i) const {
        return *workload_->steps[i];
    }
};

// The launch-bound fixed sizes, and the two workloads whose size changes on
// every call.
bool threaded(const WorkloadSpec &spec) {
    const std::string name = spec.app + " " + spec.size;
    return name == "chain4 64x64" || name == "small_chain 64x64" || name == "pyramid 512x512" ||
           spec.size.find("varies") != std::string::npos;
}

}  // namespace

std::vector<ThreadWorkloadSpec> thread_workload_specs() {
    std::vector<ThreadWorkloadSpec> specs;
    for (const WorkloadSpec &spec : workload_specs()) {
        if (threaded(spec)) {
            specs.push_back({spec.app + " " + spec.size, [spec] { return std::make_unique<AppWorkload>(spec); }});
        }
    }
    for (ThreadWorkloadSpec &spec : corpus_thread_workload_specs()) {
        specs.push_back(std::move(spec));
    }
    return specs;
}

}  // namespace bench
