#include "random_pipeline.h"

#include <algorithm>
#include <memory>
#include <random>
#include <sstream>

namespace harena_test {

using namespace Halide;

namespace {

// The loops every stage is defined over.
struct Vars {
    Var x{"x"}, y{"y"};
};

class Draw {
public:
    explicit Draw(uint64_t seed)
        : random_(seed) {
    }
    int below(int n) {
        return static_cast<int>(random_() % static_cast<uint64_t>(n));
    }
    bool chance(int percent) {
        return below(100) < percent;
    }
    template<typename T>
    const T &pick(const std::vector<T> &options) {
        return options[below(static_cast<int>(options.size()))];
    }

private:
    std::mt19937_64 random_;
};

enum class StageKind {
    Stencil,
    Pointwise,
    Reduction,
    Scan,
    Histogram,
    Downsample,
    Upsample,
    Tuple,
};

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

struct StageSpec {
    StageKind kind;
    int second = -1;   // a second earlier stage it reads, or -1
    int reach = 1;     // a stencil's or reduction's radius
    uint32_t mul = 3;  // a pointwise stage's factor
};

// A stage's value as uint32 (a Tuple's stage reads as the sum of its two).
Expr value_of(const Func &f, const Expr &x, const Expr &y, bool tuple) {
    if (tuple) {
        return f(x, y)[0] + f(x, y)[1];
    }
    return f(x, y);
}

// Defines stage `i` of `stages` from the stages before it (stage 0 reads the
// clamped input).
void define_stage(std::vector<Func> &stages, const std::vector<StageSpec> &spec, size_t i, const Vars &v) {
    Func &f = stages[i];
    const Var &x = v.x, &y = v.y;
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

// A shared handle on what a case's directives act on: the pipeline being
// built, its stages and the loop variables its directives name.
struct Scene {
    Vars v;
    std::vector<Func> stages;
    std::vector<StageSpec> spec;
    Var xo{"xo"}, yo{"yo"}, xi{"xi"}, yi{"yi"}, tile{"tile"};
};

}  // namespace

BuiltPipeline RandomCase::build(const std::set<size_t> &left_out) const {
    BuiltPipeline p;
    define(p);
    for (size_t i = 0; i < directives.size(); i++) {
        if (!left_out.count(i)) {
            directives[i].apply(p);
        }
    }
    return p;
}

std::string RandomCase::describe(const std::set<size_t> &left_out) const {
    std::ostringstream o;
    o << "seed " << seed << ", " << width << "x" << height << "\n"
      << stages_text;
    if (!autoscheduler.empty()) {
        o << "  scheduled by " << autoscheduler << "\n";
    }
    for (size_t i = 0; i < directives.size(); i++) {
        if (!left_out.count(i)) {
            o << "  [" << i << "] " << directives[i].text << "\n";
        }
    }
    return o.str();
}

RandomCase random_case(uint64_t seed, const std::vector<std::string> &autoschedulers) {
    Draw draw(seed);
    RandomCase c;
    c.seed = seed;
    const bool autoscheduled = !autoschedulers.empty() && draw.below(5) == 0;
    const int which = autoscheduled ? draw.below(static_cast<int>(autoschedulers.size())) : 0;
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
        s->stages[0](s->v.x, s->v.y) = cast<uint32_t>(BoundaryConditions::repeat_edge(p.input)(s->v.x, s->v.y));
        for (int i = 1; i <= n; i++) {
            define_stage(s->stages, s->spec, static_cast<size_t>(i), s->v);
        }
        p.outputs.push_back(s->stages[n]);
        if (second_from >= 0) {
            Func second("second_output");
            second(s->v.x, s->v.y) =
                value_of(s->stages[second_from], s->v.x, s->v.y, spec[second_from].kind == StageKind::Tuple) + 1;
            p.outputs.push_back(second);
        }
    };
    if (autoscheduled) {
        c.autoscheduler = autoschedulers[which];
        return c;
    }
    auto directive = [&](std::string text, std::function<void(Scene &)> apply) {
        c.directives.push_back({std::move(text), [scene, apply](BuiltPipeline &) { apply(**scene); }});
    };

