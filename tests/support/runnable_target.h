// The host target for code a test runs in its own process (JIT). Halide 14
// reads AMD Zen 4's avx512_bf16 as Sapphire Rapids and emits AVX512-FP16
// instructions the CPU lacks (docs/usage/limits.md), so its 16-bit pipelines
// die with SIGILL there: where the CPU has no AVX512-FP16, that feature is
// dropped. Halide 15 and later read the CPU right (and define
// HALIDE_VERSION_MAJOR).
#pragma once

#include "Halide.h"

#if !defined(HALIDE_VERSION_MAJOR) && defined(__x86_64__)
#include <cpuid.h>
#endif

namespace harena_test {

inline Halide::Target runnable_host_target() {
    Halide::Target target = Halide::get_host_target();
#if !defined(HALIDE_VERSION_MAJOR) && defined(__x86_64__)
    unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
    const bool fp16 = __get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx) != 0 && (edx & (1u << 23)) != 0;
    if (!fp16) {
        target = target.without_feature(Halide::Target::AVX512_SapphireRapids);
    }
#endif
    return target;
}

}  // namespace harena_test
