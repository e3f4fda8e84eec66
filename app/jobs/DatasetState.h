#pragma once
/// @file DatasetState.h
/// @brief The one record of what the user has decided about the open parallel-beam dataset:
/// where the data come from (a file with what was stated for it and its preprocessing, a dataset
/// folder, the generated demo), the centre of rotation, and the sampling (angle subset and
/// reconstruction grid). Every step of the GUI reads it and writes it through the Session
/// (centre panel: the centre; Preprocessing: the file's preprocessing, read again; Region and
/// sampling: the sampling), so that no step undoes another: reading the file again with a ring
/// filter keeps the centre and the sampling, a new centre keeps the preprocessing.
///
/// The centre is stored in pixels of the detector as the file stores it (from the centre of pixel
/// 0, before cropping and binning), so that it survives a new crop or binning; the dataset seen
/// by the reconstruction carries it converted to the preprocessed detector (centerInLoaded).
///
/// Plain C++ (no Qt); pure functions of their inputs.

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "app/jobs/DatasetSampling.h"
#include "app/jobs/DemoJob.h"
#include "app/jobs/LoadJob.h"

namespace tomo::app {

/// Where the dataset came from: exactly one of a data file, a dataset folder or the demo.
struct DataSource {
    std::optional<LoadRequest> file;  ///< a data file, what was stated for it, its preprocessing
    std::filesystem::path folder;     ///< a dataset folder (tomo demo --write-data DIR)
    int demoSize = 0;                 ///< the generated demo's size; 0 for a file or folder
    /// A dataset folder's preprocessing (a sinogram stack: rings, zingers; loadDatasetFolder).
    /// A file keeps its own in file->preprocessing.
    PreprocessOptions folderPreprocessing;

    bool operator==(const DataSource& other) const {
        return file == other.file && folder == other.folder && demoSize == other.demoSize &&
               describe(folderPreprocessing) == describe(other.folderPreprocessing);
    }
    /// The same data read the same way, preprocessing aside (a reload of the same scan).
    bool sameScan(const DataSource& other) const;
};

struct DatasetState {
    DataSource source;
    /// Centre of rotation in pixels of the detector as stored (before cropping and binning);
    /// none: the data's own (the detector centre, or a dataset folder's geometry.txt).
    std::optional<double> center;
    /// What the reconstruction sees of the loaded data (angle subset, grid).
    Sampling sampling;

    /// The preprocessing of the source (a file's, or a folder's folderPreprocessing).
    PreprocessOptions preprocessing() const;
    bool operator==(const DatasetState& other) const {
        return source == other.source && center == other.center && sampling == other.sampling;
    }
};

/// The centre on the preprocessed detector for @p storedCenter on the stored one.
double centerInLoaded(double storedCenter, const PreprocessOptions& preprocessing);
/// The inverse: the centre on the stored detector for @p loadedCenter on the preprocessed one.
double centerInStored(double loadedCenter, const PreprocessOptions& preprocessing);

/// @p read (the dataset as read from the source) with @p state's centre, converted to its
/// detector; its sinograms copied from @p sinograms (null: read's own, for a caller that keeps
/// only one copy of them). InvalidArgument naming both centres when it falls outside the detector.
Result<Dataset> withStateCenter(const Dataset& read, const DatasetState& state,
                                const Sinograms* sinograms = nullptr);
/// @p read without its sinograms (geometry, grid, truth and notes): what a caller keeps of the
/// data as read once the loaded copy holds the sinograms.
Dataset withoutSinograms(const Dataset& read);

/// The decisions of @p state that change the data, one short phrase each, for the dataset's
/// header and a saved result's name: "centre 130.99 px", "preprocessing: rings vo size 5",
/// "90 of 180 angles (step 2); grid 512 x 512 px of 0.5, centre (0, 0)". Empty: as read.
/// @p seen is the dataset the reconstruction sees (its centre is quoted).
std::vector<std::string> describeState(const DatasetState& state, const Dataset& seen);

}  // namespace tomo::app
