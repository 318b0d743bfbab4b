#include "report/plan_report.h"

#include <cstdio>

#include "solver/csv.h"
#include "solver/svg.h"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <iomanip>
#include <sstream>

namespace harena {

namespace {

// A representative value as a person writes it: integers without a fraction.
std::string number(double v) {
    char text[32];
    if (v == static_cast<double>(static_cast<int64_t>(v))) {
        std::snprintf(text, sizeof text, "%lld", static_cast<long long>(v));
    } else {
        std::snprintf(text, sizeof text, "%g", v);
    }
    return text;
}

// `text` as a C string literal.
std::string c_string(const std::string &text) {
    std::string quoted = "\"";
    for (char ch : text) {
        if (ch == '"' || ch == '\\') {
            quoted += '\\';
        }
        quoted += ch == '\n' ? ' ' : ch;
    }
    return quoted + "\"";
}

std::string json_string(const std::string &s) {
    std::ostringstream o;
    o << '"';
    for (char ch : s) {
        switch (ch) {
        case '"':
            o << "\\\"";
            break;
        case '\\':
            o << "\\\\";
            break;
        case '\n':
            o << "\\n";
            break;
        case '\t':
            o << "\\t";
            break;
        default:
            if ((unsigned char)ch < 0x20) {
                o << "\\u" << std::hex << std::setw(4) << std::setfill('0') << (int)ch << std::dec;
            } else {
                o << ch;
            }
        }
    }
    o << '"';
    return o.str();
}

void write_file(const std::string &path, const std::string &text) {
    std::ofstream f(path);
    f << text;
    if (!f) {
        throw Halide::CompileError("harena: cannot write the plan report " + path +
                                   "; the directory given to the generator with -o must exist and be writable");
    }
}

}  // namespace

void write_plan_json(std::ostream &out, const PassReport &r) {
    out << "{\n  \"pipeline\": " << json_string(r.pipeline_name) << ",\n"
        << "  \"bounded\": " << (r.bounded ? "true" : "false") << ",\n"
        << "  \"" << (r.bounded ? "arena_bytes" : "arena_bytes_at_estimates") << "\": " << r.arena_bytes << ",\n"
        << "  \"plan_bytes\": " << r.plan_bytes << ",\n"
        << "  \"lower_bound\": " << r.lower_bound << ",\n"
        << "  \"ratio\": " << std::setprecision(6) << r.ratio() << ",\n"
        << "  \"buffers_planned\": " << r.planned_count() << ",\n";
    if (r.host_planned > 0) {
        out << "  \"host_buffers_planned\": " << r.host_planned << ",\n"
            << "  \"" << (r.host_bounded ? "host_companion_bytes" : "host_companion_bytes_at_estimates")
            << "\": " << r.host_arena_bytes << ",\n";
    }
    if (!r.bounded) {
        out << "  \"representative\": [";
        for (size_t i = 0; i < r.representative.size(); i++) {
            const RepresentativeValue &v = r.representative[i];
            out << (i ? ", " : "") << "{\"name\": " << json_string(v.name) << ", \"value\": " << number(v.value)
                << ", \"source\": " << json_string(v.source) << "}";
        }
        out << "],\n";
    }
    if (!r.slot_pools.empty()) {
        // Each pool lies at its offset in the arena, as slots x slot_bytes;
        // its buffers' offsets count from the start of a slot.
        out << "  \"slot_pools\": [";
        for (size_t i = 0; i < r.slot_pools.size(); i++) {
            const SlotPoolReport &p = r.slot_pools[i];
            out << (i ? ",\n" : "\n") << "    {\"loop\": " << json_string(p.loop) << ", \"offset\": " << p.offset
                << ", \"slots\": " << p.slots << ", \"" << (p.bounded ? "slot_bytes" : "slot_bytes_at_estimates")
                << "\": " << p.slot_bytes << ", \"slot_lower_bound\": " << p.lower_bound
                << ", \"buffers\": " << p.buffers << "}";
        }
        out << "\n  ],\n";
    }
    out << "  \"buffers\": [";
    for (size_t i = 0; i < r.buffers.size(); i++) {
        const BufferDecision &b = r.buffers[i];
        out << (i ? ",\n" : "\n") << "    {\"name\": " << json_string(b.name) << ", \"kind\": " << json_string(b.kind)
            << ", \"planned\": " << (b.planned ? "true" : "false");
        if (b.in_host_companion) {
            out << ", \"in\": \"host companion\"";
        }
        if (!b.slot_loop.empty()) {
            out << ", \"in\": " << json_string("slots of " + b.slot_loop);
        }
        if (b.planned) {
            out << ", \"offset\": " << b.offset << ", \"" << (b.bounded ? "worst_bytes" : "bytes_at_estimates")
                << "\": " << b.planned_bytes << ", \"lifetime\": [" << b.begin << ", " << b.end << "]";
            if (!b.bounded) {
                out << ", \"sized_per_call_by\": [";
                for (size_t k = 0; k < b.unbounded_by.size(); k++) {
                    out << (k ? ", " : "") << json_string(b.unbounded_by[k]);
                }
                out << "]";
            }
        }
        if (!b.size_expr.empty()) {
            out << ", \"size\": " << json_string(b.size_expr);
        }
        if (!b.reason.empty()) {
            out << ", \"reason\": " << json_string(b.reason);
        }
        out << "}";
    }
    out << "\n  ]\n}\n";
}

std::string plan_summary(const PassReport &r) {
    std::ostringstream o;
    o << "harena: " << r.pipeline_name << ": planned " << r.planned_count() << " of " << r.buffers.size()
      << " buffers into " << r.arena_bytes << " bytes" << (r.bounded ? "" : " at the representative sizes")
      << " (lower bound " << r.lower_bound << ", ratio " << std::fixed << std::setprecision(4) << r.ratio() << ")";
    if (r.host_planned > 0) {
        o << ", " << r.host_planned << " of them host-only, in " << r.host_arena_bytes << " bytes of the host companion"
          << (r.host_bounded ? "" : " at the representative sizes");
    }
    if (!r.slot_pools.empty()) {
        int in_slots = 0;
        for (const SlotPoolReport &p : r.slot_pools) {
            in_slots += p.buffers;
        }
        o << ", " << in_slots << " of them in slots of " << r.slot_pools.size() << " parallel loop"
          << (r.slot_pools.size() > 1 ? "s" : "") << " (";
        for (size_t i = 0; i < r.slot_pools.size(); i++) {
            const SlotPoolReport &p = r.slot_pools[i];
            o << (i ? ", " : "") << p.loop << ": " << p.slots << " x " << p.slot_bytes;
        }
        o << " bytes)";
    }
    if (r.bounded && r.host_bounded) {
        return o.str();
    }
    // Names in first-seen order; a Func allocated in several places (loop
    // partitions, specializations) is named once with its count.
    std::vector<std::pair<std::string, int>> per_call;
    int count = 0;
    for (const BufferDecision &b : r.buffers) {
        if (b.planned && !b.bounded) {
            count++;
            auto it = std::find_if(per_call.begin(), per_call.end(), [&](const auto &p) { return p.first == b.name; });
            if (it == per_call.end()) {
                per_call.emplace_back(b.name, 1);
            } else {
                it->second++;
            }
        }
    }
    o << "; no worst case: " << count << " sized per call (";
    for (size_t i = 0; i < per_call.size(); i++) {
        o << (i ? ", " : "") << per_call[i].first;
        if (per_call[i].second > 1) {
            o << " x" << per_call[i].second;
        }
    }
    o << ") because nothing declares a maximum for ";
    for (size_t i = 0; i < r.representative.size(); i++) {
        const RepresentativeValue &v = r.representative[i];
        o << (i ? ", " : "") << v.name << " (planned at " << v.source << ", " << number(v.value) << ")";
    }
    return o.str();
}

std::string plan_header(const PassReport &r) {
    std::string macro;
    for (char ch : r.pipeline_name) {
        macro += std::isalnum((unsigned char)ch) ? (char)std::toupper((unsigned char)ch) : '_';
    }
    std::ostringstream o;
    o << "// The arena plan of " << r.pipeline_name << ".\n#pragma once\n";
    if (r.bounded) {
        o << "// Every size has a declared maximum: an arena of " << macro
          << "_ARENA_BYTES holds any call within them.\n"
          << "#define " << macro << "_ARENA_BOUNDED 1\n"
          << "#define " << macro << "_ARENA_BYTES " << r.arena_bytes << "ull  // worst case over declared bounds\n";
    } else {
        o << "// Some sizes have no declared maximum, so there is no worst case: each call\n"
          << "// needs the bytes of its own sizes (ask with harena::measure). At the\n"
          << "// representative sizes the plan was made at it needs " << macro << "_ARENA_BYTES_AT_ESTIMATES:\n";
        for (const RepresentativeValue &v : r.representative) {
            o << "//   " << v.name << " = " << number(v.value) << " (" << v.source << ")\n";
        }
        o << "#define " << macro << "_ARENA_BOUNDED 0\n"
          << "#define " << macro << "_ARENA_BYTES_AT_ESTIMATES " << r.arena_bytes << "ull\n";
    }
    o << "#define " << macro << "_ARENA_LOWER_BOUND " << r.lower_bound << "ull  // of the plan's sizes\n"
      << "#define " << macro << "_ARENA_BUFFERS " << r.planned_count() << "\n"
      << "#define " << macro << "_ARENA_CAPTURABLE " << (r.capturable ? 1 : 0)
      << "  // one call captured as a CUDA graph replays it (harena/cuda.h)\n";
    if (!r.capturable) {
        o << "#define " << macro << "_ARENA_NOT_CAPTURABLE " << c_string(r.not_capturable) << "  // why not\n";
    }
    if (r.host_planned > 0) {
        o << "// Its host-only buffers (CPU stages between GPU stages) lie in the arena's host\n"
          << "// companion (harena_reserve_host_companion), " << (r.host_bounded ? "at most " : "at the estimates ")
          << macro << (r.host_bounded ? "_ARENA_HOST_BYTES" : "_ARENA_HOST_BYTES_AT_ESTIMATES") << ".\n"
          << "#define " << macro << "_ARENA_HOST_BUFFERS " << r.host_planned << "\n"
          << "#define " << macro << (r.host_bounded ? "_ARENA_HOST_BYTES " : "_ARENA_HOST_BYTES_AT_ESTIMATES ")
          << r.host_arena_bytes << "ull\n";
    }
    std::ostringstream json;
    write_plan_json(json, r);
    o << "#ifdef __cplusplus\n// The whole plan, as in " << r.pipeline_name << ".arena.json.\n"
      << "inline constexpr const char " << r.pipeline_name << "_arena_plan_json[] = R\"harena(" << json.str()
      << ")harena\";\n#endif\n";
    return o.str();
}

void write_plan_report(const PassReport &report, const Problem &problem, const Plan &plan,
                       const std::string &directory) {
    std::string stem = directory + "/" + report.pipeline_name + ".arena";
    write_file(stem + ".h", plan_header(report));
    std::ostringstream json, csv;
    write_plan_json(json, report);
    write_plan_csv(csv, problem, plan);
    write_file(stem + ".json", json.str());
    write_file(stem + ".csv", csv.str());
    write_file(stem + ".svg", plan_svg(problem, plan, report.pipeline_name));
}

}  // namespace harena
