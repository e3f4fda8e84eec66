#pragma once
/// @file AlignedBuffer.h
/// @brief Owning, 64-byte aligned storage for trivially copyable elements: zero-initialised, or
/// left uninitialised for a caller that writes every element (AlignedBuffer::tryAllocate).

#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <span>
#include <type_traits>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace tomo {

inline constexpr std::size_t kAlignment = 64;  ///< bytes; one cache line, one AVX-512 vector

/// Rounds an element count up so that rows of @p T start on a kAlignment boundary.
template <class T>
constexpr std::size_t alignedCount(std::size_t n) {
    constexpr std::size_t per = kAlignment / sizeof(T);
    return (n + per - 1) / per * per;
}

/// Advises the kernel to back [@p p, @p p + @p bytes) with transparent huge pages (Linux; advice
/// only: it may be refused, and elsewhere it does nothing). Outside the class so that its
/// preprocessor branches do not hide the class from clang-format.
inline void adviseHugePages(void* p, std::size_t bytes) noexcept {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    (void)madvise(p, bytes, MADV_HUGEPAGE);
#else
    (void)p;
    (void)bytes;
#endif
}

template <class T>
class AlignedBuffer {
    static_assert(std::is_trivially_copyable_v<T>);

  public:
    AlignedBuffer() = default;
    /// Allocates @p count zeroed elements; check `size()` or use `tryAllocate` for large sizes.
    explicit AlignedBuffer(std::size_t count) { allocate(count); }

    /// Allocates without throwing; returns false when memory is exhausted. @p hugePages: for
    /// buffers of many MiB walked with large strides (gridrec's grid): aligned to 2 MiB and,
    /// on Linux, advised as transparent huge pages, so first touch and strided access fault and
    /// miss the TLB once per 2 MiB instead of once per 4 KiB. @p zero false: the elements are
    /// left uninitialised (no page is touched here), for a caller that writes every one of them
    /// before reading any, so that the pages are first touched by its (parallel) writers.
    bool tryAllocate(std::size_t count, bool hugePages = false, bool zero = true) noexcept {
        m_data.reset();
        m_size = 0;
        if (count == 0) return true;
        constexpr std::size_t kHuge = std::size_t{2} << 20;
        const std::size_t align = hugePages ? kHuge : kAlignment;
        std::size_t bytes = (count * sizeof(T) + align - 1) / align * align;
        void* p = std::aligned_alloc(align, bytes);
        if (!p) return false;
        if (hugePages) adviseHugePages(p, bytes);
        if (zero) std::memset(p, 0, bytes);
        m_data.reset(static_cast<T*>(p));
        m_size = count;
        return true;
    }

    AlignedBuffer clone() const {
        AlignedBuffer copy(m_size);
        if (m_size) std::memcpy(copy.data(), data(), m_size * sizeof(T));
        return copy;
    }

    T* data() { return m_data.get(); }
    const T* data() const { return m_data.get(); }
    std::size_t size() const { return m_size; }
    bool empty() const { return m_size == 0; }
    std::span<T> span() { return {data(), m_size}; }
    std::span<const T> span() const { return {data(), m_size}; }
    T& operator[](std::size_t i) { return m_data.get()[i]; }
    const T& operator[](std::size_t i) const { return m_data.get()[i]; }

  private:
    void allocate(std::size_t count) {
        if (!tryAllocate(count)) throw std::bad_alloc();
    }
    struct Free {
        void operator()(T* p) const noexcept { std::free(p); }
    };
    std::unique_ptr<T, Free> m_data;
    std::size_t m_size = 0;
};

}  // namespace tomo
