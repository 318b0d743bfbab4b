// Seeded generators of problem families, shared by the solver's tests, the
// pass tests and the solver benchmark (library harena_solver_instances, in
// tests/support; neither the planner nor the installed package has it).
// Same seed, same problem: the generators use their own random numbers, and
// only log/exp (for log-uniform sizes) could differ by an ulp between C
// libraries.
#pragma once

#include <cstddef>
#include <cstdint>

#include "solver/problem.h"

namespace harena::instances {

// n buffers with uniformly random starts over n steps, lifetimes of 1 to 100
// steps (about 50 buffers alive at a time) and log-uniform sizes from 1 KiB
// to 4 MiB, not multiples of the 256-byte alignment.
Problem uniform_random(size_t n, uint64_t seed);

// What a compiled image pipeline allocates: a chain of blocks, each an
// encoder/decoder pyramid whose levels shrink by 4x and whose encoder
// outputs live until the matching decoder stage (skip connections), plus
// short-lived scratch buffers per stage, and a few buffers alive across many
// blocks (1 in 200, alive for 20 to 500 steps). The base size varies per
// block, like a batch size that changes.
Problem pipeline(size_t n, uint64_t seed);

// A rectangle of width W bytes x T steps cut by random guillotine cuts into
// n pieces, each a buffer: every step has exactly W live bytes, so the
// lower bound W is the optimum and is reached only by the original tiling.
// Offsets and sizes are multiples of the 256-byte alignment.
Problem perfect_packing(size_t n, uint64_t seed);

// The hard instances of offset planning, after MiniMalloc's challenging
// suite: a square of 2^20 bytes x 2^20 steps, in units of 1024 both ways,
// cut by random guillotine cuts (each cut splits a piece chosen with
// probability growing with its area, across time or across bytes at
// random) into n pieces, each a buffer. Many long thin strips and many
// buffers of equal size or lifetime defeat greedy heuristics. With
// `keep_all`, every step has exactly 2^20 live bytes: a perfect packing.
// Otherwise each piece not alive at one chosen step is dropped with
// probability 1/4, leaving a packing with room to spare at most steps, as
// in the published suite (whose instances cover 58-98% of the square);
// the chosen step stays full, so the lower bound, 2^20, is still the
// optimum. Alignment 1; sizes and times are multiples of 1024.
Problem cut_square(size_t n, uint64_t seed, bool keep_all);

// What a large compiled program allocates, shaped like a training step: a
// forward pass whose activations (1 in 7 buffers) stay alive until the
// mirrored step of the backward pass (nested lifetimes, so about 0.15 n
// buffers are alive in the middle), buffers alive for a while (8 steps to an
// eighth of the program) and many short-lived temporaries, over 1.5 n steps;
// lifetimes average about 4% of the program. Sizes span 10 orders of
// magnitude, from 2 bytes to 9.4 GB; alignment 256.
Problem forward_backward(size_t n, uint64_t seed);

// Shaped like the allocation traces of compiled training steps (XLA's
// buffer assignment): `microbatches` forward passes, each followed by its
// backward pass, in which the activations a forward layer saves die at the
// mirrored step; a gradient accumulator per layer alive from the first
// backward pass to the optimizer step at the end, across every later
// phase; short-lived temporaries with sizes heavy-tailed over seven orders
// of magnitude (4 bytes to hundreds of MB), arbitrary byte counts rather
// than round ones; an eighth of the buffers small and alive for most of the
// program (weights, constants); and a few huge buffers, each a fifth to
// three fifths of the peak of all the others, alive briefly at the turns
// from forward to backward, which make the peak. Alignment 64, or 4096 for
// a quarter of the buffers of 4 MiB or more.
Problem training_trace(size_t n, uint64_t seed, int microbatches);

// Shaped like a model graph's trace (an inference graph run node by node):
// each node's output read by the next one or two nodes, one in six also by
// a node far later (a skip connection), at heavy-tailed distances; sizes
// that change from stage to stage; temporaries, long-lived buffers and huge
// buffers as in training_trace.
Problem graph_trace(size_t n, uint64_t seed);

}  // namespace harena::instances
