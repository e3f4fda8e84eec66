// The CPU's side of FourierTestSupport.h: the core tests run FourierMethodTest.cpp on cpu.gridrec.
#include "FourierTestSupport.h"

namespace tomo::test {

const FourierRegistry& fourierTestRegistry() {
    static const FourierRegistry registry = [] {
        FourierRegistry r;
        registerCpuFourier(r);
        return r;
    }();
    return registry;
}

std::string fourierBackendUnderTest() {
    return "cpu";
}

}  // namespace tomo::test
