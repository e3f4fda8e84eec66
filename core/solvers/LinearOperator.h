#pragma once
/// @file LinearOperator.h
/// @brief The operator A (forward projection) and its adjoint A^T (back-projection) that every
/// solver is written against, plus vector helpers. Vectors are flat float spans over the volume
/// ([slice][y][x]) and the sinogram stack ([slice][angle][detector]).
///
/// A solver needs only this interface, so the same SIRT or CGLS runs on the on-the-fly CPU
/// projectors (paper 001), on the MemXCT sparse matrix (paper 000) and, later, on device
/// operators. Storage is host memory here; a device operator keeps its own device copies and
/// converts at the boundary (device-resident vectors are a later refinement of this interface).

#include <cstddef>
#include <span>
#include <string>

#include "core/base/ExecContext.h"
#include "core/base/Status.h"

namespace tomo {

/// @brief y = A x and x = A^T y. Implementations may hold scratch memory and are not
/// thread-safe (they may use threads inside). Both calls overwrite their output.
class LinearOperator {
  public:
    virtual ~LinearOperator() = default;
    virtual std::size_t domainSize() const = 0;  ///< length of x (volume voxels)
    virtual std::size_t rangeSize() const = 0;   ///< length of y (sinogram samples)
    /// True when adjoint() is the exact transpose of forward() (dot-product test to float
    /// rounding); CGLS requires it for its guarantees, SIRT does not.
    virtual bool matchedAdjoint() const = 0;
    virtual std::string name() const = 0;
    /// y = A x. InvalidArgument on wrong sizes, Cancelled when ctx.stop fired.
    virtual Status forward(std::span<const float> x, std::span<float> y,
                           const ExecContext& ctx) = 0;
    /// x = A^T y. InvalidArgument on wrong sizes, Cancelled when ctx.stop fired.
    virtual Status adjoint(std::span<const float> y, std::span<float> x,
                           const ExecContext& ctx) = 0;
};

}  // namespace tomo
