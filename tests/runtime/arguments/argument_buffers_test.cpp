// harena_argument_copy_to_device, the call a planned pipeline makes for each
// input: Halide's halide_copy_to_device, which takes a lock shared by every
// copy in the process, only where there is something to do. A public table
// over the fake device counts the calls that reach Halide's copy path.
#include <cstring>
#include <vector>

#include "harena/pipeline_abi.h"
#include "host_arena.h"
#include "override_fixture.h"

using harena_test::Buf;
using harena_test::fake_device_interface;

namespace {

int copies_entered = 0;

const halide_device_interface_t *counting_interface();

int counting_copy_to_device(void *user_context, halide_buffer_t *buf, const halide_device_interface_t *iface) {
    copies_entered++;
    return halide_copy_to_device(user_context, buf, iface);
}

// The fake device's table (its backend included) with a counted copy entry.
const halide_device_interface_t *counting_interface() {
    static const halide_device_interface_t table = [] {
        halide_device_interface_t t = *fake_device_interface();
        t.copy_to_device = counting_copy_to_device;
        return t;
    }();
    return &table;
}

// The fake device's memory of a buffer (host memory), as floats.
std::vector<float> device_values(const halide_buffer_t &buf) {
    std::vector<float> values(buf.number_of_elements());
    std::memcpy(values.data(), reinterpret_cast<const void *>(buf.device), values.size() * sizeof(float));
    return values;
}

// A buffer with the fake device's memory, handed to the counting table.
struct DeviceInput : Buf {
    DeviceInput()
        : Buf(64) {
        EXPECT_EQ(halide_device_malloc(nullptr, &buf, fake_device_interface()), 0);
        buf.device_interface = counting_interface();
        host.assign(64, 1.5f);
        buf.host = reinterpret_cast<uint8_t *>(host.data());
    }
    ~DeviceInput() {
        buf.device_interface = fake_device_interface();
        (void)halide_device_free(nullptr, &buf);
    }
    std::vector<float> host;
};

// The override tests' fixture (override_fixture.h), under this file's name.
class ArgumentBuffers : public harena_test::Override {};

}  // namespace

TEST_F(ArgumentBuffers, AnInputAlreadyOnTheDeviceSkipsHalidesCopyPath) {
    DeviceInput in;
    std::memset(reinterpret_cast<void *>(in.buf.device), 0, in.bytes());
    copies_entered = 0;
    EXPECT_EQ(harena_argument_copy_to_device(nullptr, &in.buf, counting_interface()), 0);
    EXPECT_EQ(harena_argument_copy_to_device(nullptr, &in.buf, nullptr), 0) << "the buffer's own interface";
    EXPECT_EQ(copies_entered, 0) << "nothing to copy: Halide's copy (and its lock) not entered";
    EXPECT_EQ(device_values(in.buf), std::vector<float>(64, 0.0f)) << "the device's values are the newer ones";
}

TEST_F(ArgumentBuffers, AnInputNewerOnTheHostIsUploadedByHalide) {
    DeviceInput in;
    in.buf.set_host_dirty(true);
    copies_entered = 0;
    EXPECT_EQ(harena_argument_copy_to_device(nullptr, &in.buf, counting_interface()), 0);
    EXPECT_EQ(copies_entered, 1);
    EXPECT_EQ(device_values(in.buf), in.host);
    EXPECT_FALSE(in.buf.host_dirty());
    EXPECT_EQ(harena_argument_copy_to_device(nullptr, &in.buf, counting_interface()), 0);
    EXPECT_EQ(copies_entered, 1) << "clean after the upload";
}

TEST_F(ArgumentBuffers, AnInputOfAnotherInterfaceGetsHalidesError) {
    DeviceInput in;
    copies_entered = 0;
    EXPECT_NE(harena_argument_copy_to_device(nullptr, &in.buf, fake_device_interface()), 0)
        << "switching interfaces is Halide's error, not a skipped copy";
}

TEST_F(ArgumentBuffers, AnInputWithoutDeviceMemoryIsAllocatedAndUploaded) {
    Buf in(64);
    std::vector<float> host(64, 2.5f);
    in.buf.host = reinterpret_cast<uint8_t *>(host.data());
    in.buf.set_host_dirty(true);
    copies_entered = 0;
    ASSERT_EQ(harena_argument_copy_to_device(nullptr, &in.buf, counting_interface()), 0);
    EXPECT_EQ(copies_entered, 1);
    ASSERT_NE(in.buf.device, 0u);
    EXPECT_EQ(device_values(in.buf), host);
    in.buf.device_interface = fake_device_interface();
    EXPECT_EQ(halide_device_free(nullptr, &in.buf), 0);
}
