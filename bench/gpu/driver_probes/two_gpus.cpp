// The driver's own scaling from one GPU to two, with the same threads per
// GPU: what harena-threads-bench's "x one GPU" cells can be compared with.
// Each thread has a non-blocking stream on its GPU's primary context and
// makes calls of one kind:
//   launches + stream sync   four stage launches, cuStreamSynchronize
//   launches + ctx sync      the same, cuCtxSynchronize (as halide_device_sync without a stream)
//   alloc + launches + free  three cuMemAlloc, the launches, cuCtxSynchronize, three cuMemFree
//   graph + stream sync      a graph of the four launches, cuStreamSynchronize
// usage: harena-probe-two-gpus [seconds=0.3] [rounds=3]
#include "probe_common.h"

using namespace probe;

namespace {

enum Kind { launches_stream_sync,
            launches_ctx_sync,
            alloc_launches_free,
            graph_stream_sync,
            kinds };
const char *const kKindNames[] = {"launches + stream sync", "launches + ctx sync", "alloc + launches + free",
                                  "graph + stream sync"};

struct GpuLane : Lane {
    CUgraphExec graph = nullptr;
};

void call(GpuLane &lane, Kind kind) {
    switch (kind) {
    case launches_stream_sync:
        lane.launch_chain(4);
        PROBE_CHECK(cuStreamSynchronize(lane.stream));
        break;
    case launches_ctx_sync:
        lane.launch_chain(4);
        PROBE_CHECK(cuCtxSynchronize());
        break;
    case alloc_launches_free: {
        CUdeviceptr scratch[3];
        for (CUdeviceptr &p : scratch) {
            PROBE_CHECK(cuMemAlloc(&p, 1 << 16));
        }
        lane.launch_chain(4);
        PROBE_CHECK(cuCtxSynchronize());
        for (CUdeviceptr p : scratch) {
            PROBE_CHECK(cuMemFree(p));
        }
        break;
    }
    case graph_stream_sync:
        PROBE_CHECK(cuGraphLaunch(lane.graph, lane.stream));
        PROBE_CHECK(cuStreamSynchronize(lane.stream));
        break;
    default:
        break;
    }
}

}  // namespace

int main(int argc, char **argv) {
    const double seconds = argument(argc, argv, 1, 0.3);
    const int rounds = static_cast<int>(argument(argc, argv, 2, 3));
    PROBE_CHECK(cuInit(0));
    int devices = 0;
    PROBE_CHECK(cuDeviceGetCount(&devices));
    if (devices < 2) {
        std::printf("harena-probe-two-gpus: %d GPU(s); two are needed\n", devices);
        return 0;
    }
    const int kMostPerGpu = 8;
    std::vector<GpuLane> lanes(2 * kMostPerGpu);  // lane 2k on GPU 0, 2k+1 on GPU 1
    for (int gpu = 0; gpu < 2; gpu++) {
        CUdevice device;
        CUcontext context;
        CUmodule module;
        CUfunction stage;
        PROBE_CHECK(cuDeviceGet(&device, gpu));
        PROBE_CHECK(cuDevicePrimaryCtxRetain(&context, device));
        PROBE_CHECK(cuCtxSetCurrent(context));
        PROBE_CHECK(cuModuleLoadData(&module, kernels_ptx));
        PROBE_CHECK(cuModuleGetFunction(&stage, module, "stage"));
        for (int k = 0; k < kMostPerGpu; k++) {
            GpuLane &lane = lanes[2 * k + gpu];
            lane.make(context, stage);
            PROBE_CHECK(cuStreamBeginCapture(lane.stream, CU_STREAM_CAPTURE_MODE_THREAD_LOCAL));
            lane.launch_chain(4);
            CUgraph graph;
            PROBE_CHECK(cuStreamEndCapture(lane.stream, &graph));
            PROBE_CHECK(cuGraphInstantiate(&lane.graph, graph, 0));
        }
    }
    char name[128];
    CUdevice first;
    PROBE_CHECK(cuDeviceGet(&first, 0));
    PROBE_CHECK(cuDeviceGetName(name, sizeof name, first));
    std::printf("2x %s, %u host CPUs, %.2f s per row\n", name, std::thread::hardware_concurrency(), seconds);
    auto measure = [&](Kind kind, int gpus, int per_gpu) {
        std::vector<Lane *> used;
        std::vector<GpuLane *> typed;
        for (int k = 0; k < per_gpu; k++) {
            for (int gpu = 0; gpu < gpus; gpu++) {
                used.push_back(&lanes[2 * k + gpu]);
                typed.push_back(&lanes[2 * k + gpu]);
            }
        }
        return run_threads(used, seconds, [&](int t) { call(*typed[t], kind); });
    };
    for (int round = 0; round < rounds; round++) {
        for (int k = 0; k < kinds; k++) {
            for (int per_gpu : {1, 8}) {
                const Measured one = measure(static_cast<Kind>(k), 1, per_gpu);
                const Measured two = measure(static_cast<Kind>(k), 2, per_gpu);
                std::printf("round %d  %-24s T=%d per GPU: one GPU %8.0f calls/s, two %8.0f: %.2fx (least busy thread %.2f of the busiest)\n",
                            round, kKindNames[k], per_gpu, one.calls_per_second, two.calls_per_second,
                            two.calls_per_second / one.calls_per_second, two.slowest_over_fastest);
                std::fflush(stdout);
            }
        }
    }
    return 0;
}
