#pragma once
/// @file LoadJob.h
/// @brief The GUI's File > Open as a plain C++ job (no Qt): any file of the format registry
/// (app/data/DataFormats.h) to a reconstructable Dataset, as `tomo recon` reads it
/// (app/data/AcquisitionLoader.h): acquisitions (HDF5) get flat/dark normalisation and -log when
/// they have flats and bring their angles; sinogram stacks (TIFF, raw, ITK formats) are read as
/// stored, [slice][angle][detector], with the angles the user states.
///
/// Geometry (docs/geometry.md): parallel beam, detector pitch 1 (lengths in detector pixels),
/// rotation axis at the detector centre (detectors - 1) / 2, an n x n image grid of
/// n = detectors, one reconstructed slice per sinogram, as `tomo recon` without --center,
/// --detector-pitch and --size.
///
/// Threading: runs on any thread (JobRunner's worker in the GUI); checks ctx.stop between
/// stages and reports "reading" / "preprocessing" progress.

#include <array>
#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>

#include "app/jobs/DemoJob.h"
#include "core/base/ExecContext.h"
#include "core/base/Status.h"
#include "core/dataset/ProjectionData.h"
#include "core/preprocess/Preprocess.h"

namespace tomo::app {

/// What the user states besides the path.
struct LoadRequest {
    std::filesystem::path path;
    /// Raw files: [slices][angles][detectors], float32 little-endian (`tomo recon --shape
    /// ANGLESxDETECTORSxSLICES`). Other formats carry their own shape.
    std::optional<std::array<std::size_t, 3>> shape;
    /// Angles of files that hold none (sinogram stacks): `count` = the stack's angle dimension
    /// spread uniformly over [firstDegrees, endDegrees) (end exclusive, as --angles). Ignored
    /// when the file has its own angles.
    double firstDegrees = 0.0;
    double endDegrees = 180.0;
    AngleUnit angleUnit = AngleUnit::Auto;  ///< unit of angles stored in the file
    /// The format the file must be read as (FileFormat::name: "raw", "tiff", "hdf5", ...);
    /// empty = whichever its extension names. A restored session states the format it was
    /// opened with, so that a build reading the extension otherwise says so.
    std::string format;
    /// Preprocessing asked besides the defaults (the GUI's Preprocessing panel): acquisitions
    /// get it on top of flat/dark and -log (acquisitionPreprocessing, as `tomo recon`'s
    /// options); sinogram stacks get forSinograms of it (core/preprocess/SinogramPreprocess.h:
    /// rings, zingers, crop, binning, and angle selection, which keeps the subset of the
    /// angles stated by firstDegrees/endDegrees for all the stack's projections; the rest
    /// InvalidArgument, as `tomo recon`).
    PreprocessOptions preprocessing;
    /// Acquisitions with flats: take -ln of the normalised transmission (off for data whose
    /// normalised transmission is wanted, as `tomo recon --no-log`).
    bool minusLog = true;

    /// Equal fields; the preprocessing compares by describe().
    bool operator==(const LoadRequest& other) const;
};

/// The dataset folder @p folder (loadDataset) with @p preprocessing applied to its sinogram
/// stack (forSinograms; SinogramPreprocess.h): the steps that keep its shape (rings, zingers);
/// crop, binning and angle selection are InvalidArgument pointing to Region and sampling,
/// flat/dark, Paganin and -log InvalidArgument saying why. Cancelled on ctx.stop.
Result<Dataset> loadDatasetFolder(const std::filesystem::path& folder,
                                  const PreprocessOptions& preprocessing, const ExecContext& ctx);

/// The name of the format @p path is read as (by its extension); error as loadDataFile's.
Result<std::string> dataFileFormat(const std::filesystem::path& path);

/// Reads @p request.path into a Dataset (truth empty). InvalidArgument for an unknown extension
/// (listing the known ones), a format other than @p request.format, a raw file without shape
/// or an empty angle range; the reader's error naming the file otherwise; Cancelled when
/// ctx.stop fires.
Result<Dataset> loadDataFile(const LoadRequest& request, const ExecContext& ctx);

}  // namespace tomo::app
