#pragma once
/// @file Half.h
/// @brief IEEE 754 binary16 ("half") conversion for the half-precision sinogram storage of the
/// GPU back-projectors (paper 002's half variants), one function for CUDA and OpenCL, and back
/// (gridrec's half images on CUDA).

#include <cstdint>
#include <cstring>

namespace tomo {

/// The binary16 bits of @p value, rounded to nearest, ties to even; values beyond the largest
/// half (65504, and 65520 and above after rounding) become infinity; NaN stays NaN (quiet).
inline std::uint16_t floatToHalf(float value) {
    std::uint32_t x = 0;
    std::memcpy(&x, &value, sizeof x);
    const std::uint32_t sign = (x >> 16) & 0x8000u;
    const std::uint32_t absBits = x & 0x7fffffffu;
    if (absBits >= 0x7f800000u)  // Inf or NaN
        return static_cast<std::uint16_t>(sign | 0x7c00u | (absBits > 0x7f800000u ? 0x200u : 0u));
    if (absBits >= 0x477ff000u)  // rounds to >= 65520: overflow to infinity
        return static_cast<std::uint16_t>(sign | 0x7c00u);
    if (absBits < 0x38800000u) {  // subnormal half (|v| < 2^-14) or zero
        if (absBits < 0x33000000u) return static_cast<std::uint16_t>(sign);  // < 2^-25: zero
        const std::uint32_t mant = (absBits & 0x7fffffu) | 0x800000u;
        const int shift = 126 - static_cast<int>(absBits >> 23);  // 14..24 + 1
        std::uint32_t h = mant >> (shift);
        const std::uint32_t rem = mant & ((1u << shift) - 1u), halfway = 1u << (shift - 1);
        if (rem > halfway || (rem == halfway && (h & 1u))) ++h;
        return static_cast<std::uint16_t>(sign | h);
    }
    std::uint32_t h = ((absBits - 0x38000000u) >> 13);  // rebias exponent 127 -> 15
    const std::uint32_t rem = absBits & 0x1fffu;
    if (rem > 0x1000u || (rem == 0x1000u && (h & 1u))) ++h;
    return static_cast<std::uint16_t>(sign | h);
}

/// The float value of binary16 bits @p h (exact: every half is a float).
inline float halfToFloat(std::uint16_t h) {
    const std::uint32_t sign = static_cast<std::uint32_t>(h & 0x8000u) << 16;
    const std::uint32_t exponent = (h >> 10) & 0x1fu, mantissa = h & 0x3ffu;
    std::uint32_t bits = 0;
    if (exponent == 0x1fu) {  // Inf or NaN
        bits = sign | 0x7f800000u | (mantissa << 13);
    } else if (exponent != 0) {
        bits = sign | ((exponent + 112u) << 23) | (mantissa << 13);
    } else if (mantissa != 0) {  // subnormal half: normalise
        int shift = 0;
        std::uint32_t m = mantissa;
        while ((m & 0x400u) == 0) {
            m <<= 1;
            ++shift;
        }
        bits = sign | ((113u - static_cast<std::uint32_t>(shift)) << 23) | ((m & 0x3ffu) << 13);
    } else {
        bits = sign;
    }
    float value = 0;
    std::memcpy(&value, &bits, sizeof value);
    return value;
}

}  // namespace tomo
