#pragma once
/// @file Selection.h
/// @brief Application glue of the variant selection (core/selection): where the cache lives,
/// what its key is made of, the sweep run by `tomo tune`, the cached choice used by
/// defaultVariant(), and the explanation printed by `tomo devices --explain`.
///
/// Cache file: `$XDG_CACHE_HOME/tomostation/selection.json`, else
/// `$HOME/.cache/tomostation/selection.json` (XDG Base Directory specification); no cache when
/// neither variable is set. Key: backend, device name, driver, compute capability (CUDA) and
/// this build (TOMO_VERSION, compiler and build type from tomo/config.h), so a new driver or a
/// rebuilt TomoStation ignores an old choice until `tomo tune` runs again.
/// Threading: functions read the environment and files; call them from one thread at a time
/// per process when tuning (the cache file is replaced atomically, the last writer wins).

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/base/ExecContext.h"
#include "core/devices/DeviceInfo.h"
#include "core/projectors/BackProjector.h"
#include "core/selection/SelectionCache.h"
#include "core/selection/Selector.h"

namespace tomo::app {

/// The cache file path (see above); empty when neither XDG_CACHE_HOME nor HOME is set.
std::filesystem::path selectionCachePath();

/// "0.1.0 GNU 12.2.0 Release": version, compiler and build type of this build.
std::string buildId();

/// The cache key of @p device (its "compute capability" property for CUDA devices).
SelectionKey selectionKeyFor(const DeviceInfo& device);

/// The first usable device of @p backend ("cpu", "cuda", "opencl"). NotFound/Unsupported with
/// the backend's message when it has none.
Result<DeviceInfo> primaryDevice(const std::string& backend);

/// Why GPU-ICD cannot run on @p device, or empty when it can: its tile build computes the
/// host's channels in double precision (icdTiles), so an OpenCL device without fp64 (many
/// integrated GPUs) is refused before any work, and the front door runs PSV-ICD on the CPU
/// with this reason as its note.
std::string gpuIcdRefusal(const DeviceInfo& device);

/// The cached choice for a job of @p shape on @p backend's primary device: the choice for the
/// job's workload class (core/selection/Selector.h: slices 1/few/many x size small/medium/
/// large) when a record with a matching key holds one, the chosen variant is registered and
/// is of the requested kind (interpolation and exactness: a linear request never gets a
/// nearest variant, whatever the file says). Exact variants only unless @p exact is false. A
/// class that was not tuned has no cached choice (the caller uses the model's default). The
/// devices of GPU backends are only discovered when the cache holds a record for the backend.
/// @p warning (optional) receives the cache's warning (corrupt or old file) or why a record is
/// stale.
std::optional<std::string> cachedVariant(const BackProjectorRegistry& registry,
                                         const std::string& backend, Interpolation interpolation,
                                         const JobShape& shape, bool exact = true,
                                         std::string* warning = nullptr);

/// Runs the sweep for @p backend's primary device (the classes of @p options; by default
/// one slice and many slices at 256^2 and 1024^2) and merges the record into the cache.
/// @p saveStatus receives the result of saving (IoError when the cache cannot be written; the
/// sweep's result is returned anyway).
Result<SelectionResult> tuneBackend(const BackProjectorRegistry& registry,
                                    const std::string& backend, const SelectorOptions& options,
                                    const ExecContext& ctx, Status* saveStatus = nullptr);

/// What is known of one variant's speed on a device: the model's prediction and, when
/// `tomo tune` measured it, the measurement of the one-slice medium class (else a one-slice
/// class, else any measured class).
struct VariantSpeed {
    std::string id;
    bool hasModel = false;     ///< a cost model exists (predictedGups meaningful)
    double predictedGups = 0;  ///< paper 002's model with the device's traits
    std::string bottleneck;    ///< the model's limiting unit
    double measuredGups = 0;   ///< 0 when not measured
    std::string state;         ///< the sweep's state of the variant ("" when not in it)
    std::string choice;        ///< the request kinds it was chosen for ("exact.linear", ...)
};

/// The speeds of @p device's variants, fastest predicted first; @p measuredClass (optional)
/// receives the workload class the measurements are of ("" when not measured), @p warning the
/// cache's warning or why its record is stale.
std::vector<VariantSpeed> variantSpeeds(const DeviceInfo& device,
                                        const BackProjectorRegistry& registry,
                                        std::string* measuredClass = nullptr,
                                        std::string* warning = nullptr);

/// Lines for `tomo devices --explain`: the device's traits with their sources, then per
/// variant the prediction (GU/s and bottleneck), the cached measurement and the choice.
std::string explainSelection(const DeviceInfo& device, const BackProjectorRegistry& registry);

}  // namespace tomo::app
