// The differential schedule fuzzer: random pipelines with random CPU
// schedules (random_pipeline.h), each planned into an arena argument through
// JIT (harena::plan_into_argument) and realized next to the same pipeline
// unplanned, several calls with new inputs at 1, 2 and 8 threads, compared
// bit for bit. A case whose schedule Halide itself refuses is skipped; a
// mismatch is checked against the unplanned pipeline run twice (a
// nondeterministic pipeline is not the plan's fault), then shrunk to the
// fewest schedule directives that still fail, printed as a reproducer.
//
//   harena-schedule-fuzz [--first SEED] [--cases N] [--every K] [--calls N]
//     (seeds SEED, SEED + K, ... : shards of one range, each as costly)
//   harena-schedule-fuzz --repro SEED[:LEFT_OUT,...]...
//   ... --cuda: the same pipelines with GPU schedules (random_gpu_case),
//     compiled for CUDA, outputs copied back to the host before they are
//     compared; where no CUDA device is usable it prints a line saying so
//     and exits 77 (ctest's skip).
//   ... --compile-only: plans and compiles every case (with --cuda: no GPU
//     needed) and runs none.
//   ... --describe: prints each case's pipeline and schedule, and runs none.
//   ... --seconds S: starts no case after S seconds (a shard that must end
//     in time still prints its table, of the cases it ran).
//
// Exits 1 on any mismatch, or on a planned pipeline that fails where the
// unplanned one runs; prints a summary table last.
#include "autoschedulers.h"
#include "cuda_driver.h"
#include "harena/jit.h"
#include "jit_heap.h"
#include "runnable_target.h"
#include "random_pipeline.h"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace {

using namespace Halide;
using namespace harena_test;
using harena_test::BuiltPipeline;
using harena_test::RandomCase;

enum class Outcome {
    Matched,
    Refused,           // Halide refuses the schedule, planned or not
    Nondeterministic,  // the unplanned pipeline disagrees with itself
    Failed,            // a mismatch, or the planned pipeline fails alone
};

struct Result {
    Outcome outcome = Outcome::Matched;
    std::string detail;
    int buffers = 0, planned = 0, slot_pools = 0;
    long steady_heap_allocations = 0;  // calls after the first, where every buffer is planned
};

const int kThreadCounts[] = {1, 2, 8};

Buffer<uint16_t> new_input(uint64_t seed, int call, int width, int height) {
    Buffer<uint16_t> image(width, height);
    std::mt19937 random(static_cast<uint32_t>(seed * 7919 + call));
    image.for_each_value([&](uint16_t &v) { v = static_cast<uint16_t>(random() & 0x3fff); });
    return image;
}

Realization new_outputs(const BuiltPipeline &p, int width, int height) {
    std::vector<Buffer<>> buffers;
    for (const Func &f : p.outputs) {
#ifdef HALIDE_VERSION_MAJOR
        const std::vector<Type> &types = f.types();
#else
        const std::vector<Type> &types = f.output_types();  // Halide 14's name
#endif
        for (const Type &t : types) {
            buffers.emplace_back(t, width, height);
        }
    }
    return Realization(buffers);
}

bool same(const Realization &a, const Realization &b) {
    for (size_t i = 0; i < a.size(); i++) {
        const Buffer<> &x = a[i], &y = b[i];
        if (std::memcmp(x.data(), y.data(), x.size_in_bytes()) != 0) {
            return false;
        }
    }
    return true;
}

// Fills the host copies of `r` with `byte`, newer than any device copy: a
// call that writes nothing leaves the poison, on the host and (where the
// pipeline copies its outputs to the device first) on the device.
void poison(Realization &r, uint8_t byte) {
    for (size_t i = 0; i < r.size(); i++) {
        std::memset(r[i].data(), byte, r[i].size_in_bytes());
        r[i].set_host_dirty();
    }
}

// Brings a GPU pipeline's outputs back to the host (nothing for the host's).
void copy_to_host(Realization &r) {
    for (size_t i = 0; i < r.size(); i++) {
        r[i].copy_to_host();
    }
}

