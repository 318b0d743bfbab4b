#include "graph/host_blocks.h"

#include "cuda/stream_context.h"
#include "graph/backend.h"
#include "harena_libcuda.h"

#include <algorithm>
#include <cstdio>
#include <cstdint>
#include <optional>

namespace harena::detail {

namespace {

int cuda_alloc(size_t bytes, void **host) {
    static const auto alloc = cuda_symbol<PFN_cuMemHostAlloc_v2020>("cuMemHostAlloc");
    // Portable: pinned for every context, so the block outlives no context
    // it depends on.
    return alloc != nullptr ? alloc(host, bytes, CU_MEMHOSTALLOC_PORTABLE) : CUDA_ERROR_NOT_SUPPORTED;
}

void cuda_free(void *host) {
    static const auto free_host = cuda_symbol<PFN_cuMemFreeHost_v2000>("cuMemFreeHost");
    if (free_host != nullptr) {
        (void)free_host(host);
    }
}

// Where a memcpy node's source starts (its 3-D offsets applied).
CopySource source_of(const CUDA_MEMCPY3D &p) {
    const size_t offset = p.srcXInBytes + (p.srcY + p.srcZ * p.srcHeight) * p.srcPitch;
    const size_t bytes = p.WidthInBytes * std::max<size_t>(p.Height, 1) * std::max<size_t>(p.Depth, 1);
    const bool to_host = p.dstMemoryType == CU_MEMORYTYPE_HOST;
    if (p.srcMemoryType == CU_MEMORYTYPE_HOST) {
        return CopySource{static_cast<const char *>(p.srcHost) + offset, true, bytes, to_host};
    }
    return CopySource{reinterpret_cast<const char *>(static_cast<uintptr_t>(p.srcDevice)) + offset, false, bytes,
                      to_host};
}

int cuda_copy_sources(void *graph, CopySource *sources, size_t capacity, size_t *count) {
    static const auto get_nodes = cuda_symbol<PFN_cuGraphGetNodes_v10000>("cuGraphGetNodes");
    static const auto node_type = cuda_symbol<PFN_cuGraphNodeGetType_v10000>("cuGraphNodeGetType");
    static const auto memcpy_params = cuda_symbol<PFN_cuGraphMemcpyNodeGetParams_v10000>("cuGraphMemcpyNodeGetParams");
    if (get_nodes == nullptr || node_type == nullptr || memcpy_params == nullptr) {
        return CUDA_ERROR_NOT_SUPPORTED;
    }
    size_t n = 0;
    if (int err = get_nodes(static_cast<CUgraph>(graph), nullptr, &n)) {
        return err;
    }
    std::vector<CUgraphNode> nodes(n);
    if (int err = get_nodes(static_cast<CUgraph>(graph), nodes.data(), &n)) {
        return err;
    }
    *count = 0;
    for (CUgraphNode node : nodes) {
        CUgraphNodeType type;
        CUDA_MEMCPY3D params{};
        if (int err = node_type(node, &type)) {
            return err;
        }
        if (type != CU_GRAPH_NODE_TYPE_MEMCPY) {
            continue;
        }
        if (int err = memcpy_params(node, &params)) {
            return err;
        }
        if (*count < capacity) {
            sources[*count] = source_of(params);
        }
        ++*count;
    }
    return 0;
}

const PinnedHostBackend kCuda = {cuda_alloc, cuda_free, cuda_copy_sources};

const PinnedHostBackend *installed = nullptr;

// The capture in progress on this thread, if any.
thread_local HostBlockCapture *capturing = nullptr;

// Whether `host` is one of the capture's blocks.
bool holds(const HostBlockCapture &c, const void *host) {
    return std::any_of(c.blocks.begin(), c.blocks.end(), [&](const HostBlock &b) { return b.host == host; });
}

bool within(const HostBlock &b, const void *address) {
    const auto *p = static_cast<const char *>(address);
    const auto *start = static_cast<const char *>(b.host);
    return p >= start && p < start + std::max<size_t>(b.bytes, 1);
}

}  // namespace

const PinnedHostBackend *pinned_host_backend() {
    if (installed != nullptr) {
        return installed;
    }
    // A stand-in graph backend records stand-in graphs, which the driver
    // cannot list.
    return libcuda() != nullptr && graph_backend_is_cuda() ? &kCuda : nullptr;
}

void set_pinned_host_backend(const PinnedHostBackend *backend) {
    installed = backend;
}

HostBlockCapture::HostBlockCapture(const harena_arena &a, HostBlocks &b)
    : arena(&a), blocks(b) {
    capturing = this;
}

HostBlockCapture::~HostBlockCapture() {
    capturing = nullptr;
}

HostBlockCapture *host_block_capture() {
    return capturing;
}

void *capture_host_block(size_t bytes) {
    HostBlockCapture *c = capturing;  // null outside a capture: every other halide_malloc passes here
    if (c == nullptr || !c->plain || c->missed) {
        return nullptr;
    }
    const PinnedHostBackend *backend = pinned_host_backend();
    if (backend == nullptr) {
        return nullptr;
    }
    void *host = nullptr;
    if (backend->alloc(std::max<size_t>(bytes, 1), &host) != 0 || host == nullptr) {
        c->missed = true;  // the block lives in memory the call frees
        return nullptr;
    }
    c->blocks.push_back(HostBlock{host, bytes, true});
    return host;
}

bool held_by_plain_capture(const void *host) {
    const HostBlockCapture *c = capturing;
    return c != nullptr && c->plain && holds(*c, host);
}

bool held_by_capture(const void *user_context, const void *host) {
    const HostBlockCapture *c = capturing;
    return c != nullptr && c->arena == user_context && holds(*c, host);
}

std::string check_host_copies(void *graph, const HostBlocks &blocks) {
    const PinnedHostBackend *backend = pinned_host_backend();
    if (backend == nullptr) {
        return blocks.empty() ? "" : "no driver function lists the graph's copies (cuGraphGetNodes)";
    }
    size_t count = 0;
    int err = backend->copy_sources(graph, nullptr, 0, &count);
    std::vector<CopySource> sources(count);
    if (err == 0) {
        err = backend->copy_sources(graph, sources.data(), count, &count);
    }
    if (err != 0 || count != sources.size()) {
        return "the graph's copies could not be listed: " + driver_failure("cuGraphGetNodes", err);
    }
    std::vector<bool> uploaded(blocks.size(), false);
    for (const CopySource &s : sources) {
        if (s.to_host) {
            return "a copy in the graph writes " + std::to_string(s.bytes) +
                   " bytes to host memory: host code read a device result while the call was captured, before "
                   "the copy ran, and a replay runs no host code";
        }
        auto it = std::find_if(blocks.begin(), blocks.end(), [&](const HostBlock &b) { return within(b, s.address); });
        if (it != blocks.end()) {
            uploaded[static_cast<size_t>(it - blocks.begin())] = true;
        } else if (s.host) {
            char where[32];
            std::snprintf(where, sizeof where, "%p", s.address);
            return "a copy in the graph reads " + std::to_string(s.bytes) + " bytes of host memory at " + where +
                   " that the graph does not own (a host stage's buffer, which the call frees, or the caller's "
                   "memory): a replay would read it after it is freed or changed. Built with the arena feature, "
                   "a host stage that reads only scalar arguments gets a pinned block the graph owns";
        }
    }
    for (size_t i = 0; i < blocks.size(); i++) {
        if (!uploaded[i] && !blocks[i].scratch) {
            return "a host stage's buffer of " + std::to_string(blocks[i].bytes) +
                   " bytes is not uploaded by a copy in the graph (the upload ran once, when the call was "
                   "captured)";
        }
    }
    return "";
}

void free_host_blocks(const CudaBinding *cuda, HostBlocks &blocks) {
    const PinnedHostBackend *backend = pinned_host_backend();
    if (blocks.empty() || backend == nullptr) {
        blocks.clear();
        return;
    }
    std::optional<StreamContextScope> in_context;
    if (cuda != nullptr) {
        in_context.emplace(*cuda);
    }
    for (const HostBlock &b : blocks) {
        backend->free(b.host);
    }
    blocks.clear();
}

}  // namespace harena::detail
