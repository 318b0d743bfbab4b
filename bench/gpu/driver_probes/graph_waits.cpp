// Graph replay from T threads on one context, and ways to wait for it:
// whether replay at T=8 is bound by the launch or by the wait, outside
// Halide and this runtime. Each thread replays its own graph of `kernels`
// stage kernels on its own non-blocking stream and waits for it:
//   stream sync    cuStreamSynchronize
//   query spin     cuStreamQuery until it is done
//   query pause    the same with 64 pauses between queries
//   event sync     cuEventRecord, cuEventSynchronize
//   word, memop    a cuStreamWriteValue32 node writes a word of mapped host memory; read it
//   word, kernel   a last one-thread kernel writes that word (harena_graph_wait's way)
//   launch only    no wait; a cuStreamSynchronize every 64 launches
// usage: harena-probe-graph-waits [seconds=0.4] [rounds=2] [kernels=4] [created|primary]
#include "probe_common.h"

#include <immintrin.h>

#include <string>

using namespace probe;

namespace {

enum Wait { stream_sync,
            query_spin,
            query_pause,
            event_sync,
            word_memop,
            word_kernel,
            launch_only,
            wait_kinds };
const char *const kWaitNames[] = {"stream sync", "query spin", "query pause", "event sync",
                                  "word, memop", "word, kernel", "launch only"};

struct GraphLane : Lane {
    CUgraphExec plain = nullptr, with_memop = nullptr, with_kernel = nullptr;
    CUevent event = nullptr;
    volatile unsigned *word = nullptr;
    CUdeviceptr word_device = 0;
    unsigned launches = 0;
};

CUgraphExec capture(GraphLane &lane, int kernels, Wait ending, CUfunction signal) {
    PROBE_CHECK(cuStreamBeginCapture(lane.stream, CU_STREAM_CAPTURE_MODE_THREAD_LOCAL));
    lane.launch_chain(kernels);
    if (ending == word_memop) {
        PROBE_CHECK(cuStreamWriteValue32(lane.stream, lane.word_device, 1, 0));
    } else if (ending == word_kernel) {
        unsigned one = 1;
        void *args[] = {&lane.word_device, &one};
        PROBE_CHECK(cuLaunchKernel(signal, 1, 1, 1, 1, 1, 1, 0, lane.stream, args, nullptr));
    }
    CUgraph graph = nullptr;
    PROBE_CHECK(cuStreamEndCapture(lane.stream, &graph));
    CUgraphExec exec = nullptr;
    PROBE_CHECK(cuGraphInstantiate(&exec, graph, 0));
    PROBE_CHECK(cuGraphUpload(exec, lane.stream));
    PROBE_CHECK(cuStreamSynchronize(lane.stream));
    return exec;
}

void call(GraphLane &lane, Wait wait) {
    if (wait == word_memop || wait == word_kernel) {
        *lane.word = 0;  // the last replay has written it: nothing else will
        PROBE_CHECK(cuGraphLaunch(wait == word_memop ? lane.with_memop : lane.with_kernel, lane.stream));
        while (*lane.word == 0) {
            _mm_pause();
        }
        return;
    }
    PROBE_CHECK(cuGraphLaunch(lane.plain, lane.stream));
    CUresult r = CUDA_SUCCESS;
    switch (wait) {
    case stream_sync:
        PROBE_CHECK(cuStreamSynchronize(lane.stream));
        break;
    case query_spin:
        while ((r = cuStreamQuery(lane.stream)) == CUDA_ERROR_NOT_READY) {
        }
        PROBE_CHECK(r);
        break;
    case query_pause:
        while ((r = cuStreamQuery(lane.stream)) == CUDA_ERROR_NOT_READY) {
            for (int i = 0; i < 64; i++) {
                _mm_pause();
            }
        }
        PROBE_CHECK(r);
        break;
    case event_sync:
        PROBE_CHECK(cuEventRecord(lane.event, lane.stream));
        PROBE_CHECK(cuEventSynchronize(lane.event));
        break;
    case launch_only:
        if (++lane.launches % 64 == 0) {
            PROBE_CHECK(cuStreamSynchronize(lane.stream));
        }
        break;
    default:
        break;
    }
}

}  // namespace

int main(int argc, char **argv) {
    const double seconds = argument(argc, argv, 1, 0.4);
    const int rounds = static_cast<int>(argument(argc, argv, 2, 2));
    const int kernels = static_cast<int>(argument(argc, argv, 3, 4));
    const bool primary = argc > 4 && std::string(argv[4]) == "primary";
    PROBE_CHECK(cuInit(0));
    CUdevice device;
    PROBE_CHECK(cuDeviceGet(&device, 0));
    char name[128];
    PROBE_CHECK(cuDeviceGetName(name, sizeof name, device));
    CUcontext context = nullptr;
    if (primary) {
        PROBE_CHECK(cuDevicePrimaryCtxRetain(&context, device));
    } else {  // as Halide's runtime makes its own
        CUctxCreateParams params{};
        PROBE_CHECK(cuCtxCreate(&context, &params, 0, device));
    }
    PROBE_CHECK(cuCtxSetCurrent(context));
    CUmodule module;
    CUfunction stage, signal;
    PROBE_CHECK(cuModuleLoadData(&module, kernels_ptx));
    PROBE_CHECK(cuModuleGetFunction(&stage, module, "stage"));
    PROBE_CHECK(cuModuleGetFunction(&signal, module, "signal"));
    std::printf("%s, %s context, %d kernels per graph, %u host CPUs, %.2f s per row\n", name,
                primary ? "primary" : "created", kernels, std::thread::hardware_concurrency(), seconds);
    const int kMostThreads = 16;
    std::vector<GraphLane> lanes(kMostThreads);
    for (GraphLane &lane : lanes) {
        lane.make(context, stage);
        void *host = nullptr;
        PROBE_CHECK(cuMemHostAlloc(&host, 64, CU_MEMHOSTALLOC_DEVICEMAP | CU_MEMHOSTALLOC_PORTABLE));
        lane.word = static_cast<volatile unsigned *>(host);
        PROBE_CHECK(cuMemHostGetDevicePointer(&lane.word_device, host, 0));
        PROBE_CHECK(cuEventCreate(&lane.event, CU_EVENT_DISABLE_TIMING));
        lane.plain = capture(lane, kernels, stream_sync, signal);
        lane.with_memop = capture(lane, kernels, word_memop, signal);
        lane.with_kernel = capture(lane, kernels, word_kernel, signal);
    }
    for (int round = 0; round < rounds; round++) {
        for (int w = 0; w < wait_kinds; w++) {
            for (int threads : {1, 8, 16}) {
                std::vector<Lane *> used;
                for (int t = 0; t < threads; t++) {
                    used.push_back(&lanes[t]);
                }
                const Measured m = run_threads(used, seconds, [&](int t) { call(lanes[t], static_cast<Wait>(w)); });
                std::printf("round %d  %-13s T=%-2d %9.0f calls/s  p50 %6.1f us  p99 %6.1f us\n", round, kWaitNames[w],
                            threads, m.calls_per_second, m.p50_us, m.p99_us);
                std::fflush(stdout);
            }
        }
    }
    return 0;
}
