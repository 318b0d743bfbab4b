#include "random_pipeline.h"

#include "random_stages.h"

#include <algorithm>
#include <sstream>

namespace harena_test {

using namespace Halide;

using namespace detail;

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
    o << "seed " << seed << ", " << width << "x" << height << (gpu ? ", GPU schedule" : "") << "\n"
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
    const DrawnPipeline pipeline = draw_pipeline(draw, c);
    const std::vector<StageSpec> &spec = pipeline.spec;
    const int n = pipeline.n, second_from = pipeline.second_from;
    const SceneHandle &scene = pipeline.scene;
    if (autoscheduled) {
        c.autoscheduler = autoschedulers[which];
        return c;
    }
    auto directive = [&](std::string text, std::function<void(Scene &)> apply) {
        add_directive(c, scene, std::move(text), std::move(apply));
    };

    // The output: parallel strips, parallel tiles, or serial rows.
    const int strip = draw.pick(std::vector<int>{4, 8, 16, 32});
    const int layout = draw.below(10);
    const bool output_in_strips = layout < 6;
    const bool output_in_tiles = layout >= 6 && layout < 9;
    if (output_in_strips) {
        directive("output.split(y, yo, yi, " + std::to_string(strip) + ").parallel(yo)", [strip](Scene &s) {
            s.stages.back().split(s.y, s.yo, s.yi, strip).parallel(s.yo);
        });
    } else if (output_in_tiles) {
        directive("output.tile(x, y, xo, yo, xi, yi, 32, " + std::to_string(strip) + ").fuse(xo, yo, tile).parallel(tile)",
                  [strip](Scene &s) {
                      s.stages.back().tile(s.x, s.y, s.xo, s.yo, s.xi, s.yi, 32, strip).fuse(s.xo, s.yo, s.tile).parallel(s.tile);
                  });
    }
    if (draw.chance(50)) {
        const int lanes = draw.pick(std::vector<int>{4, 8});
        directive("output.vectorize(" + std::string(output_in_tiles ? "xi" : "x") + ", " + std::to_string(lanes) + ")",
                  [lanes, output_in_tiles](Scene &s) {
                      s.stages.back().vectorize(output_in_tiles ? s.xi : s.x, lanes);
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
        const std::vector<int> consumers = consumers_of(spec, i, n);
        const bool read_by_second_output = second_from == i;
        const auto all = [&](const std::vector<bool> &where_k) {
            return !read_by_second_output &&
                   std::all_of(consumers.begin(), consumers.end(), [&](int k) { return where_k[k]; });
        };
        const bool consumers_in_strip = all(in_strip), consumers_in_output_rows = all(in_output_rows);
        const bool one_consumer = consumers.size() == 1 && !read_by_second_output;
        const bool consumer_has_loops = i + 1 == n || choices[i + 1].where != Where::Inline;
        if (where >= 3 && where < 6 && consumers_in_strip) {
            ch.where = Where::InStrip;
        } else if (where >= 6 && where < 8 && consumers_in_strip && consumers_in_output_rows) {
            ch.where = Where::SlidingInStrip;
        } else if (where == 8 && one_consumer && consumer_has_loops) {
            ch.where = Where::AtConsumer;
        } else if (where == 9 && !has_updates(spec[i].kind)) {
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
                      [i](Scene &s) { s.stages[i].compute_at(s.stages[i + 1], s.y); });
            if (ch.store_root && choices[i + 1].where == Where::Root && !choices[i + 1].parallel_rows) {
                directive(name + ".store_root()", [i](Scene &s) { s.stages[i].store_root(); });
            }
            break;
        }
        // Rows in parallel, where the stage has its own rows to split.
        if (ch.parallel_rows && ch.where != Where::SlidingInStrip) {
            directive(name + ".parallel(y)", [i](Scene &s) { s.stages[i].parallel(s.y); });
        }
        if (ch.vectorize) {
            directive(name + ".vectorize(x, 8)", [i](Scene &s) { s.stages[i].vectorize(s.x, 8); });
        } else if (ch.unroll) {
            directive(name + ".unroll(x, 2)", [i](Scene &s) { s.stages[i].unroll(s.x, 2); });
        }
        if (ch.async) {
            directive(name + ".async()", [i](Scene &s) { s.stages[i].async(); });
        }
        if (ch.align) {
            directive(name + ".align_storage(x, 16)", [i](Scene &s) { s.stages[i].align_storage(s.x, 16); });
        }
    }
    return c;
}

}  // namespace harena_test
