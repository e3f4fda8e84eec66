#pragma once
/// @file ReconInputs.h
/// @brief What `tomo recon` reads: sinogram stacks (.raw, .tif: [slice][angle][detector]) or
/// acquisitions (HDF5 DXchange/NXtomo: projections [angle][row][column] with flats, darks and
/// angles), turned into sinograms ready for filtered back-projection.

#include <cstddef>
#include <string>
#include <vector>

#include "core/base/Status.h"
#include "core/data/Array.h"
#include "core/preprocess/Preprocess.h"

namespace tomo::cli {

class ArgParser;

/// Reads the INPUT of @p args. An acquisition is normalised with its flats and darks and
/// converted to line integrals (-log, non-positive transmissions clamped) through
/// core/preprocess when it has flats (used as stored otherwise), then transposed into one
/// sinogram per detector row; @p fileAngles receives its angles (radians; empty when the file
/// has none). Sinogram stacks are read by readStack (--shape) and give no angles.
/// What readReconInput learnt besides the sinograms.
struct ReconInputInfo {
    std::vector<double> angles;       ///< from the file (radians), empty when it has none
    PreprocessOptions preprocessing;  ///< the steps applied (for provenance and the centre)
};

Result<Sinograms> readReconInput(const ArgParser& args, ReconInputInfo* info);

/// The preprocessing of an acquisition with @p flatCount flat frames: the options of @p args,
/// plus flat/dark normalisation and -log (unless --no-log) when it has flats.
Result<PreprocessOptions> acquisitionPreprocessing(const ArgParser& args, std::size_t flatCount);

/// The projection angles in radians: --angles when given (it overrides the file's), else
/// @p fileAngles, else InvalidArgument asking for --angles.
Result<std::vector<double>> reconAngles(const ArgParser& args,
                                        const std::vector<double>& fileAngles);

}  // namespace tomo::cli
