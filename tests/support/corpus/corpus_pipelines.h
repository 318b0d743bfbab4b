#pragma once
// How a driver calls each corpus generator (generators/corpus): the argument
// buffers it makes for a size, the values it writes before each call, and the
// scalar arguments. A build is bound by naming its two AOT functions, e.g.
//   CameraPipe<corpus_camera_pipe_plain, corpus_camera_pipe_arena>
// so that the host and the CUDA tables share everything but the names.
#include "workload.h"

#include <initializer_list>
#include <ostream>

namespace harena_corpus {

struct Pipeline {
    const char *name;
    Workload (*make)(double scale);           // host buffers at `scale` times the estimates
    void (*write)(Workload &, int call);      // the inputs of call number `call`
    int (*plain)(Workload &);                 // the build without the plan
    int (*planned)(void *arena, Workload &);  // the arena build; its user_context is the arena
    // The CUDA arena build's <NAME>_ARENA_CAPTURABLE: one call captured as a
    // CUDA graph replays it (no host stage, nothing left to the runtime).
    bool capturable = true;
};

// For gtest's messages: parameters print as their names.
inline void PrintTo(const Pipeline &p, std::ostream *os) {
    *os << p.name;
}

template<class P>
Pipeline entry(const char *name) {
    return Pipeline{name, &P::make, &P::write, &P::plain, &P::planned, true};
}

// Scalars that change from call to call where a real program would change
// them (and where they change buffer sizes: `levels`, `r_sigma`,
// `search_area`), cycling through these.
inline int cycle(int call, std::initializer_list<int> values) {
    return values.begin()[call % values.size()];
}
inline float cycle(int call, std::initializer_list<float> values) {
    return values.begin()[call % values.size()];
}

// Each generator: make and write are shared by every build (defined in
// corpus_pipelines.cpp); the call forwards the workload to the build.

struct LocalLaplacianArgs {
    static Workload make(double scale);
    static void write(Workload &w, int call);
    static int levels(const Workload &w) {
        return cycle(w.call, {8, 5, 11});
    }
    static float alpha(const Workload &w) {
        return cycle(w.call, {1.0f, 0.5f, 2.0f});
    }
};
template<auto Plain, auto Planned>
struct LocalLaplacian : LocalLaplacianArgs {
    static int plain(Workload &w) {
        return Plain(w.inputs[0], levels(w), alpha(w), 1.0f, w.outputs[0]);
    }
    static int planned(void *a, Workload &w) {
        return Planned(a, w.inputs[0], levels(w), alpha(w), 1.0f, w.outputs[0]);
    }
};

struct BilateralGridArgs {
    static Workload make(double scale);
    static void write(Workload &w, int call);
    static float r_sigma(const Workload &w) {
        return cycle(w.call, {0.1f, 0.15f, 0.07f});
    }
};
template<auto Plain, auto Planned>
struct BilateralGrid : BilateralGridArgs {
    static int plain(Workload &w) {
        return Plain(w.inputs[0], r_sigma(w), w.outputs[0]);
    }
    static int planned(void *a, Workload &w) {
        return Planned(a, w.inputs[0], r_sigma(w), w.outputs[0]);
    }
};

struct HistogramEqualizeArgs {
    static Workload make(double scale);
    static void write(Workload &w, int call);
};
template<auto Plain, auto Planned>
struct HistogramEqualize : HistogramEqualizeArgs {
    static int plain(Workload &w) {
        return Plain(w.inputs[0], w.outputs[0]);
    }
    static int planned(void *a, Workload &w) {
        return Planned(a, w.inputs[0], w.outputs[0]);
    }
};

struct IirBlurArgs {
    static Workload make(double scale);
    static void write(Workload &w, int call);
    static float alpha(const Workload &w) {
        return cycle(w.call, {0.1f, 0.25f, 0.05f});
    }
};
template<auto Plain, auto Planned>
struct IirBlur : IirBlurArgs {
    static int plain(Workload &w) {
        return Plain(w.inputs[0], alpha(w), w.outputs[0]);
    }
    static int planned(void *a, Workload &w) {
        return Planned(a, w.inputs[0], alpha(w), w.outputs[0]);
    }
};

struct NlMeansArgs {
    static Workload make(double scale);
    static void write(Workload &w, int call);
    static int patch(const Workload &w) {
        return cycle(w.call, {7, 5, 7});
    }
    static int search(const Workload &w) {
        return cycle(w.call, {7, 9, 5});
    }
};
template<auto Plain, auto Planned>
struct NlMeans : NlMeansArgs {
    static int plain(Workload &w) {
        return Plain(w.inputs[0], patch(w), search(w), 0.12f, w.outputs[0]);
    }
    static int planned(void *a, Workload &w) {
        return Planned(a, w.inputs[0], patch(w), search(w), 0.12f, w.outputs[0]);
    }
};

struct InterpolateArgs {
    static Workload make(double scale);
    static void write(Workload &w, int call);
};
template<auto Plain, auto Planned>
struct Interpolate : InterpolateArgs {
    static int plain(Workload &w) {
        return Plain(w.inputs[0], w.outputs[0]);
    }
    static int planned(void *a, Workload &w) {
        return Planned(a, w.inputs[0], w.outputs[0]);
    }
};

struct StencilChainArgs {
    static Workload make(double scale);
    static void write(Workload &w, int call);
};
template<auto Plain, auto Planned>
struct StencilChain : StencilChainArgs {
    static int plain(Workload &w) {
        return Plain(w.inputs[0], w.outputs[0]);
    }
    static int planned(void *a, Workload &w) {
        return Planned(a, w.inputs[0], w.outputs[0]);
    }
};

struct CameraPipeArgs {
    static Workload make(double scale);
    static void write(Workload &w, int call);
    static float contrast(const Workload &w) {
        return cycle(w.call, {50.0f, 20.0f, 80.0f});
    }
};
template<auto Plain, auto Planned>
struct CameraPipe : CameraPipeArgs {
    // inputs: raw, matrix; gamma, contrast, black level, white level, sharpening
    static int plain(Workload &w) {
        return Plain(w.inputs[0], w.inputs[1], 2.2f, contrast(w), 25, 1023, 1.0f, w.outputs[0]);
    }
    static int planned(void *a, Workload &w) {
        return Planned(a, w.inputs[0], w.inputs[1], 2.2f, contrast(w), 25, 1023, 1.0f, w.outputs[0]);
    }
};

struct GuidedUpsampleArgs {
    static Workload make(double scale);
    static void write(Workload &w, int call);
    static float s_sigma(const Workload &w) {
        return cycle(w.call, {8.0f, 6.0f, 12.0f});
    }
    static float r_sigma(const Workload &w) {
        return cycle(w.call, {0.125f, 0.1f, 0.2f});
    }
};
template<auto Plain, auto Planned>
struct GuidedUpsample : GuidedUpsampleArgs {
    // inputs: the low-resolution guide and operator output, the full-resolution guide
    static int plain(Workload &w) {
        return Plain(w.inputs[0], w.inputs[1], w.inputs[2], s_sigma(w), r_sigma(w), w.outputs[0]);
    }
    static int planned(void *a, Workload &w) {
        return Planned(a, w.inputs[0], w.inputs[1], w.inputs[2], s_sigma(w), r_sigma(w), w.outputs[0]);
    }
};

struct AutoExposureArgs {
    static Workload make(double scale);
    static void write(Workload &w, int call);
    static float key(const Workload &w) {
        return cycle(w.call, {0.18f, 0.09f, 0.36f});
    }
};
template<auto Plain, auto Planned>
struct AutoExposure : AutoExposureArgs {
    // key, white point
    static int plain(Workload &w) {
        return Plain(w.inputs[0], key(w), 2.0f, w.outputs[0]);
    }
    static int planned(void *a, Workload &w) {
        return Planned(a, w.inputs[0], key(w), 2.0f, w.outputs[0]);
    }
};

struct ColorGradeArgs {
    static Workload make(double scale);
    static void write(Workload &w, int call);
    static float contrast(const Workload &w) {
        return cycle(w.call, {1.2f, 0.8f, 1.5f});
    }
};
template<auto Plain, auto Planned>
struct ColorGrade : ColorGradeArgs {
    // contrast, gamma, black point, saturation
    static int plain(Workload &w) {
        return Plain(w.inputs[0], contrast(w), 2.2f, 8, 1.1f, w.outputs[0]);
    }
    static int planned(void *a, Workload &w) {
        return Planned(a, w.inputs[0], contrast(w), 2.2f, 8, 1.1f, w.outputs[0]);
    }
};

struct AutoLevelsArgs {
    static Workload make(double scale);
    static void write(Workload &w, int call);
    static float clip(const Workload &w) {
        return cycle(w.call, {0.01f, 0.05f, 0.002f});
    }
};
template<auto Plain, auto Planned>
struct AutoLevels : AutoLevelsArgs {
    // clip
    static int plain(Workload &w) {
        return Plain(w.inputs[0], clip(w), w.outputs[0]);
    }
    static int planned(void *a, Workload &w) {
        return Planned(a, w.inputs[0], clip(w), w.outputs[0]);
    }
};

struct YuvPlanesArgs {
    static Workload make(double scale);
    static void write(Workload &w, int call);
};
template<auto Plain, auto Planned>
struct YuvPlanes : YuvPlanesArgs {
    // outputs: luma, chroma u, chroma v
    static int plain(Workload &w) {
        return Plain(w.inputs[0], w.outputs[0], w.outputs[1], w.outputs[2]);
    }
    static int planned(void *a, Workload &w) {
        return Planned(a, w.inputs[0], w.outputs[0], w.outputs[1], w.outputs[2]);
    }
};

struct MipLevelsArgs {
    static Workload make(double scale);
    static void write(Workload &w, int call);
};
template<auto Plain, auto Planned>
struct MipLevels : MipLevelsArgs {
    // outputs: levels 1, 2 and 3
    static int plain(Workload &w) {
        return Plain(w.inputs[0], w.outputs[0], w.outputs[1], w.outputs[2]);
    }
    static int planned(void *a, Workload &w) {
        return Planned(a, w.inputs[0], w.outputs[0], w.outputs[1], w.outputs[2]);
    }
};

struct AutoUnsharpArgs {
    static Workload make(double scale);
    static void write(Workload &w, int call);
    static float amount(const Workload &w) {
        return cycle(w.call, {1.0f, 0.5f, 2.0f});
    }
};
template<auto Plain, auto Planned>
struct AutoUnsharp : AutoUnsharpArgs {
    static int plain(Workload &w) {
        return Plain(w.inputs[0], amount(w), w.outputs[0]);
    }
    static int planned(void *a, Workload &w) {
        return Planned(a, w.inputs[0], amount(w), w.outputs[0]);
    }
};

struct AutoHarrisArgs {
    static Workload make(double scale);
    static void write(Workload &w, int call);
    static float k(const Workload &w) {
        return cycle(w.call, {0.04f, 0.06f, 0.05f});
    }
};
template<auto Plain, auto Planned>
struct AutoHarris : AutoHarrisArgs {
    static int plain(Workload &w) {
        return Plain(w.inputs[0], k(w), w.outputs[0]);
    }
    static int planned(void *a, Workload &w) {
        return Planned(a, w.inputs[0], k(w), w.outputs[0]);
    }
};

}  // namespace harena_corpus
