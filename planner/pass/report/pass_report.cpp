#include "report/pass_report.h"

#include "report/capturability.h"
#include "report/plan_report.h"

#include <iostream>
#include <set>
#include <sstream>

namespace harena {

using namespace Halide;
using namespace Halide::Internal;

namespace {

std::string kind_name(const Candidate &c) {
    switch (c.kind) {
    case BufferKind::Device:
        return "device";
    case BufferKind::DeviceAndHost:
        return "device (also on host)";
    case BufferKind::Host:
        break;
    }
    return "host";
}

BufferDecision decision(const Candidate &c) {
    BufferDecision d;
    d.name = c.name;
    d.kind = kind_name(c);
    d.planned = c.planned;
    d.reason = c.reason;
    if (c.size.defined()) {
        std::ostringstream size;
        size << c.size;
        d.size_expr = size.str();
    }
    if (c.planned) {
        d.planned_bytes = c.planned_bytes;
        d.bounded = c.bounded;
        d.unbounded_by = c.unbounded_by;
        d.begin = c.begin;
        d.end = c.end;
    }
    return d;
}

// The representative values of the names the per-call buffers depend on, in
// the order the buffers name them.
std::vector<RepresentativeValue> representative_values(const PassReport &report, const Preamble &preamble) {
    std::vector<RepresentativeValue> out;
    std::set<std::string> seen;
    for (const BufferDecision &d : report.buffers) {
        for (const std::string &name : d.unbounded_by) {
            auto it = preamble.assumed.find(name);
            if (it != preamble.assumed.end() && seen.insert(name).second) {
                out.push_back(RepresentativeValue{name, it->second.value, it->second.source});
            }
        }
    }
    return out;
}

void trace_buffer(const std::string &pipeline, const BufferDecision &d) {
    std::cerr << "harena: " << pipeline << ": " << d.name << " (" << d.kind << "): ";
    if (d.planned) {
        std::cerr << "planned " << (d.in_host_companion ? "in the host companion " : "")
                  << (d.slot_loop.empty() ? "" : "in each slot of parallel loop " + d.slot_loop + " ") << "at offset "
                  << d.offset << ", " << d.planned_bytes
                  << (d.bounded ? " bytes worst case" : " bytes at the representative sizes, sized per call")
                  << ", live [" << d.begin << ", " << d.end << ")\n";
    } else {
        std::cerr << "not planned: " << d.reason << "\n";
    }
}

}  // namespace

PassReport make_report(const Stmt &s, const std::vector<Candidate> &candidates, const Preamble &preamble,
                       const Plan &plan, const Plan &host_plan, const PassOptions &options) {
    PassReport report;
    report.pipeline_name = options.pipeline_name;
    report.plan_bytes = plan.arena_bytes;
    const auto aligned = [&](uint64_t bytes) { return (bytes + options.alignment - 1) / options.alignment * options.alignment; };
    report.arena_bytes = aligned(plan.arena_bytes);
    report.host_arena_bytes = aligned(host_plan.arena_bytes);
    report.lower_bound = plan.lower_bound;
    report.solve_seconds = plan.solve_seconds + host_plan.solve_seconds;
    size_t k = 0;
    for (const Candidate &c : candidates) {
        report.buffers.push_back(decision(c));
        if (!c.planned) {
            continue;
        }
        if (c.region != 0) {
            report.bounded &= c.bounded;  // in a slot: report_slots gives its offset there
            continue;
        }
        BufferDecision &d = report.buffers.back();
        d.in_host_companion = in_host_companion(c.kind, options.device_target);
        if (d.in_host_companion) {
            d.offset = host_plan.offsets[report.host_planned++];
            report.host_bounded &= c.bounded;
        } else {
            d.offset = plan.offsets[k++];
            report.bounded &= c.bounded;
        }
    }
    report.representative = representative_values(report, preamble);
    report.capturable = is_capturable(s, candidates, options.device_target, &report.not_capturable);
    if (report.capturable && !options.arena_argument.empty()) {
        // The graph cache keys and replays calls of arenas it knows.
        report.capturable = false;
        report.not_capturable = "its arena is the argument '" + options.arena_argument +
                                "', which the graph cache does not take (it needs the user_context convention)";
    }
    return report;
}

void trace_plan(const PassReport &report, const PassOptions &options, double pass_seconds) {
    if (options.trace >= 2) {
        for (const BufferDecision &d : report.buffers) {
            trace_buffer(options.pipeline_name, d);
        }
    }
    if (options.trace >= 1) {
        std::cerr << plan_summary(report) << "\n";
    }
    if (options.trace >= 2 && options.device_target) {
        std::cerr << "harena: " << options.pipeline_name << ": "
                  << (report.capturable ? "capturable as a CUDA graph" :
                                          "not capturable as a CUDA graph: " + report.not_capturable)
                  << "\n";
    }
    if (options.trace >= 2) {
        std::cerr << "harena: " << options.pipeline_name << ": the pass took " << pass_seconds * 1e3 << " ms, "
                  << report.solve_seconds * 1e3 << " ms of it in the solver\n";
    }
}

}  // namespace harena
