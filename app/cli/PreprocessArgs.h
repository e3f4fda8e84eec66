#pragma once
/// @file PreprocessArgs.h
/// @brief The preprocessing options shared by `tomo preprocess` and `tomo recon`
/// (implemented in PreprocessCommand.cpp): declare them on a parser, then turn the parsed
/// values into core/preprocess's PreprocessOptions.
///
/// Options: --flat-dark, --flats-before N, --no-log, --zinger T, --zinger-size K,
/// --rings vo|fw, --ring-size K, --ring-levels L, --ring-sigma S, --paganin E,Z,PIX,DB
/// (keV, mm, um, delta/beta), --bin N or RxC, --crop R0:R1,C0:C1 (half-open, empty = all),
/// --angle-range FIRST:END[:STEP].

#include <cstddef>

#include "app/cli/ArgParser.h"
#include "core/base/Status.h"
#include "core/preprocess/Preprocess.h"

namespace tomo::cli {

/// `tomo preprocess`'s parser: INPUT, -o, the read options and the preprocessing options
/// (the Python module's preprocess() parses its keywords with it).
ArgParser preprocessParser();
/// Declares the preprocessing options on @p args.
void addPreprocessOptions(ArgParser& args);
/// PreprocessOptions from the parsed @p args; @p flatCount (flat frames of the input) is needed
/// by --flats-before. InvalidArgument naming the option for malformed values.
Result<PreprocessOptions> preprocessOptionsFromArgs(const ArgParser& args, std::size_t flatCount);

}  // namespace tomo::cli
