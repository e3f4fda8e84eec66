#pragma once
/// @file Array.h
/// @brief Strided 2-D views and owning 3-D arrays with 64-byte aligned rows.
///
/// `Array3<T>` stores dims {n0, n1, n2} with n2 the fastest axis; each row of n2 elements starts
/// on a 64-byte boundary (`pitch() >= n2`, padding elements are zero). `View2<T>` is a
/// non-owning rows x cols window with a row pitch, the unit most kernels work on.
///
/// TomoStation uses them as:
///  - sinogram stacks `[slice][angle][detector]` (see `Sinograms`),
///  - volumes `[z][y][x]` (see `Volume`); a 2-D image is a volume of depth 1.

#include <array>
#include <cassert>
#include <cstddef>
#include <span>

#include "core/base/Status.h"
#include "core/data/AlignedBuffer.h"

namespace tomo {

/// Non-owning 2-D view: `rows` rows of `cols` elements, `pitch` elements apart.
template <class T>
class View2 {
  public:
    View2() = default;
    View2(T* data, std::size_t rows, std::size_t cols, std::size_t pitch)
        : m_data(data), m_rows(rows), m_cols(cols), m_pitch(pitch) {
        assert(pitch >= cols);
    }
    /// A const view of a mutable one.
    operator View2<const T>() const { return {m_data, m_rows, m_cols, m_pitch}; }  // NOLINT

    std::size_t rows() const { return m_rows; }
    std::size_t cols() const { return m_cols; }
    std::size_t pitch() const { return m_pitch; }
    T* data() const { return m_data; }
    std::span<T> row(std::size_t r) const {
        assert(r < m_rows);
        return {m_data + r * m_pitch, m_cols};
    }
    T& operator()(std::size_t r, std::size_t c) const {
        assert(r < m_rows && c < m_cols);
        return m_data[r * m_pitch + c];
    }
    /// Rows [first, first + count).
    View2 rowRange(std::size_t first, std::size_t count) const {
        assert(first + count <= m_rows);
        return {m_data + first * m_pitch, count, m_cols, m_pitch};
    }

  private:
    T* m_data = nullptr;
    std::size_t m_rows = 0;
    std::size_t m_cols = 0;
    std::size_t m_pitch = 0;
};

/// Owning 3-D array, n2 fastest, 64-byte aligned rows, zero-initialised (but for
/// createUninitialised()).
template <class T>
class Array3 {
  public:
    Array3() = default;
    /// Throws std::bad_alloc when memory is exhausted; prefer `create` for user-sized data.
    Array3(std::size_t n0, std::size_t n1, std::size_t n2)
        : m_dims{n0, n1, n2}, m_pitch(alignedCount<T>(n2)), m_buffer(n0 * n1 * m_pitch) {}

    /// Allocates without throwing: OutOfMemory with the size in the message when it fails.
    static Result<Array3> create(std::size_t n0, std::size_t n1, std::size_t n2) {
        return allocate(n0, n1, n2, true);
    }
    /// As create(), but every element, padding included, is left uninitialised and no page is
    /// touched (4 KiB pages: huge-page advice measured 0.18-4.5 s per GiB of first touch on a
    /// shared machine, direct compaction, against 0.9-1.3 s without): for a producer that
    /// writes every element and the padding (zero) before anything reads them, so that the
    /// pages are first touched by its writers instead of a serial zero fill (issue 27: FBP's
    /// output, 32 GiB at 2048^3, zeroed on one thread before the first chunk).
    static Result<Array3> createUninitialised(std::size_t n0, std::size_t n1, std::size_t n2) {
        return allocate(n0, n1, n2, false);
    }

    Array3(Array3&&) noexcept = default;
    Array3& operator=(Array3&&) noexcept = default;
    Array3 clone() const {
        Array3 c;
        c.m_dims = m_dims;
        c.m_pitch = m_pitch;
        c.m_buffer = m_buffer.clone();
        return c;
    }

