#include "device_views.h"

#include "HalideRuntimeCuda.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>

namespace bench {
namespace {

void check(int result, const char *what) {
    if (result != 0) {
        std::fprintf(stderr, "harena-gpu-bench: %s failed (%d)\n", what, result);
        std::exit(1);
    }
}

}  // namespace

DeviceBlock::DeviceBlock(uint64_t bytes) {
    dim_ = halide_dimension_t(0, static_cast<int32_t>(bytes), 1);
    buf_.type = halide_type_of<uint8_t>();
    buf_.dimensions = 1;
    buf_.dim = &dim_;
    check(halide_device_malloc(nullptr, &buf_, halide_cuda_device_interface()), "halide_device_malloc");
}

DeviceBlock::~DeviceBlock() {
    (void)halide_device_free(nullptr, &buf_);
}

void DeviceBlock::fill_random(uint32_t seed, float low, float high) {
    std::vector<float> values(bytes() / sizeof(float));
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> value(low, high);
    for (float &v : values) {
        v = value(rng);
    }
    halide_dimension_t dim(0, static_cast<int32_t>(values.size()), 1);
    halide_buffer_t host{};
    host.type = halide_type_of<float>();
    host.dimensions = 1;
    host.dim = &dim;
    host.host = reinterpret_cast<uint8_t *>(values.data());
    host.device = buf_.device;
    host.device_interface = buf_.device_interface;
    host.set_host_dirty(true);
    check(halide_copy_to_device(nullptr, &host, buf_.device_interface), "halide_copy_to_device");
}

DeviceView::DeviceView(const std::vector<int> &extents, uint64_t address)
    : DeviceView(static_cast<int>(extents.size())) {
    int32_t stride = 1;
    for (size_t d = 0; d < extents.size(); d++) {
        dim_[d] = halide_dimension_t(0, extents[d], stride);
        stride *= extents[d];
    }
    bind(address);
}

DeviceView::DeviceView(int dimensions) {
    if (dimensions < 1 || dimensions > 4) {
        std::fprintf(stderr, "harena-gpu-bench: views have 1 to 4 dimensions, not %d\n", dimensions);
        std::exit(1);
    }
    buf_.type = halide_type_of<float>();
    buf_.dimensions = dimensions;
    buf_.dim = dim_;
}

void DeviceView::bind(uint64_t address) {
    buf_.device = address;
    buf_.device_interface = halide_cuda_device_interface();
}

std::vector<float> DeviceView::read() const {
    std::vector<float> values(bytes() / sizeof(float));
    halide_buffer_t host = buf_;
    host.host = reinterpret_cast<uint8_t *>(values.data());
    host.flags = 0;
    host.set_device_dirty(true);
    check(halide_copy_to_host(nullptr, &host), "halide_copy_to_host");
    return values;
}

void DeviceView::poison() {
    std::vector<float> values(bytes() / sizeof(float), std::nanf(""));
    halide_buffer_t host = buf_;
    host.host = reinterpret_cast<uint8_t *>(values.data());
    host.flags = 0;
    host.set_host_dirty(true);
    check(halide_copy_to_device(nullptr, &host, buf_.device_interface), "halide_copy_to_device");
}

}  // namespace bench
