// Microbenchmark: what a graph's completion signal costs. Graphs of K small
// kernels, ended by nothing, by a one-thread signal kernel, or by a captured
// cuStreamWriteValue64 to host-mapped memory.
#include <cuda.h>
#include <cuda_runtime.h>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CK(x)                                            \
    do {                                                 \
        CUresult e = (x);                                \
        if (e != CUDA_SUCCESS) {                         \
            const char *s;                               \
            cuGetErrorString(e, &s);                     \
            std::printf("%s failed: %d %s\n", #x, e, s); \
            std::exit(1);                                \
        }                                                \
    } while (0)

__global__ void stage(float *out, const float *in, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i] * 0.5f + 1.0f;
}
__global__ void signal_kernel(unsigned long long *count, volatile unsigned long long *word) {
    unsigned long long c = *count + 1;
    *count = c;
    __threadfence_system();
    *word = c;
}

using Clock = std::chrono::steady_clock;
static double med(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 1 << 16;  // elements per stage
    int K = argc > 2 ? atoi(argv[2]) : 3;        // stages
    CK(cuInit(0));
    CUdevice dev;
    CK(cuDeviceGet(&dev, 0));
    char name[256];
    cuDeviceGetName(name, 256, dev);
    int memops = 0;
    cuDeviceGetAttribute(&memops, CU_DEVICE_ATTRIBUTE_CAN_USE_64_BIT_STREAM_MEM_OPS, dev);
    CUcontext ctx;
    CK(cuDevicePrimaryCtxRetain(&ctx, dev));
    CK(cuCtxSetCurrent(ctx));
    CUstream s;
    CK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    float *a, *b;
    cudaMalloc(&a, n * 4);
    cudaMalloc(&b, n * 4);
    cudaMemset(a, 0, n * 4);
    unsigned long long *count;
    cudaMalloc(&count, 8);
    cudaMemset(count, 0, 8);
    unsigned long long *word;
    CK(cuMemHostAlloc((void **)&word, 8, CU_MEMHOSTALLOC_DEVICEMAP | CU_MEMHOSTALLOC_PORTABLE));
    *word = 0;
    CUdeviceptr word_dev;
    CK(cuMemHostGetDevicePointer(&word_dev, word, 0));
    cudaStream_t rs = (cudaStream_t)s;
    auto stages = [&] { for (int k = 0; k < K; k++) stage<<<(n + 255) / 256, 256, 0, rs>>>(k % 2 ? a : b, k % 2 ? b : a, n); };
    std::printf("device %s, 64-bit stream mem ops %d, %d stages of %d floats\n", name, memops, K, n);
    CUgraphExec ex[3];
    const char *names[3] = {"no signal", "signal kernel", "write-value node"};
    for (int v = 0; v < 3; v++) {
        CK(cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_RELAXED));
        stages();
        if (v == 1) signal_kernel<<<1, 1, 0, rs>>>(count, (volatile unsigned long long *)word_dev);
        CUresult w = CUDA_SUCCESS;
        if (v == 2) w = cuStreamWriteValue64(s, word_dev, 7, 0);
        CUgraph g;
        CUresult e = cuStreamEndCapture(s, &g);
        if (w != CUDA_SUCCESS || e != CUDA_SUCCESS) {
            std::printf("%s: write %d end %d\n", names[v], w, e);
            return 1;
        }
        CK(cuGraphInstantiate(&ex[v], g, 0));
    }
    const int R = 400, B = 16;
    // Throughput: B launches back to back, one sync.
    for (int v = -1; v < 3; v++) {
        std::vector<double> t;
        for (int r = 0; r < R; r++) {
            auto t0 = Clock::now();
            for (int i = 0; i < B; i++) {
                if (v < 0)
                    stages();
                else
                    CK(cuGraphLaunch(ex[v], s));
            }
            CK(cuStreamSynchronize(s));
            t.push_back(std::chrono::duration<double, std::micro>(Clock::now() - t0).count() / B);
        }
        std::printf("throughput  %-18s %7.2f us/call\n", v < 0 ? "plain launches" : names[v], med(t));
    }
    // Latency: one launch, then wait: stream sync, or spin on the word.
    for (int v = -1; v < 3; v++) {
        std::vector<double> t, t2;
        for (int r = 0; r < R * 4; r++) {
            if (v == 2) {
                CK(cuStreamSynchronize(s));
                *(volatile unsigned long long *)word = 0;
            }
            unsigned long long before = *(volatile unsigned long long *)word;
            auto t0 = Clock::now();
            if (v < 0)
                stages();
            else
                CK(cuGraphLaunch(ex[v], s));
            if (v == 1) {
                while (*(volatile unsigned long long *)word == before) {}
            } else if (v == 2) {
                while (*(volatile unsigned long long *)word != 7) {}
            } else
                CK(cuStreamSynchronize(s));
            t.push_back(std::chrono::duration<double, std::micro>(Clock::now() - t0).count());
        }
        std::printf("latency     %-18s %7.2f us/call (%s)\n", v < 0 ? "plain launches" : names[v], med(t), v >= 1 ? "spin on the word" : "cuStreamSynchronize");
    }
    return 0;
}
