#pragma once
// The backend-parametrised harness of the Fourier-domain tests (FourierMethodTest.cpp): one test
// source for every implementation. Which one is decided at link time: each test executable
// links one file defining these (tests/core/fourier/CpuFourierBackend.cpp: the CPU's;
// tests/gpu/CudaFourierBackend.cpp: CUDA's, registered on device 0 when it has one).
#include <memory>
#include <string>

#include "DeviceSkip.h"
#include "core/fourier/FourierMethod.h"

namespace tomo::test {

/// The implementations of the executable (the CPU's always, to compare with).
const FourierRegistry& fourierTestRegistry();
/// The backend under test: "cpu" or "cuda".
std::string fourierBackendUnderTest();

}  // namespace tomo::test

/// Declares @p name, the implementation under test; skips the test without it (fails with
/// TOMO_REQUIRE_DEVICE set, DeviceSkip.h).
#define TOMO_FOURIER_METHOD(name)                                                          \
    auto name##Made =                                                                      \
        ::tomo::test::fourierTestRegistry().make(::tomo::test::fourierBackendUnderTest()); \
    if (!name##Made.isOk()) TOMO_DEVICE_SKIP(name##Made.status().message());               \
    ::tomo::FourierReconstructor& name = **name##Made
