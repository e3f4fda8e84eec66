#pragma once
/// @file PythonScript.h
/// @brief The workstation's current request as a Python script (issue 30, "Copy as Python"):
/// the data as loaded, the angle sampling and grid, the centre, the algorithm and its
/// parameters, written as calls of the tomostation package (docs/python.md) that make the same
/// request of the same service, so the script reproduces the GUI's result bit for bit and runs
/// unchanged on a whole beamtime.
///
/// Numbers are written with 17 significant digits (they read back as the same doubles); the
/// angles are computed as the loader computed them (uniform_angles of the stated range,
/// read_dataset of a dataset folder). What a script cannot yet reproduce is refused with a
/// message (Unsupported): a generated demo that was never saved, an acquisition read with
/// preprocessing, a warm restart from a previous image. A sinogram stack's preprocessing
/// (rings, zingers, crop, binning) is written as ts.preprocess(..., sinograms=True).

#include <filesystem>
#include <map>
#include <optional>
#include <string>

#include "app/jobs/DatasetSampling.h"
#include "app/jobs/DemoJob.h"
#include "app/jobs/LoadJob.h"
#include "core/base/Status.h"
#include "core/recon/Fbp.h"

namespace tomo::app {

struct ScriptRequest {
    /// Where the data came from: a data file (File > Open), else a dataset folder
    /// (sinogram + geometry.txt, the bundled demo), else nothing a script can read.
    std::optional<LoadRequest> file;
    std::filesystem::path datasetFolder;
    /// The source's preprocessing (DatasetState::preprocessing): a sinogram stack's is written
    /// as ts.preprocess(..., sinograms=True); an acquisition's is refused.
    PreprocessOptions preprocessing;
    /// The dataset as loaded (centre chosen) and the sampling it is seen through.
    const Dataset* loaded = nullptr;
    Sampling sampling;
    /// The reconstructed dataset (loaded through sampling): its geometry and grid are stated.
    const Dataset* reconstructed = nullptr;
    std::string algorithm = "fbp";                  ///< "fbp" or an iterative id
    std::map<std::string, std::string> parameters;  ///< iterative: by parameter name
    FbpOptions fbp;                                 ///< FBP: window and cutoff
    std::string variant;  ///< FBP: the back-projector that ran (cpu.joseph: projector joseph)
    std::string backend = "auto";  ///< iterative: the operator backend
    bool warmStart = false;        ///< iterative: started from an image
};

/// The script of @p request (see the file comment); Unsupported for what it cannot reproduce,
/// InvalidArgument without data.
Result<std::string> pythonScript(const ScriptRequest& request);

}  // namespace tomo::app
