// Host memory a captured graph copies from. A planned pipeline's host stage
// that reads only scalars (and other such stages) fills a buffer the GPU then
// reads; a graph repeats the upload, not the stage, so the upload's source
// must hold what this graph's key computed at every replay. During a capture
// each such buffer gets a pinned block owned by the graph entry: the stage
// writes there, the upload is captured as a copy from it, and nothing else
// writes it until the entry drops it with its graph.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

struct harena_arena;

namespace harena::detail {

class CudaBinding;

// A host address a graph's copy reads from; `host` says the driver recorded
// it as host memory (not device or unified).
struct CopySource {
    const void *address = nullptr;
    bool host = false;
    size_t bytes = 0;      // what the copy reads, for messages
    bool to_host = false;  // it writes host memory (a device-to-host copy)
};

// What the blocks need from the driver: CUDA's (cuMemHostAlloc, and the
// graph's memcpy nodes), or a test's stand-in.
struct PinnedHostBackend {
    int (*alloc)(size_t bytes, void **host);  // 0 or a driver error
    void (*free)(void *host);
    // The sources of the graph's copies: up to `capacity` written to
    // `sources`, *count set to how many there are. 0 or a driver error.
    int (*copy_sources)(void *graph, CopySource *sources, size_t capacity, size_t *count);
};

// The backend in use: a test's if set, else CUDA's (null without libcuda).
const PinnedHostBackend *pinned_host_backend();
// Tests: replaces the backend (null restores CUDA's).
void set_pinned_host_backend(const PinnedHostBackend *backend);

// The pinned blocks of one graph entry.
struct HostBlock {
    void *host = nullptr;
    size_t bytes = 0;
    // A host allocation of a pipeline built without the arena feature
    // (capture_host_block): it holds what a host stage wrote, uploaded or
    // only read by another host stage.
    bool scratch = false;
};
using HostBlocks = std::vector<HostBlock>;

// While alive, planned calls on `arena` made on this thread take their
// key-host buffers from new blocks added to `blocks`
// (harena_key_host_malloc). One per thread at a time.
struct HostBlockCapture {
    HostBlockCapture(const harena_arena &arena, HostBlocks &blocks);
    ~HostBlockCapture();
    HostBlockCapture(const HostBlockCapture &) = delete;
    HostBlockCapture &operator=(const HostBlockCapture &) = delete;

    const harena_arena *const arena;
    HostBlocks &blocks;
    // The call is of a pipeline built without the arena feature whose host
    // stages can read nothing a replay changes: its halide_malloc blocks on
    // this thread come from new blocks too (capture_host_block).
    bool plain = false;
    // A key-host buffer got no block (no driver, or no pinned memory left):
    // it lives in memory the call frees, which a graph must not copy from.
    bool missed = false;
};

// The capture in progress on this thread, or null.
HostBlockCapture *host_block_capture();

// Whether `host` is a block of the capture in progress on this thread for
// the arena `user_context`: its buffer's free leaves the memory to the entry.
bool held_by_capture(const void *user_context, const void *host);

// Empty when every copy of `graph` from host memory reads one of `blocks`,
// every block but scratch ones is read by one of them (the upload was
// captured as a copy, not run once when it was captured), and no copy
// writes host memory (host code read a device result while the call was
// captured: the copy had not run, and a replay runs no host code); else
// what is wrong, naming the copy or the block.
std::string check_host_copies(void *graph, const HostBlocks &blocks);

// Frees the blocks, with the context of `cuda` current: the binding of their
// arena while it is still live, else null.
void free_host_blocks(const CudaBinding *cuda, HostBlocks &blocks);

}  // namespace harena::detail
