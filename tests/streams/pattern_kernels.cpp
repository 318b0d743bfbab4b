// The pattern kernels (pattern_kernels.h): PTX for any GPU of compute
// capability 7.0 or later, compiled by the driver when loaded.
#include "pattern_kernels.h"

namespace harena_test {

namespace {

constexpr unsigned kBlock = 256;  // threads per block; check's shared array has one word each
constexpr unsigned kGrid = 132;

const char *const kPtx = R"(
.version 7.0
.target sm_70
.address_size 64

.visible .entry harena_fill(.param .u64 f_ptr, .param .u32 f_n, .param .u32 f_value, .param .u64 f_delay)
{
    .reg .pred %p<3>;
    .reg .b32 %r<10>;
    .reg .b64 %rd<8>;
    ld.param.u64 %rd1, [f_ptr];
    ld.param.u32 %r1, [f_n];
    ld.param.u32 %r2, [f_value];
    ld.param.u64 %rd2, [f_delay];
    cvta.to.global.u64 %rd1, %rd1;
    mov.u64 %rd3, %globaltimer;
    add.u64 %rd4, %rd3, %rd2;
FILL_SPIN:
    mov.u64 %rd5, %globaltimer;
    setp.lt.u64 %p1, %rd5, %rd4;
    @%p1 bra FILL_SPIN;
    mov.u32 %r3, %ctaid.x;
    mov.u32 %r4, %ntid.x;
    mov.u32 %r5, %tid.x;
    mad.lo.u32 %r6, %r3, %r4, %r5;
    mov.u32 %r7, %nctaid.x;
    mul.lo.u32 %r8, %r7, %r4;
FILL_LOOP:
    setp.ge.u32 %p2, %r6, %r1;
    @%p2 bra FILL_DONE;
    xor.b32 %r9, %r2, %r6;
    mul.wide.u32 %rd6, %r6, 4;
    add.u64 %rd7, %rd1, %rd6;
    st.global.u32 [%rd7], %r9;
    add.u32 %r6, %r6, %r8;
    bra FILL_LOOP;
FILL_DONE:
    ret;
}

.visible .entry harena_check(.param .u64 c_ptr, .param .u32 c_n, .param .u32 c_value, .param .u64 c_delay,
                             .param .u64 c_errors)
{
    .shared .align 4 .b32 counts[256];
    .reg .pred %p<6>;
    .reg .b32 %r<16>;
    .reg .b64 %rd<14>;
    ld.param.u64 %rd1, [c_ptr];
    ld.param.u32 %r1, [c_n];
    ld.param.u32 %r2, [c_value];
    ld.param.u64 %rd2, [c_delay];
    ld.param.u64 %rd8, [c_errors];
    cvta.to.global.u64 %rd1, %rd1;
    cvta.to.global.u64 %rd8, %rd8;
    mov.u64 %rd3, %globaltimer;
    add.u64 %rd4, %rd3, %rd2;
CHECK_SPIN:
    mov.u64 %rd5, %globaltimer;
    setp.lt.u64 %p1, %rd5, %rd4;
    @%p1 bra CHECK_SPIN;
    mov.u32 %r3, %ctaid.x;
    mov.u32 %r4, %ntid.x;
    mov.u32 %r5, %tid.x;
    mad.lo.u32 %r6, %r3, %r4, %r5;
    mov.u32 %r7, %nctaid.x;
    mul.lo.u32 %r8, %r7, %r4;
    mov.u32 %r10, 0;
CHECK_LOOP:
    setp.ge.u32 %p2, %r6, %r1;
    @%p2 bra CHECK_SUM;
    mul.wide.u32 %rd6, %r6, 4;
    add.u64 %rd7, %rd1, %rd6;
    ld.global.u32 %r9, [%rd7];
    xor.b32 %r11, %r2, %r6;
    setp.ne.u32 %p3, %r9, %r11;
    selp.u32 %r12, 1, 0, %p3;
    add.u32 %r10, %r10, %r12;
    add.u32 %r6, %r6, %r8;
    bra CHECK_LOOP;
CHECK_SUM:
    mov.u64 %rd9, counts;
    mul.wide.u32 %rd10, %r5, 4;
    add.u64 %rd11, %rd9, %rd10;
    st.shared.u32 [%rd11], %r10;
    bar.sync 0;
    setp.ne.u32 %p4, %r5, 0;
    @%p4 bra CHECK_DONE;
    mov.u32 %r13, 0;
    mov.u32 %r14, 0;
CHECK_ADD:
    setp.ge.u32 %p5, %r14, %r4;
    @%p5 bra CHECK_REPORT;
    mul.wide.u32 %rd12, %r14, 4;
    add.u64 %rd13, %rd9, %rd12;
    ld.shared.u32 %r15, [%rd13];
    add.u32 %r13, %r13, %r15;
    add.u32 %r14, %r14, 1;
    bra CHECK_ADD;
CHECK_REPORT:
    red.global.add.u32 [%rd8], %r13;
CHECK_DONE:
    ret;
}
)";

template<typename PFN>
bool look_up(PFN &f, const char *name) {
    f = harena::detail::cuda_symbol<PFN>(name);
    return f != nullptr;
}

const StreamTestDriver *load_driver() {
    static StreamTestDriver d;
    bool ok = look_up(d.init, "cuInit") && look_up(d.device_count, "cuDeviceGetCount") &&
              look_up(d.device_get, "cuDeviceGet") && look_up(d.device_name, "cuDeviceGetName") &&
              look_up(d.primary_ctx_retain, "cuDevicePrimaryCtxRetain") &&
              look_up(d.ctx_set_current, "cuCtxSetCurrent") && look_up(d.stream_create, "cuStreamCreate") &&
              look_up(d.stream_destroy, "cuStreamDestroy_v2") && look_up(d.stream_synchronize, "cuStreamSynchronize") &&
              look_up(d.module_load_data, "cuModuleLoadData") && look_up(d.module_get_function, "cuModuleGetFunction") &&
              look_up(d.launch_kernel, "cuLaunchKernel") && look_up(d.mem_alloc, "cuMemAlloc_v2") &&
              look_up(d.mem_free, "cuMemFree_v2") && look_up(d.mem_host_alloc, "cuMemHostAlloc") &&
              look_up(d.mem_host_get_device_pointer, "cuMemHostGetDevicePointer_v2") &&
              look_up(d.mem_free_host, "cuMemFreeHost");
    int devices = 0;
    ok = ok && d.init(0) == CUDA_SUCCESS && d.device_count(&devices) == CUDA_SUCCESS && devices > 0;
    return ok ? &d : nullptr;
}

CUfunction fill_kernel = nullptr;
CUfunction check_kernel = nullptr;
CUcontext context = nullptr;
char name[128] = "unknown GPU";

void launch(CUstream stream, CUfunction kernel, void **arguments) {
    (void)stream_test_driver()->launch_kernel(kernel, kGrid, 1, 1, kBlock, 1, 1, 0, stream, arguments, nullptr);
}

}  // namespace

