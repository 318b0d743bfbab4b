#include "graph/ptx_text.h"

#include <algorithm>
#include <cctype>

namespace harena::detail::ptx {

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

namespace {

// `text` cut at every `delimiter` (dropped), the last piece up to the end.
std::vector<std::string_view> pieces(std::string_view text, char delimiter) {
    std::vector<std::string_view> out;
    for (size_t start = 0; start < text.size();) {
        size_t end = text.find(delimiter, start);
        if (end == std::string_view::npos) {
            end = text.size();
        }
        out.push_back(text.substr(start, end - start));
        start = end + 1;
    }
    return out;
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

std::unordered_map<std::string, NamedMemory> named_memory(std::string_view text) {
    std::unordered_map<std::string, NamedMemory> symbols;
    for (std::string_view line : pieces(text, '\n')) {
        line = trim(line);
        if (line.empty() || line.front() != '.' || line.find(".entry") != std::string_view::npos ||
            line.find(".func") != std::string_view::npos || line.find(".param") != std::string_view::npos) {
            continue;
        }
        NamedMemory memory;
        if (line.find(".shared") != std::string_view::npos || line.find(".local") != std::string_view::npos) {
            memory = NamedMemory::Block;
        } else if (line.find(".global") != std::string_view::npos || line.find(".const") != std::string_view::npos) {
            memory = NamedMemory::Module;
        } else {
            continue;
        }
        // ".shared .align 16 .b8 name[64];", ".global .b8 name[4] = {...};"
        line = trim(line.substr(0, std::min(line.find('='), line.find(';'))));
        const size_t space = line.find_last_of(" \t");
        std::string_view name = space == std::string_view::npos ? line : line.substr(space + 1);
        name = name.substr(0, name.find('['));
        if (!name.empty() && name.front() != '.') {
            symbols[std::string(name)] = memory;
        }
    }
    return symbols;
}

// `body` without its directive lines (".reg", ".loc", ".pragma", ...): a
// directive need not end with ';', so it ends at its line.

std::string without_directives(std::string_view body) {
    std::string out;
    out.reserve(body.size());
    for (std::string_view line : pieces(body, '\n')) {
        if (trim(line).empty() || trim(line).front() != '.') {
            out.append(line);
        }
        out.push_back('\n');
    }
    return out;
}

}  // namespace

bool read_entry(std::string_view module, std::string_view entry, Entry *out) {
    const std::string text = without_comments(module);
    const size_t open = find_entry(text, entry);
    if (open == std::string::npos) {
        return false;
    }
    const size_t close = text.find(')', open);
    if (close == std::string::npos) {
        return false;
    }
    // Parameters: ".param .u64 name", ".param .align 8 .b8 name[16]", ...
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
            return false;
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
        // Only a 64-bit integer or an aggregate can hold an address; smaller
        // scalars and floating-point values are followed no further.
        out->params.push_back(Param{std::string(name), static_cast<uint8_t>(aggregate ? 0 : bytes), aggregate || integer_64});
    }
    // The body: from the first '{' after the parameters to the next entry
    // or function, or the module's end. Taking the text after the body too
    // can only add accesses, never hide one.
    const size_t body_open = text.find('{', close);
    if (body_open == std::string::npos) {
        return false;
    }
    size_t body_close = std::min(text.find(".entry", body_open), text.find(".func", body_open));
    if (body_close == std::string::npos) {
        body_close = text.size();
    }
    out->body = without_directives(std::string_view(text).substr(body_open + 1, body_close - body_open - 1));
    const std::string_view body = out->body;
    for (std::string_view s : pieces(body, ';')) {
        s = trim(s);
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
            out->statements.push_back(s);
        }
    }
    out->named_memory = named_memory(text);
    return true;
}

}  // namespace harena::detail::ptx
