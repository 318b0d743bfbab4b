#include "random_stages.h"

#include <sstream>

namespace harena_test {
namespace detail {

using namespace Halide;

namespace {

const char *kind_name(StageKind k) {
    switch (k) {
    case StageKind::Stencil:
        return "stencil";
    case StageKind::Pointwise:
        return "pointwise";
    case StageKind::Reduction:
        return "reduction";
    case StageKind::Scan:
        return "scan";
    case StageKind::Histogram:
        return "histogram";
    case StageKind::Downsample:
        return "downsample";
    case StageKind::Upsample:
        return "upsample";
    case StageKind::Tuple:
        break;
    }
    return "tuple";
}

// A stage's value as uint32 (a Tuple's stage reads as the sum of its two).
Expr value_of(const Func &f, const Expr &x, const Expr &y, bool tuple) {
    if (tuple) {
        return f(x, y)[0] + f(x, y)[1];
    }
    return f(x, y);
}

// Defines stage `i` of `stages` from the stages before it (stage 0 reads the
// clamped input).
void define_stage(std::vector<Func> &stages, const std::vector<StageSpec> &spec, size_t i, const Var &x, const Var &y) {
    Func &f = stages[i];
    const StageSpec &s = spec[i];
    const Func &in = stages[i - 1];
    const bool in_tuple = spec[i - 1].kind == StageKind::Tuple;
    auto read = [&](const Expr &px, const Expr &py) { return value_of(in, px, py, in_tuple); };
    Expr extra = Internal::make_const(UInt(32), 0);
    if (s.second >= 0) {
        extra = value_of(stages[s.second], x, y, spec[s.second].kind == StageKind::Tuple) >> 1;
    }
    switch (s.kind) {
    case StageKind::Stencil:
        f(x, y) = read(x - s.reach, y) + read(x, y - 1) * 2 + read(x + s.reach, y + 1) + extra;
        break;
    case StageKind::Pointwise:
        f(x, y) = select(read(x, y) > 5000, read(x, y) * Expr(s.mul), read(x, y) + Expr(s.mul)) + extra;
        break;
    case StageKind::Reduction: {
        RDom r(-s.reach, 2 * s.reach + 1, -1, 3);
        f(x, y) = extra;
        f(x, y) += read(x + r.x, y + r.y) * cast<uint32_t>(r.x + 4);
        break;
    }
    case StageKind::Scan: {
        // A running sum along a window of 8 columns, in order.
        RDom r(0, 8);
        f(x, y) = read(x, y) + extra;
        f(x, y) += f(x, y) >> cast<uint32_t>(r.x + 1);
        break;
    }
    case StageKind::Histogram: {
        // Counts of a window of 16 values' low bits, read back at (x, y).
        Func hist("hist_" + std::to_string(i));
        Var b("b");
        RDom r(0, 16);
        hist(b, x, y) = Internal::make_const(UInt(32), 0);
        hist(clamp(cast<int>(read(x + r.x, y) & 7), 0, 7), x, y) += Internal::make_const(UInt(32), 1);
        f(x, y) = hist(clamp(cast<int>(read(x, y) & 7), 0, 7), x, y) + extra;
        break;
    }
    case StageKind::Downsample:
        f(x, y) = (read(2 * x, y) + read(2 * x + 1, y)) / 2 + extra;
        break;
    case StageKind::Upsample:
        f(x, y) = read(x / 2, y) + read((x + 1) / 2, y) + extra;
        break;
    case StageKind::Tuple:
        f(x, y) = Tuple(read(x, y) * 3 + extra, read(x + 1, y) ^ 0x5555u);
        break;
    }
}

}  // namespace

DrawnPipeline draw_pipeline(Draw &draw, RandomCase &c) {
    c.width = 96 + 16 * draw.below(12);
    c.height = 64 + 8 * draw.below(16);
    const int n = 3 + draw.below(5);
    std::vector<StageSpec> spec(static_cast<size_t>(n) + 1);
    spec[0].kind = StageKind::Pointwise;  // the clamped input, as a stage
    std::ostringstream stages;
    for (int i = 1; i <= n; i++) {
        StageSpec &s = spec[i];
        s.kind = static_cast<StageKind>(draw.below(8));
        if (i == n && (s.kind == StageKind::Tuple || s.kind == StageKind::Downsample)) {
            s.kind = StageKind::Stencil;  // the output: one value, the input's size
        }
        s.reach = 1 + draw.below(3);
        s.mul = 2 + static_cast<uint32_t>(draw.below(7));
        s.second = (i >= 3 && draw.chance(30)) ? 1 + draw.below(i - 2) : -1;
        stages << "  s" << i << " = " << kind_name(s.kind) << " of s" << i - 1
               << (s.second >= 0 ? " and s" + std::to_string(s.second) : "") << "\n";
    }
    const bool second_output = n >= 4 && draw.chance(25);
    const int second_from = second_output ? 2 + draw.below(n - 3) : -1;
    if (second_output) {
        stages << "  a second output from s" << second_from << "\n";
    }
    c.stages_text = stages.str();

    // Each build gets a scene of its own, which its directives capture.
    auto scene = std::make_shared<std::shared_ptr<Scene>>();
    c.define = [spec, n, second_from, scene](BuiltPipeline &p) {
        auto s = std::make_shared<Scene>();
        *scene = s;
        s->spec = spec;
        for (int i = 0; i <= n; i++) {
            s->stages.emplace_back("s" + std::to_string(i));
        }
        s->stages[0](s->x, s->y) = cast<uint32_t>(BoundaryConditions::repeat_edge(p.input)(s->x, s->y));
        for (int i = 1; i <= n; i++) {
            define_stage(s->stages, s->spec, static_cast<size_t>(i), s->x, s->y);
        }
        p.outputs.push_back(s->stages[n]);
        if (second_from >= 0) {
            Func second("second_output");
            second(s->x, s->y) =
                value_of(s->stages[second_from], s->x, s->y, spec[second_from].kind == StageKind::Tuple) + 1;
            p.outputs.push_back(second);
        }
        s->outputs = p.outputs;
    };
    return DrawnPipeline{spec, n, second_from, scene};
}

void add_directive(RandomCase &c, const SceneHandle &scene, std::string text, std::function<void(Scene &)> apply) {
    c.directives.push_back({std::move(text), [scene, apply](BuiltPipeline &) { apply(**scene); }});
}

std::vector<int> consumers_of(const std::vector<StageSpec> &spec, int i, int n) {
    std::vector<int> consumers{i + 1};
    for (int k = i + 1; k <= n; k++) {
        if (spec[k].second == i) {
            consumers.push_back(k);
        }
    }
    return consumers;
}

}  // namespace detail
}  // namespace harena_test
