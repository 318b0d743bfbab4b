// The probes' kernels, compiled to PTX by build.sh and loaded with
// cuModuleLoadData: a 1-D stage of about the size of chain4's at 64x64, and
// the one-thread kernel that writes a word of host memory.
extern "C" __global__ void stage(const float *in, float *out, int n, float k) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float left = in[i > 0 ? i - 1 : i], right = in[i + 1 < n ? i + 1 : i];
        out[i] = in[i] * k + (left + right) * 0.25f;
    }
}

extern "C" __global__ void signal(volatile unsigned *flag, unsigned value) {
    *flag = value;
}
