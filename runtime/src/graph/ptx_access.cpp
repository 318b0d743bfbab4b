#include "graph/ptx_access.h"

#include <algorithm>
#include <cctype>
#include <string>
#include <unordered_map>

namespace harena::detail {

namespace {

constexpr size_t kMaxParams = 64;
// Passes over the body until the registers' parameters stop growing: loops
// carry a value back at most once per register chain.
constexpr int kMaxPasses = 64;

bool is_name_char(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$' || c == '.';
}

std::string_view trim(std::string_view s) {
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) {
        s.remove_prefix(1);
    }
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) {
        s.remove_suffix(1);
    }
    return s;
}

// The module without its comments.
std::string without_comments(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (size_t i = 0; i < text.size(); i++) {
        if (text.compare(i, 2, "//") == 0) {
            while (i < text.size() && text[i] != '\n') {
                i++;
            }
            out.push_back('\n');
        } else if (text.compare(i, 2, "/*") == 0) {
            const size_t end = text.find("*/", i + 2);
            i = end == std::string_view::npos ? text.size() : end + 1;
            out.push_back(' ');
        } else {
            out.push_back(text[i]);
        }
    }
    return out;
}

// Where `.entry <entry>` begins its parameter list ('('), or npos.
size_t find_entry(std::string_view text, std::string_view entry) {
    for (size_t at = text.find(".entry"); at != std::string_view::npos; at = text.find(".entry", at + 1)) {
        size_t i = at + 6;
        while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) {
            i++;
        }
        if (text.compare(i, entry.size(), entry) != 0) {
            continue;
        }
        i += entry.size();
        while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) {
            i++;
        }
        if (i < text.size() && text[i] == '(') {
            return i;
        }
    }
    return std::string_view::npos;
}

uint8_t scalar_bytes(std::string_view type) {
    if (type.size() < 3) {
        return 0;
    }
    const std::string_view bits = type.substr(2);
    return bits == "64" ? 8 : bits == "32" ? 4 :
                          bits == "16"     ? 2 :
                          bits == "8"      ? 1 :
                                             0;
}

// Splits an instruction's operands at the commas outside [] and {}.
std::vector<std::string_view> operands_of(std::string_view s) {
    std::vector<std::string_view> out;
    int depth = 0;
    size_t start = 0;
    for (size_t i = 0; i < s.size(); i++) {
        if (s[i] == '[' || s[i] == '{') {
            depth++;
        } else if (s[i] == ']' || s[i] == '}') {
            depth--;
        } else if (s[i] == ',' && depth == 0) {
            out.push_back(trim(s.substr(start, i - start)));
            start = i + 1;
        }
    }
    if (!trim(s.substr(start)).empty()) {
        out.push_back(trim(s.substr(start)));
    }
    return out;
}

enum class Space { Generic,
                   Global,
                   Shared,
                   Local,
                   Param,
                   Const };

Space space_of(std::string_view opcode) {
    for (size_t at = opcode.find('.'); at != std::string_view::npos; at = opcode.find('.', at + 1)) {
        const std::string_view part = opcode.substr(at + 1, opcode.find('.', at + 1) - at - 1);
        if (part == "global") {
            return Space::Global;
        }
        if (part == "shared") {
            return Space::Shared;
        }
        if (part == "local") {
            return Space::Local;
        }
        if (part == "param") {
            return Space::Param;
        }
        if (part == "const") {
            return Space::Const;
        }
    }
    return Space::Generic;
}

class Analysis {
public:
    explicit Analysis(std::vector<std::string> params)
        : params_(std::move(params)) {
    }

    // One pass over the statements; false once the kernel is unknown.
    bool pass(const std::vector<std::string_view> &statements) {
        for (std::string_view s : statements) {
            if (!statement(s)) {
                return false;
            }
        }
        return true;
    }

