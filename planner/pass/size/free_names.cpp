#include "size/free_names.h"

#include <set>

namespace harena {

using namespace Halide;
using namespace Halide::Internal;

std::vector<std::string> free_names(const Expr &e) {
    // A graph visitor: a node shared by several parts of `e` is read once.
    class Names : public IRGraphVisitor {
    public:
        std::vector<std::string> names;
        std::set<std::string> seen;
        std::set<std::string> local;  // bound by a Let inside the expression
        using IRGraphVisitor::visit;
        void visit(const Let *op) override {
            local.insert(op->name);
            IRGraphVisitor::visit(op);
        }
        void visit(const Variable *op) override {
            if (seen.insert(op->name).second) {
                names.push_back(op->name);
            }
        }
    } names;
    e.accept(&names);
    std::vector<std::string> out;
    for (const std::string &n : names.names) {
        if (!names.local.count(n)) {
            out.push_back(n);
        }
    }
    return out;
}

}  // namespace harena
