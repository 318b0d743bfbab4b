#include "device_steps.h"

#include "HalideRuntimeCuda.h"

#include <errno.h>  // program_invocation_short_name

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace harena_corpus {
namespace {

void check(int result, const char *what) {
    if (result != 0) {
        std::fprintf(stderr, "%s: %s failed (%d)\n", program_invocation_short_name, what, result);
        for (const std::string &m : ErrorLog::take()) {
            std::fprintf(stderr, "  %s\n", m.c_str());
        }
        std::exit(1);
    }
}

uint64_t mix(uint64_t x) {  // splitmix64: a seeded sequence without <random>'s implementation-defined distributions
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

}  // namespace

std::vector<Step> make_steps(const Pipeline &pipeline, const std::vector<double> &scales) {
    const halide_device_interface_t *cuda = halide_cuda_device_interface();
    std::vector<Step> steps;
    steps.reserve(scales.size());
    for (size_t i = 0; i < scales.size(); i++) {
        Step s;
        s.scale = scales[i];
        s.args = pipeline.make(s.scale);
        pipeline.write(s.args, static_cast<int>(i));
        s.args.call = 0;
        for (auto &in : s.args.inputs) {
            check(in.copy_to_device(cuda), "uploading an input");
            // The device copy is the one every call reads, as a GPU producer
            // leaves it: marked newer, no host stage reads the host copy
            // unseen, and a plain build's host stages may write blocks a
            // graph owns (graph/unplanned_calls.h).
            in.set_device_dirty();
        }
        for (auto &out : s.args.outputs) {
            check(out.device_malloc(cuda), "allocating an output on the device");
        }
        steps.push_back(std::move(s));
    }
    return steps;
}

std::vector<double> seeded_scales(int count, double low, double high, uint64_t seed) {
    std::vector<double> scales;
    for (int i = 0; i < count; i++) {
        const double u = static_cast<double>(mix(seed * 1000003u + static_cast<uint64_t>(i)) >> 11) * 0x1p-53;
        scales.push_back(low * std::exp(u * std::log(high / low)));
    }
    return scales;
}

void poison_outputs(Step &step) {
    for (auto &out : step.args.outputs) {
        std::memset(out.data(), 0xA5, out.size_in_bytes());
        // The device's contents are being replaced: a buffer dirty on both
        // sides is an error to Halide's copies.
        out.set_device_dirty(false);
        out.set_host_dirty();
        check(out.copy_to_device(halide_cuda_device_interface()), "poisoning an output");
    }
}

std::string shape(const Step &step) {
    const auto &in = step.args.inputs.at(0);
    std::string text;
    for (int d = 0; d < in.dimensions(); d++) {
        text += (d ? "x" : "") + std::to_string(in.dim(d).extent());
    }
    return text;
}

}  // namespace harena_corpus