    bool changed = false;
    uint64_t accessed = 0;
    uint64_t written = 0;

private:
    // The registers an operand names and the parameters it names directly.
    uint64_t taint_of(std::string_view operand) const {
        uint64_t taint = 0;
        for (size_t i = 0; i < operand.size(); i++) {
            if (operand[i] == '%') {
                size_t j = i + 1;
                while (j < operand.size() && (std::isalnum(static_cast<unsigned char>(operand[j])) || operand[j] == '_')) {
                    j++;
                }
                const auto found = taint_.find(std::string(operand.substr(i, j - i)));
                if (found != taint_.end()) {
                    taint |= found->second;
                }
                i = j - 1;
            } else if (is_name_char(operand[i]) && (i == 0 || !is_name_char(operand[i - 1]))) {
                size_t j = i;
                while (j < operand.size() && is_name_char(operand[j])) {
                    j++;
                }
                const std::string_view name = operand.substr(i, j - i);
                for (size_t p = 0; p < params_.size(); p++) {
                    if (!params_[p].empty() && name == params_[p]) {
                        taint |= uint64_t(1) << p;
                    }
                }
                i = j - 1;
            }
        }
        return taint;
    }

    void add_taint(std::string_view operand, uint64_t taint) {
        if (taint == 0) {
            return;
        }
        for (size_t i = 0; i < operand.size(); i++) {
            if (operand[i] != '%') {
                continue;
            }
            size_t j = i + 1;
            while (j < operand.size() && (std::isalnum(static_cast<unsigned char>(operand[j])) || operand[j] == '_')) {
                j++;
            }
            uint64_t &held = taint_[std::string(operand.substr(i, j - i))];
            if ((held | taint) != held) {
                held |= taint;
                changed = true;
            }
            i = j - 1;
        }
    }

    static bool is_address(std::string_view operand) {
        return !operand.empty() && operand.front() == '[';
    }

    // A global or generic access through `address`; false where no
    // parameter reaches it and it writes.
    bool memory(std::string_view address, Space space, bool writes) {
        const uint64_t taint = taint_of(address);
        if (space == Space::Shared || space == Space::Local || space == Space::Const) {
            return taint == 0;  // a parameter's pointer used in a block-local space: not followed
        }
        if (space == Space::Param) {
            return false;  // parameter space written or read by address: a call's arguments
        }
        accessed |= taint;
        if (writes) {
            written |= taint;
            return taint != 0;
        }
        return true;
    }

    bool statement(std::string_view s) {
        if (s.empty() || s.front() == '.') {
            return true;  // a directive (.reg, .shared, .pragma ...)
        }
        if (s.front() == '@') {
            const size_t space = s.find_first_of(" \t\n");
            if (space == std::string_view::npos) {
                return false;
            }
            s = trim(s.substr(space));
        }
        const size_t end = s.find_first_of(" \t\n");
        const std::string_view opcode = s.substr(0, end);
        const std::vector<std::string_view> ops =
            end == std::string_view::npos ? std::vector<std::string_view>{} : operands_of(s.substr(end));
        const std::string_view root = opcode.substr(0, opcode.find('.'));
        const Space space = space_of(opcode);
        if (root == "ld" || root == "ldu") {
            if (ops.size() != 2 || !is_address(ops[1])) {
                return false;
            }
            if (space == Space::Param) {
                add_taint(ops[0], taint_of(ops[1]));
                return true;
            }
            return memory(ops[1], space, false);
        }
        if (root == "st") {
            if (ops.size() != 2 || !is_address(ops[0]) || taint_of(ops[1]) != 0) {
                return false;  // a pointer written to memory is not followed
            }
            return memory(ops[0], space, true);
        }
        if (root == "atom" || root == "red") {
            size_t at = 0;
            while (at < ops.size() && !is_address(ops[at])) {
                at++;
            }
            if (at == ops.size()) {
                return false;
            }
            for (size_t i = at + 1; i < ops.size(); i++) {
                if (taint_of(ops[i]) != 0) {
                    return false;
                }
            }
            return memory(ops[at], space, true);
        }
        if (root == "prefetch" || root == "prefetchu" || root == "bra" || root == "ret" || root == "exit" ||
            root == "bar" || root == "barrier" || root == "membar" || root == "fence") {
            return true;
        }
        if (root == "call") {
            return false;
        }
        for (std::string_view op : ops) {
            if (is_address(op)) {
                return false;  // any other instruction that addresses memory
            }
        }
        if (ops.empty()) {
            return true;
        }
        uint64_t taint = 0;
        for (size_t i = 1; i < ops.size(); i++) {
            taint |= taint_of(ops[i]);
        }
        add_taint(ops[0], taint);
        return true;
    }

