#pragma once
// The GPU tests' rule for a missing device, shared by every test source that runs on a device
// (GpuTestSupport.h, tests/core/fourier's backend-parametrised tests): skip, or fail on a GPU
// machine's run (TOMO_REQUIRE_DEVICE).
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

namespace tomo::test {

/// TOMO_REQUIRE_DEVICE set to anything but "" or "0": a GPU machine's run, where a missing or
/// invisible device (broken driver, container without the GPU) is a defect, not a reason to
/// skip. Read on every call (tests may change it).
inline bool deviceRequired() {
    const char* v = std::getenv("TOMO_REQUIRE_DEVICE");
    return v != nullptr && *v != '\0' && std::string(v) != "0";
}

}  // namespace tomo::test

/// Every "no device" skip of the GPU tests goes through this: skips with @p why, or fails the
/// test (fatally, returning from the function) when deviceRequired().
#define TOMO_DEVICE_SKIP(why)                                                     \
    do {                                                                          \
        if (::tomo::test::deviceRequired())                                       \
            GTEST_FAIL() << "TOMO_REQUIRE_DEVICE is set, but no device: " << why; \
        else                                                                      \
            GTEST_SKIP() << why;                                                  \
    } while (false)
