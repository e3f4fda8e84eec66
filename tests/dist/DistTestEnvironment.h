#pragma once
/// @file DistTestEnvironment.h
/// @brief The MPI session of the distributed tests (DistTestMain.cpp): every rank runs every
/// test; rank 0 prints, the others' results count through the exit code.

#include <cstring>

#include "core/data/Array.h"
#include "core/dist/Communicator.h"

namespace tomo::test {

/// True when @p a and @p b have the same shape and every element the same bits.
inline bool sameBits(const Array3<float>& a, const Array3<float>& b) {
    if (a.dims() != b.dims()) return false;
    for (std::size_t r = 0; r < a.dim(0) * a.dim(1); ++r)
        if (std::memcmp(a.rows().row(r).data(), b.rows().row(r).data(), a.dim(2) * 4) != 0)
            return false;
    return true;
}

struct DistEnvironment {
    /// The world communicator of the test run (valid while the tests run).
    static Communicator& world();
};

}  // namespace tomo::test