    std::vector<std::string> params_;
    std::unordered_map<std::string, uint64_t> taint_;
};

}  // namespace

PtxKernelAccess analyze_ptx_entry(std::string_view module, std::string_view entry) {
    PtxKernelAccess result;
    const std::string text = without_comments(module);
    const size_t open = find_entry(text, entry);
    if (open == std::string::npos) {
        return result;
    }
    const size_t close = text.find(')', open);
    if (close == std::string::npos) {
        return result;
    }
    // Parameters: ".param .u64 name", ".param .align 8 .b8 name[16]", ...
    std::vector<std::string> params;
    for (std::string_view decl : operands_of(std::string_view(text).substr(open + 1, close - open - 1))) {
        if (decl.empty()) {
            continue;
        }
        std::vector<std::string_view> words;
        for (size_t i = 0; i < decl.size();) {
            while (i < decl.size() && std::isspace(static_cast<unsigned char>(decl[i]))) {
                i++;
            }
            const size_t start = i;
            while (i < decl.size() && !std::isspace(static_cast<unsigned char>(decl[i]))) {
                i++;
            }
            if (i > start) {
                words.push_back(decl.substr(start, i - start));
            }
        }
        if (words.size() < 3 || words.front() != ".param") {
            return result;
        }
        std::string_view name = words.back();
        const bool aggregate = name.find('[') != std::string_view::npos;
        name = name.substr(0, name.find('['));
        uint8_t bytes = 0;
        bool integer_64 = false;
        for (size_t w = 1; w + 1 < words.size(); w++) {
            const std::string_view type = words[w];
            if (type.size() > 2 && type[0] == '.' && std::string_view("usbf").find(type[1]) != std::string_view::npos &&
                scalar_bytes(type) != 0) {
                bytes = scalar_bytes(type);
                integer_64 = bytes == 8 && type[1] != 'f';
            }
        }
        result.param_bytes.push_back(aggregate ? 0 : bytes);
        // Only a 64-bit integer or an aggregate can hold an address; smaller
        // scalars and floating-point values are followed no further.
        params.emplace_back(aggregate || integer_64 ? name : std::string_view());
    }
    if (params.size() > kMaxParams) {
        return result;
    }
    // The body: from the first '{' after the parameters to the next entry
    // or function, or the module's end. Taking the text after the body too
    // can only add accesses, never hide one.
    const size_t body_open = text.find('{', close);
    if (body_open == std::string::npos) {
        return result;
    }
    size_t body_close = std::min(text.find(".entry", body_open), text.find(".func", body_open));
    if (body_close == std::string::npos) {
        body_close = text.size();
    }
    std::vector<std::string_view> statements;
    const std::string_view body = std::string_view(text).substr(body_open + 1, body_close - body_open - 1);
    for (size_t start = 0; start < body.size();) {
        size_t end = body.find(';', start);
        if (end == std::string_view::npos) {
            end = body.size();
        }
        std::string_view s = trim(body.substr(start, end - start));
        start = end + 1;
        // Block braces and labels ("$L__BB0_2:") before the instruction.
        for (bool stripped = true; stripped;) {
            stripped = false;
            if (!s.empty() && (s.front() == '{' || s.front() == '}') && (s.size() == 1 || s[1] != '%')) {
                s = trim(s.substr(1));
                stripped = true;
            }
            const size_t colon = s.find(':');
            if (colon != std::string_view::npos && colon > 0) {
                bool label = true;
                for (size_t i = 0; i < colon; i++) {
                    label = label && is_name_char(s[i]) && s[i] != '.';
                }
                if (label) {
                    s = trim(s.substr(colon + 1));
                    stripped = true;
                }
            }
        }
        if (!s.empty()) {
            statements.push_back(s);
        }
    }
    Analysis analysis(params);
    for (int pass = 0;; pass++) {
        if (pass == kMaxPasses) {
            return result;
        }
        analysis.changed = false;
        if (!analysis.pass(statements)) {
            return result;
        }
        if (!analysis.changed) {
            break;
        }
    }
    result.known = true;
    result.accessed = analysis.accessed;
    result.written = analysis.written;
    return result;
}

}  // namespace harena::detail
