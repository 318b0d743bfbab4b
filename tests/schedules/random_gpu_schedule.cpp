// The GPU schedules of random_gpu_case: the pipelines random_case draws,
// scheduled as Halide's GPU apps schedule theirs.
#include "random_stages.h"

#include <algorithm>

namespace harena_test {

using namespace Halide;
using namespace detail;

namespace {

struct Tile {
    int width, height;
};

std::string tile_text(const Tile &t) {
    return std::to_string(t.width) + ", " + std::to_string(t.height);
}

// A stage's definitions, scheduled alike, and their names: the pure one,
// then the update of a reduction or a scan (a histogram's update is its
// inner Func's, which Halide computes where the stage reads it).
int updates_of(StageKind k) {
    return k == StageKind::Reduction || k == StageKind::Scan ? 1 : 0;
}
Stage definition(Func f, int d) {
    return d == 0 ? Stage(f) : f.update(d - 1);
}
std::string definition_text(const std::string &name, int d) {
    return d == 0 ? name : name + ".update(" + std::to_string(d - 1) + ")";
}

// The extent of stage `i` that stage `k` reads over an extent `e` of its
// own, from the definitions in random_stages.cpp (a bound, not exact): what
// a stage computed inside a GPU block needs of its threads and its shared
// memory.
Tile read_extent(const std::vector<StageSpec> &spec, int k, int i, Tile e) {
    if (i != k - 1) {
        return e;  // the second stage a stage reads, at (x, y)
    }
    const int r = spec[k].reach;
    switch (spec[k].kind) {
    case StageKind::Stencil:
    case StageKind::Reduction:
        return {e.width + 2 * r, e.height + 2};
    case StageKind::Histogram:
        return {e.width + 15, e.height};
    case StageKind::Downsample:
        return {2 * e.width, e.height};
    case StageKind::Upsample:
        return {e.width / 2 + 2, e.height};
    case StageKind::Tuple:
        return {e.width + 1, e.height};
    case StageKind::Pointwise:
    case StageKind::Scan:
        break;
    }
    return e;
}

// A block of at most this many threads launches on every CUDA device, and
// one of at most 48 KiB of static shared memory (more needs an opt-in that
// Halide does not make); 40 KiB leaves room for what the bounds miss.
constexpr int kMaxThreads = 1024;
constexpr int kMaxSharedBytes = 40 * 1024;

}  // namespace

RandomCase random_gpu_case(uint64_t seed) {
    Draw draw(seed);
    RandomCase c;
    c.seed = seed;
    c.gpu = true;
    const DrawnPipeline pipeline = draw_pipeline(draw, c);
    const std::vector<StageSpec> &spec = pipeline.spec;
    const int n = pipeline.n, second_from = pipeline.second_from;
    auto directive = [&](std::string text, std::function<void(Scene &)> apply) {
        add_directive(c, pipeline.scene, std::move(text), std::move(apply));
    };
    const std::vector<Tile> tiles{{16, 16}, {32, 8}, {8, 8}};

    // The output: GPU tiles, or GPU tiles inside parallel CPU strips (a
    // strip's rows a multiple of every tile's height), every definition of
    // it alike, so that a stage computed at one of its loops finds that loop
    // in whichever definition reads it.
    const Tile out_tile = draw.pick(tiles);
    const bool strips = draw.chance(40);
    const int strip = draw.pick(std::vector<int>{16, 32, 64});
    // An update of an output rounds its tiles up by default, past the
    // output's edge, which Halide refuses; guarded tiles stay inside it.
    for (int d = 0; d <= updates_of(spec[n].kind); d++) {
        const std::string name = definition_text("output", d);
        const TailStrategy tail = d == 0 ? TailStrategy::Auto : TailStrategy::GuardWithIf;
        const std::string tail_text = d == 0 ? "" : ", TailStrategy::GuardWithIf";
        if (strips) {
            directive(name + ".split(y, yo, yi, " + std::to_string(strip) + tail_text +
                          ").parallel(yo).gpu_tile(x, yi, bx, by, tx, ty, " + tile_text(out_tile) + tail_text + ")",
                      [d, strip, out_tile, tail](Scene &s) {
                          definition(s.stages.back(), d)
                              .split(s.y, s.yo, s.yi, strip, tail)
                              .parallel(s.yo)
                              .gpu_tile(s.x, s.yi, s.bx, s.by, s.tx, s.ty, out_tile.width, out_tile.height, tail);
                      });
        } else {
            directive(name + ".gpu_tile(x, y, bx, by, tx, ty, " + tile_text(out_tile) + tail_text + ")",
                      [d, out_tile, tail](Scene &s) {
                          definition(s.stages.back(), d)
                              .gpu_tile(s.x, s.y, s.bx, s.by, s.tx, s.ty, out_tile.width, out_tile.height, tail);
                      });
        }
    }
    // A second output: GPU tiles, or now and then a loop on the host that
    // reads a stage the GPU computed.
    if (second_from >= 0 && draw.chance(85)) {
        const Tile t = draw.pick(tiles);
        directive("second_output.gpu_tile(x, y, bx, by, tx, ty, " + tile_text(t) + ")", [t](Scene &s) {
            s.outputs[1].gpu_tile(s.x, s.y, s.bx, s.by, s.tx, s.ty, t.width, t.height);
        });
    }

    // Every other stage: inline (where it has no updates), at the root in
    // GPU tiles of its own, inside the output's GPU block on its threads
    // (shared memory), inside a parallel CPU strip in GPU tiles of its own
    // (launched from the strip: device buffers allocated inside a parallel
    // loop), or inside the GPU block of its consumer's own tiles. Where a
    // stage goes depends on where its consumers went: choices run from the
    // output back.
    enum class Where { Inline,
                       Root,
                       InBlock,
                       InStrip,
                       AtConsumerBlock };
    struct Choice {
        Where where = Where::Root;
        Tile tile{16, 16};
    };
    std::vector<Choice> choices(static_cast<size_t>(n) + 1);
    // Where each stage is computed (for an inlined stage: where its
    // consumers are): inside the output's GPU block, inside a strip; and
    // what of it one output tile needs.
    std::vector<bool> in_block(static_cast<size_t>(n) + 1, false), in_strip(static_cast<size_t>(n) + 1, false);
    std::vector<Tile> extent(static_cast<size_t>(n) + 1, out_tile);
    in_block[n] = true;
    in_strip[n] = strips;
    std::vector<bool> behind_resampling(static_cast<size_t>(n) + 1, false);
    // The output's block: its threads (the widest stage in it, each way)
    // and its shared memory.
    Tile block = out_tile;
    int shared_bytes = 0;
    for (int i = n - 1; i >= 1; i--) {
        Choice &ch = choices[i];
        const int where = draw.below(10);
        ch.tile = draw.pick(tiles);
        const std::vector<int> consumers = consumers_of(spec, i, n);
        const bool read_by_second_output = second_from == i;
        const auto all = [&](const std::vector<bool> &where_k) {
            return !read_by_second_output &&
                   std::all_of(consumers.begin(), consumers.end(), [&](int k) { return where_k[k]; });
        };
        Tile &e = extent[i];
        e = {0, 0};
        for (int k : consumers) {
            const Tile read = read_extent(spec, k, i, extent[k]);
            e = {std::max(e.width, read.width), std::max(e.height, read.height)};
        }
        const Tile widened{std::max(block.width, e.width), std::max(block.height, e.height)};
        const int bytes = e.width * e.height * 4 * (spec[i].kind == StageKind::Tuple ? 2 : 1);
        // A stage read through a resampling stage and also at (x, y) needs
        // of one tile a span that grows with the tile's position (x / 2 and
        // x both), so its thread count follows the image, not the tile:
        // such stages, and any behind them, are never on a block's threads.
        behind_resampling[i] = std::any_of(consumers.begin(), consumers.end(), [&](int k) {
            const bool resamples = spec[k].kind == StageKind::Upsample || spec[k].kind == StageKind::Downsample;
            return behind_resampling[k] || (resamples && i == k - 1);
        });
        const bool tile_bounded = !behind_resampling[i];
        const bool fits_block = tile_bounded && widened.width * widened.height <= kMaxThreads &&
                                shared_bytes + bytes <= kMaxSharedBytes;
        const Choice &consumer = choices[i + 1];
        const bool consumer_has_tiles = i + 1 < n && (consumer.where == Where::Root || consumer.where == Where::InStrip);
        const Tile at_consumer = read_extent(spec, i + 1, i, consumer.tile);
        const bool fits_consumer_block =
            tile_bounded &&
            std::max(at_consumer.width, consumer.tile.width) * std::max(at_consumer.height, consumer.tile.height) <=
                kMaxThreads;
        const bool one_consumer = consumers.size() == 1 && !read_by_second_output;
        if (where >= 3 && where < 5 && all(in_block) && fits_block) {
            ch.where = Where::InBlock;
            block = widened;
            shared_bytes += bytes;
        } else if (where >= 5 && where < 7 && strips && all(in_strip)) {
            ch.where = Where::InStrip;
        } else if (where == 7 && one_consumer && consumer_has_tiles && fits_consumer_block) {
            ch.where = Where::AtConsumerBlock;
        } else if (where >= 8 && !has_updates(spec[i].kind)) {
            ch.where = Where::Inline;
        } else {
            ch.where = Where::Root;
        }
        in_block[i] = ch.where == Where::InBlock || (ch.where == Where::Inline && all(in_block));
        in_strip[i] = ch.where == Where::InStrip || (ch.where == Where::InBlock && strips) ||
                      (ch.where == Where::AtConsumerBlock && in_strip[i + 1]) ||
                      (ch.where == Where::Inline && all(in_strip));
    }
    for (int i = 1; i < n; i++) {
        const std::string name = "s" + std::to_string(i);
        const Choice &ch = choices[i];
        const Tile t = ch.tile;
        for (int d = 0; d <= updates_of(spec[i].kind); d++) {
            const std::string def = definition_text(name, d);
            const bool pure = d == 0;
            switch (ch.where) {
            case Where::Inline:
                break;
            case Where::Root:
                directive(def + (pure ? ".compute_root()" : "") + ".gpu_tile(x, y, bx, by, tx, ty, " + tile_text(t) + ")",
                          [i, d, t](Scene &s) {
                              if (d == 0) {
                                  s.stages[i].compute_root();
                              }
                              definition(s.stages[i], d).gpu_tile(s.x, s.y, s.bx, s.by, s.tx, s.ty, t.width, t.height);
                          });
                break;
            case Where::InStrip:
                directive(def + (pure ? ".compute_at(output, yo)" : "") + ".gpu_tile(x, y, bx, by, tx, ty, " +
                              tile_text(t) + ")",
                          [i, d, t](Scene &s) {
                              if (d == 0) {
                                  s.stages[i].compute_at(s.stages.back(), s.yo);
                              }
                              definition(s.stages[i], d).gpu_tile(s.x, s.y, s.bx, s.by, s.tx, s.ty, t.width, t.height);
                          });
                break;
            case Where::InBlock:
            case Where::AtConsumerBlock: {
                const bool at_output = ch.where == Where::InBlock;
                const std::string at = at_output ? "output" : "s" + std::to_string(i + 1);
                directive(def + (pure ? ".compute_at(" + at + ", bx)" : "") + ".gpu_threads(x, y)",
                          [i, d, at_output](Scene &s) {
                              if (d == 0) {
                                  s.stages[i].compute_at(at_output ? s.stages.back() : s.stages[i + 1], s.bx);
                              }
                              definition(s.stages[i], d).gpu_threads(s.x, s.y);
                          });
                break;
            }
            }
        }
    }
    return c;
}

}  // namespace harena_test
