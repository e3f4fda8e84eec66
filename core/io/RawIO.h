#pragma once
/// @file RawIO.h
/// @brief Headerless ("raw") binary stacks of any common element type and byte order, read by
/// plane and row ranges and converted to float32, and written from float32.
///
/// A raw file holds `headerBytes` bytes to skip, then dims[0] x dims[1] x dims[2] elements with
/// dims[2] (columns) fastest: [plane][row][column], the layout of ImageIO.h. Element types: u8,
/// u16, u32, i16, i32 (unsigned/signed integers), f32, f64 (IEEE-754), little- or big-endian.
/// The float32 little-endian case is also readRawFloat32/writeRawFloat32 of ImageIO.h.
///
/// Conversion to float32: integers up to 2^24 in magnitude are exact, larger 32-bit integers round
/// to the nearest float. NaN or infinite f32/f64 values and f64 values beyond the float32 range
/// are InvalidData naming the file and the (plane, row, column) of the first one.
///
/// Errors (never exceptions): NotFound (missing file), InvalidData (file size differs from
/// headerBytes + element count x element size: truncated or trailing bytes; NaN/Inf),
/// InvalidArgument (zero or overflowing dims, a range outside the stack, a value that the chosen
/// integer type cannot hold when writing), IoError (system calls, with the system's reason).
///
/// Threading: reentrant; no shared state.

#include <array>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

#include "core/base/Status.h"
#include "core/data/Array.h"
#include "core/io/ReadRange.h"

namespace tomo {

/// Element type of a raw file.
enum class RawType { U8, U16, U32, I16, I32, F32, F64 };
/// Byte order of multi-byte elements.
enum class ByteOrder { Little, Big };

/// Size in bytes of one element (1, 2, 4 or 8).
std::size_t rawTypeSize(RawType type);
/// Short name: "u8", "u16", "u32", "i16", "i32", "f32", "f64".
const char* rawTypeName(RawType type);
/// Parses a short name or its long form ("uint16", "int32", "float32", "float64", "double").
/// InvalidArgument listing the accepted names otherwise.
Result<RawType> parseRawType(std::string_view text);

/// @brief Shape, element type, byte order and header size of a raw file.
struct RawSpec {
    std::array<std::size_t, 3> dims{0, 0, 0};  ///< planes, rows, columns (columns fastest)
    RawType type = RawType::F32;
    ByteOrder order = ByteOrder::Little;
    std::uint64_t headerBytes = 0;  ///< bytes skipped at the start of the file

    /// "4x256x512 u16 big-endian, 0-byte header".
    std::string toString() const;
};

/// Parses "PLANESxROWSxCOLS[:TYPE][:le|:be][:skip=BYTES]", e.g. "90x64x128:u16:be:skip=512";
/// the type defaults to f32, the order to little-endian. A 2-D "ROWSxCOLS" means one plane.
/// InvalidArgument naming the offending part.
Result<RawSpec> parseRawSpec(std::string_view text);

/// Reads @p range of a raw file described by @p spec into [plane][row][column] float32. Only the
/// selected rows are read (one seek per plane and row block).
Result<Array3<float>> readRaw(const std::filesystem::path& path, const RawSpec& spec,
                              const ReadRange& range = {});

/// Writes the logical elements of @p data as @p type in @p order, no header, atomically.
/// Integer types store round-to-nearest values; a non-finite value or one outside the type's
/// range is InvalidArgument naming it and its (plane, row, column), and nothing is written.
/// f32 is exact, f64 widens exactly.
Status writeRaw(const std::filesystem::path& path, const Array3<float>& data, RawType type,
                ByteOrder order = ByteOrder::Little);

}  // namespace tomo
