#pragma once
/// @file RawShape.h
/// @brief What a raw float32 file's size allows: the shape the GUI's raw dialogs suggest
/// (File > Open reconstruction, File > Open data file) and check as the user types, so that a
/// shape that does not fit the file is seen before it is read.
///
/// Plain C++; pure functions.

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>

namespace tomo::app {

/// Floats in a raw float32 file of @p bytes (none when the size is not a multiple of 4).
std::optional<std::uintmax_t> rawFloats(std::uintmax_t bytes);

/// {planes, n, n} with planes * n * n = @p floats and planes <= n, n as small as that allows
/// (the most cube-like stack of square images, as reconstructions are: 2^28 floats give
/// 256 x 1024 x 1024); {1, 1, floats} when only that fits. Zero floats: none.
std::optional<std::array<std::size_t, 3>> squareStackShape(std::uintmax_t floats);

/// The third dimension that makes {?, @p b, @p c} hold @p floats exactly (none when it cannot).
std::optional<std::size_t> remainingDimension(std::uintmax_t floats, std::size_t b, std::size_t c);

}  // namespace tomo::app
