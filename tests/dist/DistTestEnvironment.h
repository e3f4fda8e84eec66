#pragma once
/// @file DistTestEnvironment.h
/// @brief The MPI session of the distributed tests (DistTestMain.cpp): every rank runs every
/// test; rank 0 prints, the others' results count through the exit code.

#include "core/dist/Communicator.h"

namespace tomo::test {

struct DistEnvironment {
    /// The world communicator of the test run (valid while the tests run).
    static Communicator& world();
};

}  // namespace tomo::test