// `compile_only`: plan and compile both pipelines, run neither.
Result run_case(const RandomCase &c, const std::set<size_t> &left_out, int calls, bool compile_only) {
    Result result;
    const Target host = harena_test::runnable_host_target();
    const Target target = c.gpu ? host.with_feature(Target::CUDA) : host;
    BuiltPipeline plain = c.build(left_out), planned = c.build(left_out);
    Pipeline plain_pipeline(plain.outputs), planned_pipeline(planned.outputs);
    for (BuiltPipeline *p : {&plain, &planned}) {
        p->input.set_estimates({{0, c.width}, {0, c.height}});
        for (Func f : p->outputs) {
            f.set_estimates({{0, c.width}, {0, c.height}});
        }
    }
    try {
        if (!c.autoscheduler.empty()) {
            harena_test::autoschedule(plain_pipeline, c.autoscheduler, target, 8);
            harena_test::autoschedule(planned_pipeline, c.autoscheduler, target, 8);
        }
        plain_pipeline.compile_jit(target);
    } catch (const Halide::Error &e) {
        // Halide's own internal errors too: the unplanned pipeline fails.
        result.outcome = Outcome::Refused;
        result.detail = e.what();
        return result;
    }
    ImageParam arena(UInt(8), 1, "arena");
    harena::ArgumentPlan plan;
    try {
        plan = harena::plan_into_argument(planned_pipeline, arena, target);
        planned_pipeline.compile_jit(target);
    } catch (const Halide::Error &e) {
        result.outcome = Outcome::Failed;
        result.detail = std::string("the planned pipeline does not compile: ") + e.what();
        return result;
    }
    result.buffers = plan.buffers;
    result.planned = plan.buffers_planned;
    result.slot_pools = plan.slot_pools;
    if (compile_only) {
        return result;
    }
    Buffer<uint8_t> memory(static_cast<int>(std::max<uint64_t>(plan.bytes_at_estimates, 1)));
    arena.set(memory);
    count_heap_allocations(planned_pipeline);
    Realization expected = new_outputs(plain, c.width, c.height);
    Realization actual = new_outputs(planned, c.width, c.height);
    const ScopedJitThreads restored(1);
    int call = 0;
    for (int threads : kThreadCounts) {
        set_jit_threads(threads);
        for (int k = 0; k < calls; k++, call++) {
            Buffer<uint16_t> input = new_input(c.seed, call, c.width, c.height);
            plain.input.set(input);
            planned.input.set(input);
            poison(expected, 0x11);
            poison(actual, 0x22);
            try {
                plain_pipeline.realize(expected, target);
            } catch (const Halide::Error &e) {
                result.outcome = Outcome::Refused;
                result.detail = std::string("the unplanned pipeline fails: ") + e.what();
                return result;
            }
            jit_heap_allocations = 0;
            try {
                planned_pipeline.realize(actual, target);
            } catch (const Halide::Error &e) {
                result.outcome = Outcome::Failed;
                result.detail = std::string("the planned call fails: ") + e.what();
                return result;
            }
            copy_to_host(expected);
            copy_to_host(actual);
            if (call > 0 && plan.buffers_planned == plan.buffers) {
                result.steady_heap_allocations += jit_heap_allocations.load();
            }
            if (!same(expected, actual)) {
                // Control: the unplanned pipeline against itself.
                Realization again = new_outputs(plain, c.width, c.height);
                plain_pipeline.realize(again, target);
                copy_to_host(again);
                result.outcome = same(expected, again) ? Outcome::Failed : Outcome::Nondeterministic;
                result.detail = "call " + std::to_string(call) + " at " + std::to_string(threads) +
                                " threads differs from the unplanned pipeline";
                return result;
            }
        }
    }
    return result;
}

// The fewest directives that still fail: each in turn is left out where
// the case fails without it.
std::set<size_t> shrink(const RandomCase &c, int calls, bool compile_only) {
    std::set<size_t> left_out;
    for (size_t i = 0; i < c.directives.size(); i++) {
        std::set<size_t> trial = left_out;
        trial.insert(i);
        if (run_case(c, trial, calls, compile_only).outcome == Outcome::Failed) {
            left_out = trial;
        }
    }
    return left_out;
}

std::string reproducer(uint64_t seed, const std::set<size_t> &left_out) {
    std::ostringstream o;
    o << seed;
    const char *sep = ":";
    for (size_t i : left_out) {
        o << sep << i;
        sep = ",";
    }
    return o.str();
}

std::string joined(const std::vector<std::string> &names) {
    std::string out;
    for (const std::string &n : names) {
        out += (out.empty() ? "" : ", ") + n;
    }
    return out.empty() ? "none in this build" : out;
}

struct Job {
    uint64_t seed;
    std::set<size_t> left_out;
    bool shrink_on_failure;
};

Job parse_repro(const std::string &text) {
    Job job{std::stoull(text.substr(0, text.find(':'))), {}, false};
    if (size_t colon = text.find(':'); colon != std::string::npos) {
        std::stringstream list(text.substr(colon + 1));
        std::string index;
        while (std::getline(list, index, ',')) {
            job.left_out.insert(std::stoul(index));
        }
    }
    return job;
}

}  // namespace

