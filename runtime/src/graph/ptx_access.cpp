#include "graph/ptx_access.h"

#include <string>
#include <unordered_map>

#include "graph/ptx_text.h"

namespace harena::detail {

namespace {

using ptx::is_name_char;
using ptx::operands_of;
using ptx::Space;
using ptx::space_of;
using ptx::trim;

// A register's taint: bit i for parameter i, and two bits for the named
// memory an address may start from: the block's own (.shared, .local) and
// the module's (.global, .const), which another kernel of the module could
// write.
constexpr size_t kMaxParams = 62;
constexpr uint64_t kParamBits = (uint64_t(1) << kMaxParams) - 1;
constexpr uint64_t kBlockSymbol = uint64_t(1) << 62;
constexpr uint64_t kModuleSymbol = uint64_t(1) << 63;
// Passes over the body until the registers' taint stops growing: loops
// carry a value back at most once per register chain.
constexpr int kMaxPasses = 64;

class Analysis {
public:
    explicit Analysis(const ptx::Entry &entry) {
        for (size_t p = 0; p < entry.params.size(); p++) {
            if (entry.params[p].may_hold_address) {
                names_[entry.params[p].name] |= uint64_t(1) << p;
            }
        }
        for (const auto &[name, memory] : entry.named_memory) {
            names_[name] |= memory == ptx::NamedMemory::Block ? kBlockSymbol : kModuleSymbol;
        }
    }

    // One pass over the statements; false once the kernel is unknown. The
    // passes before the last only carry taint (a register may be used
    // before the text defines it, in a loop); the last, once nothing
    // changes, checks every access and records them.
    bool pass(const std::vector<std::string_view> &statements, bool last) {
        last_ = last;
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
                const auto named = names_.find(std::string(operand.substr(i, j - i)));
                if (named != names_.end()) {
                    taint |= named->second;
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

    // An access through `address` in `space`, checked on the last pass:
    // false where it is not followed. A global or generic address must start
    // from a parameter or a named memory; a write to module-wide memory, or a
    // parameter's pointer used in another space, is not followed.
    bool memory(std::string_view address, Space space, bool writes) {
        if (!last_) {
            return true;
        }
        const uint64_t taint = taint_of(address);
        const uint64_t params = taint & kParamBits;
        if (space == Space::Shared || space == Space::Local || space == Space::Const) {
            return params == 0;
        }
        if (space == Space::Param) {
            return false;  // parameter space by address: a call's arguments
        }
        accessed |= params;
        if (!writes) {
            return taint != 0;
        }
        written |= params;
        return (taint & kModuleSymbol) == 0 && (params != 0 || (taint & kBlockSymbol) != 0);
    }

    // A value written to memory: on the last pass, false where it carries an
    // address (a pointer in memory is not followed).
    bool stored_value(std::string_view value) const {
        return !last_ || taint_of(value) == 0;
    }

    bool statement(std::string_view s) {
        if (s.find('\n') != std::string_view::npos) {
            return false;  // two lines in one statement: something not split as PTX is expected to be
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
            if (ops.size() != 2 || !is_address(ops[0]) || !stored_value(ops[1])) {
                return false;
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
                if (!stored_value(ops[i])) {
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

    // Each parameter that may hold an address and each named memory: its taint.
    std::unordered_map<std::string, uint64_t> names_;
    std::unordered_map<std::string, uint64_t> taint_;
    bool last_ = false;
};

}  // namespace

PtxKernelAccess analyze_ptx_entry(std::string_view module, std::string_view entry) {
    PtxKernelAccess result;
    ptx::Entry text;
    if (!ptx::read_entry(module, entry, &text) || text.params.size() > kMaxParams) {
        return result;
    }
    const std::vector<std::string_view> &statements = text.statements;
    Analysis analysis(text);
    for (int pass = 0;; pass++) {
        if (pass == kMaxPasses) {
            return result;
        }
        analysis.changed = false;
        if (!analysis.pass(statements, false)) {
            return result;
        }
        if (!analysis.changed) {
            break;
        }
    }
    if (!analysis.pass(statements, true)) {
        return result;
    }
    for (const ptx::Param &p : text.params) {
        result.param_bytes.push_back(p.bytes);
    }
    result.known = true;
    result.accessed = analysis.accessed;
    result.written = analysis.written;
    return result;
}

}  // namespace harena::detail
