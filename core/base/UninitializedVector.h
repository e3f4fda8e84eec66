#pragma once
/// @file UninitializedVector.h
/// @brief A std::vector whose resize() leaves new trivial elements uninitialised, for large
/// buffers that several threads fill in parallel (issue 27 item 4): value-initialising them
/// first would touch every fresh page on one thread (0.6-1.3 s per GiB on the VMs measured),
/// and then the fill, on its threads, would touch them again. Whoever resizes one must write
/// every element before it is read.

#include <memory>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

namespace tomo {

/// std::allocator, except that a value-initialising construct() default-initialises instead.
template <typename T, typename Base = std::allocator<T>>
class DefaultInitAllocator : public Base {
  public:
    template <typename U>
    struct rebind {
        using other =
            DefaultInitAllocator<U, typename std::allocator_traits<Base>::template rebind_alloc<U>>;
    };
    using Base::Base;
    DefaultInitAllocator() = default;
    template <typename U, typename B>
    DefaultInitAllocator(const DefaultInitAllocator<U, B>& other) noexcept : Base(other) {}

    template <typename U>
    void construct(U* p) noexcept(std::is_nothrow_default_constructible_v<U>) {
        ::new (static_cast<void*>(p)) U;
    }
    template <typename U, typename... Args>
    void construct(U* p, Args&&... args) {
        std::allocator_traits<Base>::construct(static_cast<Base&>(*this), p,
                                               std::forward<Args>(args)...);
    }
};

template <typename T>
using UninitializedVector = std::vector<T, DefaultInitAllocator<T>>;

}  // namespace tomo
