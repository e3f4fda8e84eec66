#pragma once
/// @file VariantLabel.h
/// @brief What a back-projector variant is, in words a user reads: the label of its entry in
/// the FBP form's list and its tooltip. The label names the backend, the kind of kernel, the
/// slices it does per pass and what sets it apart from its siblings (instruction set, thread
/// mapping, tile, caching, rounding, half-precision cache), then its id, so that every entry
/// is unique and the id a run reports can be found in the list:
///   "CPU SIMD, AVX-512, 16 slices per pass [cpu.simd.avx512.lin]"
///   "OpenCL ALU, tile 64x64, 16 px per thread, advanced caching [opencl.alu.acm.lin.1s.64x64]"
///   "CPU double-precision reference, float64 accumulation [cpu.reference.lin]"
/// The tooltip says the same at length, without references to papers' tables and algorithms.
///
/// Threading: none (pure functions).

#include <QString>

#include "core/projectors/BackProjector.h"

namespace tomo::ui {

/// The entry's label (without the speed), unique per variant id.
QString variantLabel(const BackProjectorInfo& info);

/// The entry's tooltip: the id, the description in plain words, exact or approximate.
QString variantTooltip(const BackProjectorInfo& info);

}  // namespace tomo::ui