const StreamTestDriver *stream_test_driver() {
    static const StreamTestDriver *driver = harena::detail::libcuda() != nullptr ? load_driver() : nullptr;
    return driver;
}

bool load_pattern_kernels(const char **why) {
    const StreamTestDriver *d = stream_test_driver();
    if (d == nullptr) {
        *why = "no CUDA driver or no GPU";
        return false;
    }
    if (context == nullptr) {
        CUdevice device = 0;
        CUmodule module = nullptr;
        if (d->device_get(&device, 0) != CUDA_SUCCESS || d->primary_ctx_retain(&context, device) != CUDA_SUCCESS ||
            d->ctx_set_current(context) != CUDA_SUCCESS || d->module_load_data(&module, kPtx) != CUDA_SUCCESS ||
            d->module_get_function(&fill_kernel, module, "harena_fill") != CUDA_SUCCESS ||
            d->module_get_function(&check_kernel, module, "harena_check") != CUDA_SUCCESS) {
            *why = "the pattern kernels did not load";
            context = nullptr;
            return false;
        }
        (void)d->device_name(name, sizeof name, device);
    }
    return d->ctx_set_current(context) == CUDA_SUCCESS;
}

const char *gpu_name() {
    return name;
}

ErrorCount::ErrorCount() {
    const StreamTestDriver *d = stream_test_driver();
    if (d->mem_host_alloc(&host, sizeof(uint32_t), CU_MEMHOSTALLOC_DEVICEMAP) == CUDA_SUCCESS) {
        *static_cast<uint32_t *>(host) = 0;
        (void)d->mem_host_get_device_pointer(&device, host, 0);
    }
}

ErrorCount::~ErrorCount() {
    if (host != nullptr) {
        (void)stream_test_driver()->mem_free_host(host);
    }
}

void fill_pattern(CUstream stream, uint64_t address, uint32_t words, uint32_t value, uint64_t delay_ns) {
    void *arguments[] = {&address, &words, &value, &delay_ns};
    launch(stream, fill_kernel, arguments);
}

void check_pattern(CUstream stream, uint64_t address, uint32_t words, uint32_t value, uint64_t delay_ns,
                   const ErrorCount &errors) {
    CUdeviceptr counter = errors.device;
    void *arguments[] = {&address, &words, &value, &delay_ns, &counter};
    launch(stream, check_kernel, arguments);
}

}  // namespace harena_test
