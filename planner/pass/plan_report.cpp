#include "plan_report.h"

#include "solver/csv.h"
#include "solver/svg.h"

#include <cctype>
#include <fstream>
#include <iomanip>
#include <sstream>

namespace harena {

namespace {

std::string json_string(const std::string &s) {
    std::ostringstream o;
    o << '"';
    for (char ch : s) {
        switch (ch) {
        case '"': o << "\\\""; break;
        case '\\': o << "\\\\"; break;
        case '\n': o << "\\n"; break;
        case '\t': o << "\\t"; break;
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
        throw std::runtime_error("harena: cannot write plan report " + path);
    }
}

}  // namespace

void write_plan_json(std::ostream &out, const PassReport &r) {
    out << "{\n  \"pipeline\": " << json_string(r.pipeline_name) << ",\n"
        << "  \"arena_bytes\": " << r.arena_bytes << ",\n"
        << "  \"plan_bytes\": " << r.plan_bytes << ",\n"
        << "  \"lower_bound\": " << r.lower_bound << ",\n"
        << "  \"ratio\": " << std::setprecision(6) << r.ratio() << ",\n"
        << "  \"buffers_planned\": " << r.planned_count() << ",\n"
        << "  \"buffers\": [";
    for (size_t i = 0; i < r.buffers.size(); i++) {
        const BufferDecision &b = r.buffers[i];
        out << (i ? ",\n" : "\n") << "    {\"name\": " << json_string(b.name) << ", \"kind\": " << json_string(b.kind)
            << ", \"planned\": " << (b.planned ? "true" : "false");
        if (b.planned) {
            out << ", \"offset\": " << b.offset << ", \"worst_bytes\": " << b.worst_bytes << ", \"lifetime\": ["
                << b.begin << ", " << b.end << "]";
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
      << " buffers into " << r.arena_bytes << " bytes (lower bound " << r.lower_bound << ", ratio " << std::fixed
      << std::setprecision(4) << r.ratio() << ")";
    return o.str();
}

std::string plan_header(const PassReport &r) {
    std::string macro;
    for (char ch : r.pipeline_name) {
        macro += std::isalnum((unsigned char)ch) ? (char)std::toupper((unsigned char)ch) : '_';
    }
    std::ostringstream o;
    o << "// The arena plan of " << r.pipeline_name << ": pass an arena of at least this many bytes.\n"
      << "#pragma once\n"
      << "#define " << macro << "_ARENA_BYTES " << r.arena_bytes << "ull  // worst case over declared bounds\n"
      << "#define " << macro << "_ARENA_LOWER_BOUND " << r.lower_bound << "ull\n"
      << "#define " << macro << "_ARENA_BUFFERS " << r.planned_count() << "\n"
      << "#define " << macro << "_ARENA_CAPTURABLE " << (r.capturable ? 1 : 0)
      << "  // one call captured as a CUDA graph replays it (harena/cuda.h)\n";
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