    // The output: parallel strips, parallel tiles, or serial rows.
    const int strip = draw.pick(std::vector<int>{4, 8, 16, 32});
    const int layout = draw.below(10);
    const bool output_in_strips = layout < 6;
    const bool output_in_tiles = layout >= 6 && layout < 9;
    if (output_in_strips) {
        directive("output.split(y, yo, yi, " + std::to_string(strip) + ").parallel(yo)", [strip](Scene &s) {
            s.stages.back().split(s.v.y, s.yo, s.yi, strip).parallel(s.yo);
        });
    } else if (output_in_tiles) {
        directive("output.tile(x, y, xo, yo, xi, yi, 32, " + std::to_string(strip) + ").fuse(xo, yo, tile).parallel(tile)",
                  [strip](Scene &s) {
                      s.stages.back().tile(s.v.x, s.v.y, s.xo, s.yo, s.xi, s.yi, 32, strip).fuse(s.xo, s.yo, s.tile).parallel(s.tile);
                  });
    }
    if (draw.chance(50)) {
        const int lanes = draw.pick(std::vector<int>{4, 8});
        directive("output.vectorize(" + std::string(output_in_tiles ? "xi" : "x") + ", " + std::to_string(lanes) + ")",
                  [lanes, output_in_tiles](Scene &s) {
                      s.stages.back().vectorize(output_in_tiles ? s.xi : s.v.x, lanes);
                  });
    }
    if (draw.chance(10)) {
        directive("output.specialize(input.width() >= 160)", [](Scene &s) {
            // A condition on the output's own extent, which every call sets.
            s.stages.back().specialize(s.stages.back().output_buffer().dim(0).extent() >= 160);
        });
    }
    // Every other stage: inline, at the root, inside the output's strip or
    // tile (a sliding window over its rows where stored at the strip), or
    // inside its consumer's rows. Choices are drawn for every stage first:
    // where a stage goes depends on where its consumer went.
    enum class Where { Inline,
                       Root,
                       InStrip,
                       SlidingInStrip,
                       AtConsumer };
    struct Choice {
        Where where;
        bool parallel_rows, vectorize, unroll, async, store_root, align;
    };
    std::vector<Choice> choices(static_cast<size_t>(n) + 1);
    const bool strips_or_tiles = output_in_strips || output_in_tiles;
    // Where each later stage runs: inside the output's strip or tile, and
    // within the output's own rows there (the output, or inlined into it).
    std::vector<bool> in_strip(static_cast<size_t>(n) + 1, false), in_output_rows(static_cast<size_t>(n) + 1, false);
    in_strip[n] = strips_or_tiles;
    in_output_rows[n] = true;
    for (int i = n - 1; i >= 1; i--) {
        Choice &ch = choices[i];
        const int where = draw.below(10);
        std::vector<int> consumers{i + 1};
        for (int k = i + 1; k <= n; k++) {
            if (spec[k].second == i) {
                consumers.push_back(k);
            }
        }
        const bool read_by_second_output = second_from == i;
        const auto all = [&](const std::vector<bool> &where_k) {
            return !read_by_second_output &&
                   std::all_of(consumers.begin(), consumers.end(), [&](int k) { return where_k[k]; });
        };
        const bool consumers_in_strip = all(in_strip), consumers_in_output_rows = all(in_output_rows);
        const bool one_consumer = consumers.size() == 1 && !read_by_second_output;
        const bool consumer_has_loops = i + 1 == n || choices[i + 1].where != Where::Inline;
        const bool has_updates = spec[i].kind == StageKind::Reduction || spec[i].kind == StageKind::Scan ||
                                 spec[i].kind == StageKind::Histogram;
        if (where >= 3 && where < 6 && consumers_in_strip) {
            ch.where = Where::InStrip;
        } else if (where >= 6 && where < 8 && consumers_in_strip && consumers_in_output_rows) {
            ch.where = Where::SlidingInStrip;
        } else if (where == 8 && one_consumer && consumer_has_loops) {
            ch.where = Where::AtConsumer;
        } else if (where == 9 && !has_updates) {
            ch.where = Where::Inline;
        } else {
            ch.where = Where::Root;
        }
        in_strip[i] = ch.where == Where::InStrip || ch.where == Where::SlidingInStrip ||
                      (ch.where == Where::AtConsumer && in_strip[i + 1]) ||
                      (ch.where == Where::Inline && consumers_in_strip);
        in_output_rows[i] = ch.where == Where::Inline && consumers_in_output_rows;
        ch.parallel_rows = draw.chance(35);
        ch.vectorize = draw.chance(50);
        ch.unroll = draw.chance(15);
        ch.async = draw.chance(20);
        ch.store_root = draw.chance(25);
        ch.align = draw.chance(20);
    }
    const std::string outer = output_in_tiles ? "tile" : "yo";
    for (int i = 1; i < n; i++) {
        const std::string name = "s" + std::to_string(i);
        const Choice &ch = choices[i];
        switch (ch.where) {
        case Where::Inline:
            continue;
        case Where::Root:
            directive(name + ".compute_root()", [i](Scene &s) { s.stages[i].compute_root(); });
            break;
        case Where::InStrip:
            directive(name + ".compute_at(output, " + outer + ")", [i, output_in_tiles](Scene &s) {
                s.stages[i].compute_at(s.stages.back(), output_in_tiles ? s.tile : s.yo);
            });
            break;
        case Where::SlidingInStrip:
            directive(name + ".store_at(output, " + outer + ").compute_at(output, yi)", [i, output_in_tiles](Scene &s) {
                s.stages[i].store_at(s.stages.back(), output_in_tiles ? s.tile : s.yo).compute_at(s.stages.back(), s.yi);
            });
            break;
        case Where::AtConsumer:
            directive(name + ".compute_at(s" + std::to_string(i + 1) + ", y)",
                      [i](Scene &s) { s.stages[i].compute_at(s.stages[i + 1], s.v.y); });
            if (ch.store_root && choices[i + 1].where == Where::Root && !choices[i + 1].parallel_rows) {
                directive(name + ".store_root()", [i](Scene &s) { s.stages[i].store_root(); });
            }
            break;
        }
        // Rows in parallel, where the stage has its own rows to split.
        if (ch.parallel_rows && ch.where != Where::SlidingInStrip) {
            directive(name + ".parallel(y)", [i](Scene &s) { s.stages[i].parallel(s.v.y); });
        }
        if (ch.vectorize) {
            directive(name + ".vectorize(x, 8)", [i](Scene &s) { s.stages[i].vectorize(s.v.x, 8); });
        } else if (ch.unroll) {
            directive(name + ".unroll(x, 2)", [i](Scene &s) { s.stages[i].unroll(s.v.x, 2); });
        }
        if (ch.async) {
            directive(name + ".async()", [i](Scene &s) { s.stages[i].async(); });
        }
        if (ch.align) {
            directive(name + ".align_storage(x, 16)", [i](Scene &s) { s.stages[i].align_storage(s.v.x, 16); });
        }
    }
    return c;
}

}  // namespace harena_test
