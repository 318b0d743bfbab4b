// The argument buffers of each corpus generator, shaped after its estimates
// (generators/corpus/*.cpp), and the values a driver writes into them. Input
// values change with every call; they depend only on the call index, so every
// way of running a pipeline sees the same inputs on the same call.
#include "corpus_pipelines.h"

#include <algorithm>

namespace harena_corpus {

namespace {

Buffer<> image(halide_type_t t, int w, int h, int channels = 0) {
    return channels ? Buffer<>(t, {w, h, channels}) : Buffer<>(t, {w, h});
}

uint64_t seed(int call, int input) {
    return (uint64_t)call * 1000003u + (uint64_t)input;
}

// The autoscheduled pipelines run between 256 pixels and their estimates:
// Halide 14's schedules fail in Halide's default build outside that range.
// Its Mullapudi2016 CPU tiles read before an input's minimum on images
// narrower than a tile (256 pixels at these estimates); its Li2018 CUDA
// schedules launch one grid dimension of a block per 64 pixels of every row,
// which CUDA caps at 65535 blocks (cuLaunchKernel fails past about 4
// megapixels, twice the estimates' extents included).
int autoscheduled_extent(int estimate, double s) {
    return std::min(std::max(scaled(estimate, s), 256), estimate);
}

}  // namespace

Workload LocalLaplacianArgs::make(double s) {
    const int w = scaled(1536, s), h = scaled(2560, s);
    return Workload{{image(halide_type_of<uint16_t>(), w, h, 3)}, {image(halide_type_of<uint16_t>(), w, h, 3)}};
}
void LocalLaplacianArgs::write(Workload &w, int call) {
    w.call = call;
    fill(w.inputs[0], seed(call, 0), 0, 65535);
}

Workload BilateralGridArgs::make(double s) {
    const int w = scaled(1536, s), h = scaled(2560, s);
    return Workload{{image(halide_type_of<float>(), w, h)}, {image(halide_type_of<float>(), w, h)}};
}
void BilateralGridArgs::write(Workload &w, int call) {
    w.call = call;
    fill(w.inputs[0], seed(call, 0), 0.0, 1.0);
}

Workload HistogramEqualizeArgs::make(double s) {
    const int w = scaled(1536, s), h = scaled(2560, s);
    return Workload{{image(halide_type_of<uint8_t>(), w, h, 3)}, {image(halide_type_of<uint8_t>(), w, h, 3)}};
}
void HistogramEqualizeArgs::write(Workload &w, int call) {
    w.call = call;
    // A darker image every call, so that equalisation has something to do.
    fill(w.inputs[0], seed(call, 0), 0, 255 - (60 * call) % 200);
}

Workload IirBlurArgs::make(double s) {
    const int w = scaled(1536, s), h = scaled(2560, s);
    return Workload{{image(halide_type_of<float>(), w, h, 3)}, {image(halide_type_of<float>(), w, h, 3)}};
}
void IirBlurArgs::write(Workload &w, int call) {
    w.call = call;
    fill(w.inputs[0], seed(call, 0), 0.0, 1.0);
}

Workload NlMeansArgs::make(double s) {
    const int w = scaled(1536, s), h = scaled(2560, s);
    return Workload{{image(halide_type_of<float>(), w, h, 3)}, {image(halide_type_of<float>(), w, h, 3)}};
}
void NlMeansArgs::write(Workload &w, int call) {
    w.call = call;
    fill(w.inputs[0], seed(call, 0), 0.0, 1.0);
}

Workload InterpolateArgs::make(double s) {
    const int w = scaled(1536, s), h = scaled(2560, s);
    return Workload{{image(halide_type_of<float>(), w, h, 4)}, {image(halide_type_of<float>(), w, h, 3)}};
}
void InterpolateArgs::write(Workload &w, int call) {
    w.call = call;
    fill(w.inputs[0], seed(call, 0), 0.0, 1.0);
    // Alpha marks the known pixels: about a third of them, the rest are holes.
    Buffer<float> alpha = w.inputs[0].as<float>().sliced(2, 3);
    alpha.for_each_value([](float &a) { a = a < 0.35f ? 1.0f : 0.0f; });
}

Workload StencilChainArgs::make(double s) {
    const int w = scaled(1536, s), h = scaled(2560, s);
    return Workload{{image(halide_type_of<uint16_t>(), w, h)}, {image(halide_type_of<uint16_t>(), w, h)}};
}
void StencilChainArgs::write(Workload &w, int call) {
    w.call = call;
    fill(w.inputs[0], seed(call, 0), 0, 65535);
}

Workload CameraPipeArgs::make(double s) {
    // Even extents: a Bayer mosaic comes in whole 2x2 cells.
    const int w = 2 * scaled(2592 / 2, s), h = 2 * scaled(1968 / 2, s);
    return Workload{{image(halide_type_of<uint16_t>(), w, h), image(halide_type_of<float>(), 4, 3)},
                    {image(halide_type_of<uint8_t>(), w, h, 3)}};
}
void CameraPipeArgs::write(Workload &w, int call) {
    w.call = call;
    fill(w.inputs[0], seed(call, 0), 0, 1023);
    // A colour matrix near the identity, different every call.
    fill(w.inputs[1], seed(call, 1), -0.1, 0.1);
    Buffer<float> &m = w.inputs[1].as<float>();
    for (int c = 0; c < 3; c++) {
        m(c, c) += 1.0f;
    }
}

Workload GuidedUpsampleArgs::make(double s) {
    const int w = scaled(1536, s), h = scaled(2560, s), lw = scaled(384, s), lh = scaled(640, s);
    return Workload{{image(halide_type_of<float>(), lw, lh), image(halide_type_of<float>(), lw, lh),
                     image(halide_type_of<float>(), w, h)},
                    {image(halide_type_of<float>(), w, h)}};
}
void GuidedUpsampleArgs::write(Workload &w, int call) {
    w.call = call;
    fill(w.inputs[0], seed(call, 0), 0.0, 1.0);
    fill(w.inputs[1], seed(call, 1), 0.0, 1.0);
    fill(w.inputs[2], seed(call, 2), 0.0, 1.0);
}

Workload AutoExposureArgs::make(double s) {
    const int w = scaled(1536, s), h = scaled(2560, s);
    return Workload{{image(halide_type_of<uint16_t>(), w, h, 3)}, {image(halide_type_of<uint16_t>(), w, h, 3)}};
}
void AutoExposureArgs::write(Workload &w, int call) {
    w.call = call;
    // A brighter scene every call, so that the exposure changes.
    fill(w.inputs[0], seed(call, 0), 0, 16383 + (16384 * call) % 49152);
}

Workload ColorGradeArgs::make(double s) {
    const int w = scaled(1536, s), h = scaled(2560, s);
    return Workload{{image(halide_type_of<uint8_t>(), w, h, 3)}, {image(halide_type_of<uint8_t>(), w, h, 3)}};
}
void ColorGradeArgs::write(Workload &w, int call) {
    w.call = call;
    fill(w.inputs[0], seed(call, 0), 0, 255);
}

Workload AutoLevelsArgs::make(double s) {
    const int w = scaled(1536, s), h = scaled(2560, s);
    return Workload{{image(halide_type_of<uint8_t>(), w, h, 3)}, {image(halide_type_of<uint8_t>(), w, h, 3)}};
}
void AutoLevelsArgs::write(Workload &w, int call) {
    w.call = call;
    // A scan whose range of codes changes every call, so that the levels do.
    fill(w.inputs[0], seed(call, 0), (call * 23) % 60, 255 - (call * 41) % 90);
}

Workload YuvPlanesArgs::make(double s) {
    // Even extents: each chroma sample covers a whole 2x2 block.
    const int w = 2 * scaled(960, s), h = 2 * scaled(540, s);
    return Workload{{image(halide_type_of<uint8_t>(), w, h, 3)},
                    {image(halide_type_of<uint8_t>(), w, h), image(halide_type_of<uint8_t>(), w / 2, h / 2),
                     image(halide_type_of<uint8_t>(), w / 2, h / 2)}};
}
void YuvPlanesArgs::write(Workload &w, int call) {
    w.call = call;
    fill(w.inputs[0], seed(call, 0), 0, 255);
}

Workload MipLevelsArgs::make(double s) {
    // Extents that halve exactly three times.
    const int w = 8 * scaled(128, s), h = 8 * scaled(128, s);
    Workload work{{image(halide_type_of<float>(), w, h)}, {}};
    for (int level = 1; level <= 3; level++) {
        work.outputs.push_back(image(halide_type_of<float>(), w >> level, h >> level));
    }
    return work;
}
void MipLevelsArgs::write(Workload &w, int call) {
    w.call = call;
    fill(w.inputs[0], seed(call, 0), 0.0, 1.0);
}

Workload AutoUnsharpArgs::make(double s) {
    const int w = autoscheduled_extent(1536, s), h = autoscheduled_extent(2560, s);
    return Workload{{image(halide_type_of<float>(), w, h)}, {image(halide_type_of<float>(), w, h)}};
}
void AutoUnsharpArgs::write(Workload &w, int call) {
    w.call = call;
    fill(w.inputs[0], seed(call, 0), 0.0, 1.0);
}

Workload AutoHarrisArgs::make(double s) {
    const int w = autoscheduled_extent(1536, s), h = autoscheduled_extent(2560, s);
    return Workload{{image(halide_type_of<float>(), w, h, 3)}, {image(halide_type_of<float>(), w, h)}};
}
void AutoHarrisArgs::write(Workload &w, int call) {
    w.call = call;
    fill(w.inputs[0], seed(call, 0), 0.0, 1.0);
}

}  // namespace harena_corpus
