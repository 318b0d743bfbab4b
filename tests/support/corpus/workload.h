#pragma once
// What the corpus drivers share: a pipeline's argument buffers for one size
// (host buffers, as RunGen and user programs pass them), the sizes the tests
// run at, input values that change with every call, bit-exact comparison,
// and a record of every error the Halide runtime reports.
#include "HalideBuffer.h"

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

namespace harena_corpus {

using Halide::Runtime::Buffer;

// One pipeline's arguments at one size. The same buffers serve every call,
// as in a driver's loop; only their values change.
struct Workload {
    std::vector<Buffer<>> inputs;   // written before each call
    std::vector<Buffer<>> outputs;  // read back after each call
    int call = 0;                   // scalar arguments may follow the call index
};

// Sizes relative to what each generator declares in its estimates: every
// spatial extent is multiplied by `scale` (channel counts and other fixed
// extents are kept), so the runs lie below, at and above the estimates.
struct Size {
    const char *name;
    double scale;
};
inline constexpr Size kSizes[] = {{"half", 0.5}, {"estimate", 1.0}, {"double", 2.0}};
inline void PrintTo(const Size &s, std::ostream *os) {
    *os << s.name << " (" << s.scale << "x the estimates)";
}

// Calls per pipeline and size: enough that a problem appearing only from the
// second call on (state kept across calls) shows, and that the scalars that
// cycle with period 3 (corpus_pipelines.h) come back to their first values.
constexpr int kCalls = 4;

// round(extent * scale), at least 1.
int scaled(int extent, double scale);

// Fills `b` with values in [lo, hi] (integers for integer types) that depend
// only on `seed` and the position, and marks it host-dirty as a program does
// after writing an input.
void fill(Buffer<> &b, uint64_t seed, double lo, double hi);

// Empty when `a` and `b` hold the same bits; otherwise where they first
// differ and in how many elements.
std::string difference(const Buffer<> &a, const Buffer<> &b);

// Empty when every output of `got` holds the same bits as in `want`.
std::string difference(const Workload &want, const Workload &got);

// Copies every output back from the device where it was written there.
int read_back(Workload &w);

// Every halide_error message since the last take(). Installing it replaces
// Halide's default handler (which aborts), so failures come back as codes.
class ErrorLog {
public:
    static void install();
    static std::vector<std::string> take();
};

}  // namespace harena_corpus
