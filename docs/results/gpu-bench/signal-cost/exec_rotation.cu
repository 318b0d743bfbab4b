// Replaying one graph exec over and over against 16 execs of the same
// kernels in turn (a graph cache keyed by size replays one graph per size).
#include <cuda.h>
#include <cuda_runtime.h>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>
#define CK(x)                                      \
    do {                                           \
        CUresult e = (x);                          \
        if (e != CUDA_SUCCESS) {                   \
            std::printf("%s failed: %d\n", #x, e); \
            std::exit(1);                          \
        }                                          \
    } while (0)
__global__ void stage(float *out, const float *in, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i] * 0.5f + 1.0f;
}
using Clock = std::chrono::steady_clock;
static double med(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}
int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 1 << 16;
    int K = 3, G = 16;
    CK(cuInit(0));
    CUdevice dev;
    CK(cuDeviceGet(&dev, 0));
    CUcontext ctx;
    CK(cuDevicePrimaryCtxRetain(&ctx, dev));
    CK(cuCtxSetCurrent(ctx));
    CUstream s;
    CK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    cudaStream_t rs = (cudaStream_t)s;
    std::vector<float *> a(G), b(G);
    for (int g = 0; g < G; g++) {
        cudaMalloc(&a[g], n * 8);
        cudaMalloc(&b[g], n * 8);
        cudaMemset(a[g], 0, n * 8);
    }
    std::vector<CUgraphExec> ex(G);
    for (int g = 0; g < G; g++) {
        CK(cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_RELAXED));
        for (int k = 0; k < K; k++)
            stage<<<(n + 255) / 256, 256, 0, rs>>>(k % 2 ? a[g] : b[g], k % 2 ? b[g] : a[g], n);
        CUgraph gr;
        CK(cuStreamEndCapture(s, &gr));
        CK(cuGraphInstantiate(&ex[g], gr, 0));
    }
    for (int mode = 0; mode < 3; mode++) {
        std::vector<double> t;
        for (int r = 0; r < 400; r++) {
            auto t0 = Clock::now();
            for (int i = 0; i < 16; i++)
                CK(cuGraphLaunch(ex[mode == 0 ? 0 : mode == 1 ? i :
                                                                (i / 4)],
                                 s));
            CK(cuStreamSynchronize(s));
            t.push_back(std::chrono::duration<double, std::micro>(Clock::now() - t0).count() / 16);
        }
        std::printf("%d floats: %-32s %6.2f us/launch\n", n, mode == 0 ? "one exec, 16 launches" : mode == 1 ? "16 execs in turn" :
                                                                                                               "4 execs, 4 launches each",
                    med(t));
    }
    return 0;
}
