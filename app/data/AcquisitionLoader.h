#pragma once
/// @file AcquisitionLoader.h
/// @brief Files to sinograms ready for filtered back-projection, shared by `tomo recon`
/// (app/recon/SinogramSource.h) and the GUI's File > Open (app/jobs/LoadJob.h).
///
/// Two kinds of input (FormatRegistry.h):
///  - acquisitions (HDF5 DXchange/NXtomo, format "hdf5"): projections [angle][row][column] with
///    flats, darks and angles. Whenever the file has flat frames they are normalised with their
///    flats and darks (I - D) / (F - D) and converted to line integrals -ln(T) with non-positive
///    transmissions clamped (core/preprocess, Beer-Lambert law; Kak & Slaney, "Principles of
///    Computerized Tomographic Imaging", SIAM 2001, doi:10.1137/1.9780898719277, ch. 4), then
///    transposed into one sinogram per detector row. Without flats the projections are used as
///    stored (assumed line integrals already);
///  - sinogram stacks (every other format: TIFF, raw, the ITK formats): [slice][angle][detector]
///    float32, read as stored through FormatRegistry::readVolume. They carry no angles.
///
/// Angles are radians. Sinograms follow docs/geometry.md: [slice][angle][detector].
///
/// Threading: the functions are re-entrant; HDF5 reading holds the HDF5 library's lock (one
/// read at a time). Cancellation and progress come through the ExecContext.

#include <cstddef>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "core/base/ExecContext.h"
#include "core/base/Status.h"
#include "core/data/Array.h"
#include "core/dataset/FormatRegistry.h"
#include "core/preprocess/Preprocess.h"

namespace tomo::app {

/// Sinograms read from a file and what was learnt on the way.
struct LoadedSinograms {
    Sinograms sinograms;              ///< [slice][angle][detector]
    std::vector<double> angles;       ///< from the file (radians), empty when it has none
    PreprocessOptions preprocessing;  ///< the steps applied (for provenance and the centre)
    std::string format;               ///< the registry's format name ("hdf5", "tiff", "raw", ...)
};

/// True when @p format reads acquisitions (projections with flats, darks and angles) rather
/// than sinogram stacks: today the "hdf5" format, as `tomo recon` has always decided.
bool isAcquisitionFormat(const FileFormat& format);

/// The preprocessing applied to an acquisition with @p flatCount flat frames: @p requested,
/// plus flat/dark normalisation and (when @p minusLog) -log whenever it has flats; zinger
/// removal then runs on raw counts and replaces bright outliers only (without flats the frames
/// may be transmissions or line integrals: both signs, as asked).
PreprocessOptions acquisitionPreprocessing(PreprocessOptions requested, std::size_t flatCount,
                                           bool minusLog);

/// The preprocessing of an acquisition given its flat-frame count (options such as "the first N
/// flats were taken before the scan" depend on it); an error aborts the load.
using PreprocessingFor = std::function<Result<PreprocessOptions>(std::size_t flatCount)>;

/// Reads the acquisition @p path (an acquisition format), preprocesses it with
/// @p preprocessingFor(flats) (empty: acquisitionPreprocessing({}, flats, true), the default of
/// `tomo recon`) and transposes it to sinograms. Errors name the file; Cancelled when ctx.stop
/// fires between stages.
Result<LoadedSinograms> readAcquisitionSinograms(const FormatRegistry& registry,
                                                 const std::filesystem::path& path,
                                                 const ReadOptions& options,
                                                 const PreprocessingFor& preprocessingFor,
                                                 const ExecContext& ctx);

/// Any registered file as sinograms: acquisitions through readAcquisitionSinograms with the
/// default preprocessing (flat/dark and -log when it has flats), everything else read as a
/// sinogram stack (raw needs options.shape = [slices][angles][detectors]). InvalidArgument for
/// an unknown extension (listing the known ones), NotFound for a missing file, the reader's
/// error naming the file otherwise.
Result<LoadedSinograms> readSinogramFile(const FormatRegistry& registry,
                                         const std::filesystem::path& path,
                                         const ReadOptions& options, const ExecContext& ctx);

}  // namespace tomo::app
