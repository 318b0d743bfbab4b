/* The guard-band layout (harena_options.guard), one definition for both sides
 * of the pipeline ABI: the planner pass lays out a planned pipeline's slices
 * with it (as Halide expressions) and the runtime records and checks the
 * bands with it (as byte offsets), so the two cannot drift apart.
 *
 * G is the band (harena_pipeline_guard_bytes): a multiple of the arena's
 * alignment, 0 when guard mode is off. A frame opens with one band; each
 * slice is followed by its band; a slice starts no earlier than the end of
 * the band of every slice it rests on, and the frame holds the band of its
 * topmost slices:
 *
 *     frame: [G][slice a][G] [slice b][G] ...
 *
 * Nothing may write a band. The runtime fills each one when its slice is
 * handed out and checks it when the slice is freed, its bytes are reused or
 * its frame pops (guard/state.h). C++ only; every function takes and returns
 * one type T (uint64_t in the runtime, Halide::Expr in the pass), written as
 * sums in a fixed order so that the pass's expressions are the same on every
 * call. */
#ifndef HARENA_GUARD_LAYOUT_H
#define HARENA_GUARD_LAYOUT_H

#ifdef __cplusplus

namespace harena::guard_layout {

/* Where a frame's first slice starts at the earliest, from the frame's start:
 * after the band that opens the frame. */
template<typename T>
T first_slice_offset(const T &band) {
    return band;
}

/* Where the band after a slice of `bytes` at `offset` ends: where a slice
 * resting on it starts at the earliest, and what its frame must hold. */
template<typename T>
T band_end(const T &offset, const T &bytes, const T &band) {
    return offset + bytes + band;
}

/* The band of a planned slice of `slice_bytes` whose buffer uses `bytes`: from
 * the buffer's end to the band's, so that it covers the slice's unused tail
 * too. */
template<typename T>
T planned_band_bytes(const T &slice_bytes, const T &bytes, const T &band) {
    return slice_bytes - bytes + band;
}

/* An allocation the runtime places itself: its bytes and then its band,
 * before rounding to the alignment. */
template<typename T>
T with_band(const T &bytes, const T &band) {
    return bytes + band;
}

}  // namespace harena::guard_layout

#endif  // __cplusplus

#endif  // HARENA_GUARD_LAYOUT_H