int main(int argc, char **argv) {
    uint64_t first = 1;
    int cases = 20, calls = 2, every = 1;
    double seconds_limit = 0;  // 0: none
    bool cuda = false, compile_only = false, describe_only = false;
    std::vector<Job> jobs;
    for (int i = 1; i < argc; i++) {
        const std::string arg = argv[i];
        const bool has_value = i + 1 < argc;
        if (arg == "--first" && has_value) {
            first = std::stoull(argv[++i]);
        } else if (arg == "--cases" && has_value) {
            cases = std::stoi(argv[++i]);
        } else if (arg == "--every" && has_value) {
            every = std::max(1, std::stoi(argv[++i]));
        } else if (arg == "--calls" && has_value) {
            calls = std::stoi(argv[++i]);
        } else if (arg == "--repro" && has_value) {
            jobs.push_back(parse_repro(argv[++i]));
        } else if (arg == "--cuda") {
            cuda = true;
        } else if (arg == "--compile-only") {
            compile_only = true;
        } else if (arg == "--describe") {
            describe_only = true;
        } else if (arg == "--seconds" && has_value) {
            seconds_limit = std::stod(argv[++i]);
        } else {
            std::cerr << "usage: " << argv[0]
                      << " [--cuda] [--compile-only] [--describe] [--seconds S] [--first SEED] [--cases N] [--every K]"
                         " [--calls N] [--repro SEED[:i,j...]]...\n";
            return 2;
        }
    }
    if (jobs.empty()) {
        for (int k = 0; k < cases; k++) {
            jobs.push_back(Job{first + static_cast<uint64_t>(k) * static_cast<uint64_t>(every), {}, true});
        }
    }
    // GPU cases take no autoscheduler (and load none: a GPU machine gets the
    // fuzzer without the plugins).
    const auto make_case = [cuda](uint64_t seed) {
        return cuda ? harena_test::random_gpu_case(seed) : harena_test::random_case(seed, harena_test::autoschedulers());
    };
    if (describe_only) {
        for (const Job &job : jobs) {
            std::cout << make_case(job.seed).describe(job.left_out);
        }
        return 0;
    }
    if (cuda && !compile_only && !harena_test::cuda_usable()) {
        std::cout << "SKIPPED: no usable CUDA device (--cuda --compile-only plans and compiles the cases without one)\n";
        return 77;
    }
    const auto start = std::chrono::steady_clock::now();
    int matched = 0, refused = 0, nondeterministic = 0, failed = 0, fully_planned = 0, with_slots = 0;
    int autoscheduled = 0;
    long autoscheduled_buffers = 0, autoscheduled_planned = 0;
    long buffers = 0, planned = 0, steady_heap = 0;
    const std::string flags = std::string(cuda ? " --cuda" : "") + (compile_only ? " --compile-only" : "");
    const auto elapsed = [&start] {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    };
    size_t run = 0;
    for (const Job &job : jobs) {
        if (seconds_limit > 0 && elapsed() >= seconds_limit) {
            std::cout << "stopped after " << elapsed() << " s (--seconds): " << jobs.size() - run
                      << " cases not run\n";
            break;
        }
        run++;
        const RandomCase c = make_case(job.seed);
        const Result r = run_case(c, job.left_out, calls, compile_only);
        switch (r.outcome) {
        case Outcome::Matched:
            matched++;
            buffers += r.buffers;
            planned += r.planned;
            fully_planned += r.planned == r.buffers;
            with_slots += r.slot_pools > 0;
            steady_heap += r.steady_heap_allocations;
            if (!c.autoscheduler.empty()) {
                autoscheduled++;
                autoscheduled_buffers += r.buffers;
                autoscheduled_planned += r.planned;
            }
            if (r.steady_heap_allocations > 0) {
                std::cout << "case " << reproducer(job.seed, job.left_out) << ": every buffer planned, yet "
                          << r.steady_heap_allocations << " heap allocations after the first call\n";
            }
            break;
        case Outcome::Refused:
            refused++;
            if (std::getenv("HARENA_FUZZ_VERBOSE")) {
                std::cout << "case " << reproducer(job.seed, job.left_out) << " refused: " << r.detail << "\n";
            }
            break;
        case Outcome::Nondeterministic:
            nondeterministic++;
            std::cout << "case " << reproducer(job.seed, job.left_out)
                      << ": the unplanned pipeline disagrees with itself; skipped\n";
            break;
        case Outcome::Failed: {
            failed++;
            std::set<size_t> left_out = job.left_out;
            if (job.shrink_on_failure) {
                left_out = shrink(c, calls, compile_only);
            }
            std::cout << "FAILED case " << reproducer(job.seed, left_out) << ": " << r.detail << "\n"
                      << c.describe(left_out) << "reproduce: " << argv[0] << flags << " --repro "
                      << reproducer(job.seed, left_out) << "\n";
            break;
        }
        }
    }
    const double seconds = elapsed();
    std::cout << "| cases" << (cuda ? " (CUDA)" : "") << " | " << (compile_only ? "compiled, not run" : "matched")
              << " | refused by Halide | nondeterministic | failed | buffers planned | cases fully "
                 "planned | cases with slots | heap allocations in steady state | seconds |\n"
              << "|---|---|---|---|---|---|---|---|---|---|\n"
              << "| " << run << " | " << matched << " | " << refused << " | " << nondeterministic << " | "
              << failed << " | " << planned << " of " << buffers << " | " << fully_planned << " | " << with_slots
              << " | " << steady_heap << " | " << seconds << " |\n";
    if (!cuda) {
        std::cout << "autoscheduled (" << joined(harena_test::autoschedulers()) << "): " << autoscheduled
                  << " cases matched, " << autoscheduled_planned << " of " << autoscheduled_buffers
                  << " buffers planned\n";
    }
    return failed > 0 || steady_heap > 0 ? 1 : 0;
}
