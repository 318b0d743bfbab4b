// Guard mode on a device arena, through the halide_device_malloc override:
// the bands of device slices are filled and read back with the device
// interface's own copies (fake_device.h's device memory is host memory, so
// the tests write past a buffer's end directly, as a faulty kernel would).
#include <cstring>
#include <string>
#include <vector>

#include "fake_device.h"
#include "harena/arena.hpp"
#include "harena/override.h"
#include "host_arena.h"

using harena_test::fake_device_interface;
using harena_test::fake_driver;
using harena_test::last_error_mentions;

namespace {

// A device-only intermediate of extent0 x extent1 floats.
struct DeviceBuf {
    DeviceBuf(int extent0, int extent1) {
        dim[0] = halide_dimension_t{0, extent0, 1, 0};
        dim[1] = halide_dimension_t{0, extent1, extent0, 0};
        buf.type = halide_type_of<float>();
        buf.dimensions = 2;
        buf.dim = dim;
    }
    uint8_t *device_bytes() const {
        return reinterpret_cast<uint8_t *>(buf.device);
    }
    halide_dimension_t dim[2];
    halide_buffer_t buf{};
};

class OverrideGuard : public ::testing::Test {
protected:
    OverrideGuard()
        : arena(harena::Arena::device(fake_device_interface(), 1 << 20, guarded())) {
    }

    static harena::Options guarded() {
        harena::Options o;
        o.guard = true;
        return o;
    }
    void SetUp() override {
        harena_test::reset_fake_driver();
    }

    harena::Arena arena;
};

}  // namespace

TEST_F(OverrideGuard, ABufferThatStaysInsideItsSliceIsCheckedThroughTheDeviceInterface) {
    harena_scope scope;
    ASSERT_EQ(harena_scope_begin(&scope, arena.get()), HARENA_OK);
    DeviceBuf f(16, 8);
    ASSERT_EQ(halide_device_malloc(nullptr, &f.buf, fake_device_interface()), 0);
    std::memset(f.device_bytes(), 1, f.buf.size_in_bytes());
    EXPECT_EQ(halide_device_free(nullptr, &f.buf), 0);
    EXPECT_EQ(harena_scope_end(&scope), HARENA_OK);
    EXPECT_EQ(arena.stats().guard_checks, 2u);  // the slice's band and the frame's first
    EXPECT_EQ(arena.stats().guard_damaged, 0u);
    EXPECT_EQ(fake_driver().host_to_device_copies, 2);
    EXPECT_EQ(fake_driver().device_to_host_copies, 2);
}

TEST_F(OverrideGuard, AnElementPastTheEndFailsTheFreeNamingTheBuffer) {
    harena_scope scope;
    ASSERT_EQ(harena_scope_begin(&scope, arena.get()), HARENA_OK);
    DeviceBuf f(16, 8);
    ASSERT_EQ(halide_device_malloc(nullptr, &f.buf, fake_device_interface()), 0);
    std::memset(f.device_bytes() + f.buf.size_in_bytes(), 0, 4);
    EXPECT_EQ(halide_device_free(nullptr, &f.buf), HARENA_ERROR_GUARD_DAMAGED);
    EXPECT_TRUE(last_error_mentions({"(float32, 16x8)", "from 1 to 4 bytes past its end"}));
    EXPECT_EQ(f.buf.device, 0u);  // freed all the same
    EXPECT_EQ(harena_scope_end(&scope), HARENA_OK);
}

TEST_F(OverrideGuard, ARowPastTheEndOfABufferStillBoundIsReportedWhenTheScopeEnds) {
    harena_scope scope;
    ASSERT_EQ(harena_scope_begin(&scope, arena.get()), HARENA_OK);
    DeviceBuf out(16, 8);
    ASSERT_EQ(halide_device_malloc(nullptr, &out.buf, fake_device_interface()), 0);
    std::memset(out.device_bytes() + out.buf.size_in_bytes(), 0, 16 * 4);
    // The scope's pop checks the band before the buffer moves out of the frame.
    EXPECT_EQ(harena_scope_end(&scope), HARENA_ERROR_GUARD_DAMAGED);
    EXPECT_TRUE(last_error_mentions({"(float32, 16x8)", "from 1 to 64 bytes past its end"}));
    EXPECT_EQ(arena.stats().evictions, 1u);
    EXPECT_EQ(halide_device_free(nullptr, &out.buf), 0);
}

TEST_F(OverrideGuard, ScopeEndThrowsTheDamageItsPopFound) {
    DeviceBuf out(16, 8);
    {
        harena::Scope scope(arena);
        ASSERT_EQ(halide_device_malloc(nullptr, &out.buf, fake_device_interface()), 0);
        std::memset(out.device_bytes() + out.buf.size_in_bytes(), 0, 8);
        try {
            scope.end();
            FAIL() << "a damaged band was not reported by Scope::end()";
        } catch (const harena::Error &e) {
            EXPECT_EQ(e.code(), HARENA_ERROR_GUARD_DAMAGED);
            EXPECT_NE(std::string(e.what()).find("(float32, 16x8)"), std::string::npos) << e.what();
        }
        scope.end();  // ended already: nothing more to report
    }                 // nor does the destructor pop again
    EXPECT_EQ(arena.stats().evictions, 1u);
    EXPECT_EQ(halide_device_free(nullptr, &out.buf), 0);
}

// Halide allocates an input's device memory inside halide_copy_to_device,
// holding its device copy lock: the band's copies must not take it again.
TEST_F(OverrideGuard, AnUploadAllocatesItsSliceAndFillsItsBandInsideHalidesCopy) {
    harena_scope scope;
    ASSERT_EQ(harena_scope_begin(&scope, arena.get()), HARENA_OK);
    DeviceBuf in(16, 8);
    std::vector<float> values(16 * 8, 2.0f);
    in.buf.host = reinterpret_cast<uint8_t *>(values.data());
    in.buf.set_host_dirty(true);
    ASSERT_EQ(halide_copy_to_device(nullptr, &in.buf, fake_device_interface()), 0);
    EXPECT_EQ(reinterpret_cast<const float *>(in.buf.device)[16 * 8 - 1], 2.0f);
    EXPECT_EQ(in.device_bytes()[in.buf.size_in_bytes()], 0xA5);
    EXPECT_EQ(halide_device_free(nullptr, &in.buf), 0);
    EXPECT_EQ(harena_scope_end(&scope), HARENA_OK);
    EXPECT_EQ(arena.stats().guard_damaged, 0u);
}