    const std::array<std::size_t, 3>& dims() const { return m_dims; }
    std::size_t dim(int i) const { return m_dims[static_cast<std::size_t>(i)]; }
    std::size_t pitch() const { return m_pitch; }
    /// Number of logical elements (n0 * n1 * n2), padding excluded.
    std::size_t elementCount() const { return m_dims[0] * m_dims[1] * m_dims[2]; }
    bool empty() const { return elementCount() == 0; }

    T* data() { return m_buffer.data(); }
    const T* data() const { return m_buffer.data(); }

    T& operator()(std::size_t i0, std::size_t i1, std::size_t i2) {
        assert(i0 < m_dims[0] && i1 < m_dims[1] && i2 < m_dims[2]);
        return m_buffer[(i0 * m_dims[1] + i1) * m_pitch + i2];
    }
    const T& operator()(std::size_t i0, std::size_t i1, std::size_t i2) const {
        assert(i0 < m_dims[0] && i1 < m_dims[1] && i2 < m_dims[2]);
        return m_buffer[(i0 * m_dims[1] + i1) * m_pitch + i2];
    }
    std::span<T> row(std::size_t i0, std::size_t i1) { return plane(i0).row(i1); }
    std::span<const T> row(std::size_t i0, std::size_t i1) const { return plane(i0).row(i1); }

    /// The 2-D plane at index i0 (a sinogram of a stack, a slice of a volume).
    View2<T> plane(std::size_t i0) {
        assert(i0 < m_dims[0] || m_dims[0] == 0);
        return {data() + i0 * m_dims[1] * m_pitch, m_dims[1], m_dims[2], m_pitch};
    }
    View2<const T> plane(std::size_t i0) const {
        assert(i0 < m_dims[0] || m_dims[0] == 0);
        return {data() + i0 * m_dims[1] * m_pitch, m_dims[1], m_dims[2], m_pitch};
    }
    /// All n0*n1 rows as one view (rows of consecutive planes follow each other).
    View2<T> rows() { return {data(), m_dims[0] * m_dims[1], m_dims[2], m_pitch}; }
    View2<const T> rows() const { return {data(), m_dims[0] * m_dims[1], m_dims[2], m_pitch}; }

    void fill(T value) {
        for (std::size_t r = 0; r < m_dims[0] * m_dims[1]; ++r)
            for (T& v : rows().row(r))
                v = value;
    }

  private:
    static Result<Array3> allocate(std::size_t n0, std::size_t n1, std::size_t n2, bool zero) {
        Array3 a;
        a.m_dims = {n0, n1, n2};
        a.m_pitch = alignedCount<T>(n2);
        const std::size_t count = n0 * n1 * a.m_pitch;
        if (!a.m_buffer.tryAllocate(count, false, zero))
            return outOfMemory("cannot allocate " + std::to_string(n0) + "x" + std::to_string(n1) +
                               "x" + std::to_string(n2) + " array (" +
                               std::to_string(count * sizeof(T) >> 20) + " MiB)");
        return a;
    }

    std::array<std::size_t, 3> m_dims{0, 0, 0};
    std::size_t m_pitch = 0;
    AlignedBuffer<T> m_buffer;
};

/// Sinogram stack `[slice][angle][detector]`, float32: `plane(s)` is the sinogram of slice s.
using Sinograms = Array3<float>;
/// Volume `[z][y][x]`, float32: `plane(z)` is slice z; row 0 is the top of the image (max y).
using Volume = Array3<float>;

/// Copies the logical elements of a plane into a dense row-major vector-like output.
template <class T, class Out>
void copyDense(View2<const T> src, Out* dst) {
    for (std::size_t r = 0; r < src.rows(); ++r)
        for (std::size_t c = 0; c < src.cols(); ++c)
            dst[r * src.cols() + c] = src(r, c);
}

}  // namespace tomo
