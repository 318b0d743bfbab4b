#pragma once
// A parameterized GPU test skips where no CUDA device is usable (CI), and
// runs on the device machine.
#include "cuda_driver.h"

#include <gtest/gtest.h>

namespace harena_test {

template<typename Param>
class CudaTestWithParam : public ::testing::TestWithParam<Param> {
protected:
    void SetUp() override {
        if (!cuda_usable()) {
            GTEST_SKIP() << "no usable CUDA device";
        }
    }
};

}  // namespace harena_test
