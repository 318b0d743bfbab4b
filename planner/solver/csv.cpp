#include "solver/csv.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <optional>
#include <stdexcept>
#include <type_traits>
#include <unordered_map>
#include <vector>

#include "solver/detail/common/check.h"
#include "solver/detail/common/describe.h"

namespace harena {

namespace {

enum Column { Id,
              Lower,
              Upper,
              Size,
              Alignment,
              Offset,
              kColumns };
constexpr std::array<const char *, kColumns> kNames = {"id", "lower", "upper", "size", "alignment", "offset"};

std::string trim(const std::string &s) {
    size_t first = s.find_first_not_of(" \t\r");
    if (first == std::string::npos) return "";
    return s.substr(first, s.find_last_not_of(" \t\r") - first + 1);
}

std::vector<std::string> split(const std::string &line) {
    std::vector<std::string> fields;
    size_t start = 0;
    for (size_t comma; (comma = line.find(',', start)) != std::string::npos; start = comma + 1) {
        fields.push_back(trim(line.substr(start, comma - start)));
    }
    fields.push_back(trim(line.substr(start)));
    return fields;
}

// A reader that knows where it is, for messages.
class Reader {
public:
    Reader(std::istream &in, const std::string &source)
        : in_(in), source_(source) {
    }

    // Next non-blank line, or false at the end. A UTF-8 byte-order mark at
    // the start of the file is dropped: spreadsheets write one, and it would
    // otherwise become part of the first column's name.
    bool next(std::string &line) {
        while (std::getline(in_, line)) {
            if (line_++ == 0 && line.compare(0, 3, "\xEF\xBB\xBF") == 0) line.erase(0, 3);
            if (!trim(line).empty()) return true;
        }
        return false;
    }

    size_t line() const {
        return line_;
    }

    [[noreturn]] void fail(const std::string &what) const {
        throw InputError(source_ + ":" + std::to_string(std::max<size_t>(line_, 1)) + ": " + what);
    }

    // Times may be negative (int64_t); sizes and alignments may not.
    template<typename T>
    T number(const std::string &field, Column column) const {
        T value{};
        const char *end = field.data() + field.size();
        auto [ptr, ec] = std::from_chars(field.data(), end, value);
        if (field.empty() || ec == std::errc::invalid_argument || ptr != end || (!std::is_signed_v<T> && field[0] == '-')) {
            fail(std::string(kNames[column]) + " must be " + (std::is_signed_v<T> ? "an integer" : "a non-negative integer") +
                 ", not '" + field + "'");
        }
        if (ec == std::errc::result_out_of_range) fail(std::string(kNames[column]) + " " + field + " is too large");
        return value;
    }

private:
    std::istream &in_;
    const std::string &source_;
    size_t line_ = 0;
};

void write_rows(std::ostream &out, const Problem &problem, const Plan *plan) {
    if (plan && plan->offsets.size() != problem.buffers.size()) {
        throw std::invalid_argument("write_plan_csv: the plan has " + std::to_string(plan->offsets.size()) +
                                    " offsets for " + std::to_string(problem.buffers.size()) + " buffers");
    }
    bool alignment = false;
    for (const Buffer &b : problem.buffers)
        alignment |= b.alignment != 1;
    out << "id,lower,upper,size" << (alignment ? ",alignment" : "") << (plan ? ",offset" : "") << '\n';
    for (size_t i = 0; i < problem.buffers.size(); i++) {
        const Buffer &b = problem.buffers[i];
        if (b.id.find_first_of(",\r\n") != std::string::npos) {
            throw InputError(detail::describe(b, i) + ": the id holds a comma or line break, which this CSV cannot store");
        }
        out << b.id << ',' << b.begin << ',' << b.end << ',' << b.size;
        if (alignment) out << ',' << b.alignment;
        if (plan) out << ',' << plan->offsets[i];
        out << '\n';
    }
}

}  // namespace

Problem read_problem_csv(std::istream &in, const std::string &source_name) {
    Reader reader(in, source_name);
    std::string line;
    if (!reader.next(line)) reader.fail("empty file; expected a header such as id,lower,upper,size");

    // Which field holds each column.
    std::array<std::optional<size_t>, kColumns> where;
    std::vector<std::string> header = split(line);
    for (size_t f = 0; f < header.size(); f++) {
        size_t c = 0;
        while (c < kColumns && header[f] != kNames[c])
            c++;
        if (c == kColumns) {
            reader.fail("unknown column '" + header[f] + "'; expected id, lower, upper, size and optionally alignment, offset");
        }
        if (where[c]) reader.fail("column '" + header[f] + "' appears twice");
        where[c] = f;
    }
    for (Column c : {Id, Lower, Upper, Size}) {
        if (!where[c]) reader.fail(std::string("missing column '") + kNames[c] + "' in the header");
    }

    Problem problem;
    uint64_t total = 0;
    // The line each id was first seen on. Within a file an id names one
    // buffer: a repeated one is almost always a row pasted twice or two
    // files joined, which would plan a buffer twice.
    std::unordered_map<std::string, size_t> first_line;
    while (reader.next(line)) {
        std::vector<std::string> fields = split(line);
        if (fields.size() != header.size()) {
            reader.fail("expected " + std::to_string(header.size()) + " fields, found " + std::to_string(fields.size()));
        }
        Buffer b;
        b.id = fields[*where[Id]];
        auto [seen, fresh] = first_line.emplace(b.id, reader.line());
        if (!fresh) {
            reader.fail("duplicate id '" + b.id + "' (first on line " + std::to_string(seen->second) +
                        "); each buffer needs its own id");
        }
        b.begin = reader.number<int64_t>(fields[*where[Lower]], Lower);
        b.end = reader.number<int64_t>(fields[*where[Upper]], Upper);
        b.size = reader.number<uint64_t>(fields[*where[Size]], Size);
        b.alignment = where[Alignment] ? reader.number<uint64_t>(fields[*where[Alignment]], Alignment) : 1;
        if (b.begin >= b.end) {
            reader.fail("lower " + std::to_string(b.begin) + " must be less than upper " + std::to_string(b.end) +
                        " (the lifetime [lower, upper) is half-open)");
        }
        std::string wrong = detail::check_buffer(b, total);
        if (!wrong.empty()) reader.fail("buffer '" + b.id + "': " + wrong);
        problem.buffers.push_back(std::move(b));
    }
    check_problem(problem);
    return problem;
}

void write_problem_csv(std::ostream &out, const Problem &problem) {
    write_rows(out, problem, nullptr);
}

void write_plan_csv(std::ostream &out, const Problem &problem, const Plan &plan) {
    write_rows(out, problem, &plan);
}

}  // namespace harena
