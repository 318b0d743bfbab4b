#include "fake_device.h"

#include <cstdlib>
#include <cstring>
#include <mutex>
#include <set>

#include "halide_defaults.h"
#include "harena/override.h"

// Halide's own helpers that its CUDA backend uses for these two entries.
extern "C" int halide_default_device_and_host_malloc(void *user_context, halide_buffer_t *buf,
                                                     const halide_device_interface_t *device_interface);
extern "C" int halide_default_device_and_host_free(void *user_context, halide_buffer_t *buf,
                                                   const halide_device_interface_t *device_interface);

namespace harena_test {

namespace {

// The backend's own allocations, behind a lock: threads allocate at once.
struct Owned {
    std::mutex mutex;
    std::set<uint64_t> addresses;
};

Owned &owned() {
    static Owned o;
    return o;
}

void own(uint64_t address) {
    std::lock_guard<std::mutex> lock(owned().mutex);
    owned().addresses.insert(address);
}

bool disown(uint64_t address) {
    std::lock_guard<std::mutex> lock(owned().mutex);
    return owned().addresses.erase(address) != 0;
}

void use_module() {
    fake_driver().module_uses++;
}

void release_module() {
    fake_driver().module_releases++;
}

int fake_malloc(void *, halide_buffer_t *buf) {
    if (buf->device != 0) {
        return 0;
    }
    void *p = std::malloc(buf->size_in_bytes());
    buf->device = reinterpret_cast<uint64_t>(p);
    buf->device_interface = fake_device_interface();
    own(buf->device);
    fake_driver().mallocs++;
    return 0;
}

int fake_free(void *, halide_buffer_t *buf) {
    if (buf->device == 0) {
        return 0;
    }
    if (!disown(buf->device)) {
        fake_driver().foreign_frees++;
    } else {
        std::free(reinterpret_cast<void *>(buf->device));
        fake_driver().frees++;
    }
    buf->device = 0;
    buf->device_interface = nullptr;
    return 0;
}

int fake_ok(void *, halide_buffer_t *) {
    return 0;
}

int fake_release(void *) {
    return 0;
}

// Dense buffers only, which is all the tests use.
int fake_copy_to_host(void *, halide_buffer_t *buf) {
    std::memcpy(buf->host, reinterpret_cast<void *>(buf->device), buf->size_in_bytes());
    return 0;
}

int fake_copy_to_device(void *, halide_buffer_t *buf) {
    std::memcpy(reinterpret_cast<void *>(buf->device), buf->host, buf->size_in_bytes());
    return 0;
}

int fake_device_and_host_malloc(void *uc, halide_buffer_t *buf) {
    return halide_default_device_and_host_malloc(uc, buf, fake_device_interface());
}

int fake_device_and_host_free(void *uc, halide_buffer_t *buf) {
    return halide_default_device_and_host_free(uc, buf, fake_device_interface());
}

// Dense buffers of the same size: device to device (moving a buffer out of a
// frame), and host to device or device to host (guard bands); the rest is
// Halide's to decompose.
int fake_buffer_copy(void *, halide_buffer_t *src, const halide_device_interface_t *dst_interface,
                     halide_buffer_t *dst) {
    const bool from_host = src->device == 0;
    const bool to_host = dst_interface == nullptr;
    const void *from = from_host ? static_cast<const void *>(src->host) : reinterpret_cast<const void *>(src->device);
    void *to = to_host ? static_cast<void *>(dst->host) : reinterpret_cast<void *>(dst->device);
    if (from == nullptr || to == nullptr || (from_host && to_host) || src->size_in_bytes() != dst->size_in_bytes()) {
        return halide_error_code_incompatible_device_interface;
    }
    std::memcpy(to, from, src->size_in_bytes());
    (from_host ? fake_driver().host_to_device_copies : to_host ? fake_driver().device_to_host_copies :
                                                                 fake_driver().device_copies)++;
    return 0;
}

int fake_crop(void *, const halide_buffer_t *, halide_buffer_t *) {
    return halide_error_code_device_crop_unsupported;
}

int fake_slice(void *, const halide_buffer_t *, int, int, halide_buffer_t *) {
    return halide_error_code_device_crop_unsupported;
}

// As halide_cuda_wrap_device_ptr / halide_cuda_detach_device_ptr: the bound
// buffer holds a module reference.
int fake_wrap(void *, halide_buffer_t *buf, uint64_t handle) {
    if (fake_driver().fail_next_wrap.exchange(false) || buf->device != 0) {
        return halide_error_code_device_wrap_native_failed;
    }
    buf->device = handle;
    use_module();
    fake_driver().wraps++;
    return 0;
}

int fake_detach(void *, halide_buffer_t *buf) {
    if (buf->device == 0) {
        return 0;
    }
    release_module();
    buf->device = 0;
    buf->device_interface = nullptr;
    fake_driver().detaches++;
    return 0;
}

const harena::override_detail::HalideDeviceImpl fake_impl = {
    use_module,                   // use_module
    release_module,               // release_module
    fake_malloc,                  // device_malloc
    fake_free,                    // device_free
    fake_ok,                      // device_sync
    fake_release,                 // device_release
    fake_copy_to_host,            // copy_to_host
    fake_copy_to_device,          // copy_to_device
    fake_device_and_host_malloc,  // device_and_host_malloc
    fake_device_and_host_free,    // device_and_host_free
    fake_buffer_copy,             // buffer_copy
    fake_crop,                    // device_crop
    fake_slice,                   // device_slice
    fake_ok,                      // device_release_crop
    fake_wrap,                    // wrap_native
    fake_detach,                  // detach_native
};

// Halide's generic entry points around the fake backend, with `wrap` and
// `detach` as the interface's public wrap_native and detach_native.
halide_device_interface_t interface_with(decltype(&halide_device_wrap_native) wrap,
                                         decltype(&halide_device_detach_native) detach) {
    return {
        halide_device_malloc,
        halide_device_free,
        halide_device_sync,
        halide_device_release,
        halide_copy_to_host,
        halide_copy_to_device,
        halide_device_and_host_malloc,
        halide_device_and_host_free,
        halide_buffer_copy,
        halide_device_crop,
        halide_device_slice,
        halide_device_release_crop,
        wrap,
        detach,
        nullptr,
        reinterpret_cast<const halide_device_interface_impl_t *>(&fake_impl),
    };
}

const halide_device_interface_t fake_interface = interface_with(halide_device_wrap_native, halide_device_detach_native);

int own_wrap_native(void *user_context, halide_buffer_t *buf, uint64_t handle,
                    const halide_device_interface_t *device_interface) {
    fake_driver().own_wraps++;
    return halide_device_wrap_native(user_context, buf, handle, device_interface);
}

int own_detach_native(void *user_context, halide_buffer_t *buf) {
    fake_driver().own_detaches++;
    return halide_device_detach_native(user_context, buf);
}

const halide_device_interface_t own_wrap_interface = interface_with(own_wrap_native, own_detach_native);

}  // namespace

const halide_device_interface_t *fake_device_interface() {
    return &fake_interface;
}

const halide_device_interface_t *fake_device_interface_with_own_wrap() {
    return &own_wrap_interface;
}

FakeDriverCounts &fake_driver() {
    static FakeDriverCounts counts;
    return counts;
}

void reset_fake_driver() {
    FakeDriverCounts &c = fake_driver();
    for (std::atomic<int> *count : {&c.mallocs, &c.frees, &c.foreign_frees, &c.wraps, &c.detaches, &c.device_copies,
                                    &c.host_to_device_copies, &c.device_to_host_copies, &c.module_uses,
                                    &c.module_releases, &c.own_wraps, &c.own_detaches}) {
        count->store(0);
    }
    c.fail_next_wrap.store(false);
}

}  // namespace harena_test
