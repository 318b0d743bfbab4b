// The one source of harena_halide_pch, the target that precompiles Halide.h
// for every generator of this tree (planner/pass/CMakeLists.txt). It defines
// nothing: the precompiled header is what that target builds.
