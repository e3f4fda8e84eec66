#pragma once
/// @file SelectionCache.h
/// @brief The per-device record of a selection sweep, kept in a JSON file between runs.
///
/// File: `$XDG_CACHE_HOME/tomostation/selection.json` (else `~/.cache/tomostation/...`; the
/// application chooses the path, see app/Selection.h). Layout (docs/selection.md):
///   {"format": "tomostation-selection-2",
///    "entries": [{"key": {"backend", "device", "driver", "compute_capability", "build"},
///                 "created": "2025-01-31T12:00:00Z", "seconds",
///                 "choices": {"1.medium:exact.linear": id, ...},
///                 "classes": [{"class": "1.medium", "image_size", "slices",
///                              "table": [{"id", "predicted_gups", "bottleneck",
///                                         "measured_gups", "error", "state", "note"}, ...]},
///                             ...]}, ...]}
/// One entry per (backend, device). A new sweep with the same whole key merges into the entry
/// class by class (a class tuned again replaces its choices and table, the others stay); with
/// another key it replaces the entry. A record is used only when its whole key matches
/// (device, driver, compute capability and TomoStation build); a mismatch means "tune again".
/// Files of the first format ("tomostation-selection-1": one choice per device for every
/// workload) are ignored with a warning and replaced by the next save: their choices were
/// measured on one shape only. A corrupt or unreadable file is ignored with a warning (never a
/// failure); saving goes through writeFileAtomic, so readers never see a partial file.
/// Threading: a SelectionCache is a value; concurrent processes may race to save, the last
/// complete file wins.

#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/base/Status.h"
#include "core/base/JsonValue.h"
#include "core/selection/Selector.h"

namespace tomo {

/// What a cached selection is valid for.
struct SelectionKey {
    std::string backend;
    std::string device;             ///< DeviceInfo::name
    std::string driver;             ///< DeviceInfo::driver
    std::string computeCapability;  ///< "9.0", or empty for non-CUDA devices
    std::string build;              ///< TomoStation version, compiler and build type
    bool operator==(const SelectionKey&) const = default;
};

/// One row of a cached table.
struct CachedCandidate {
    std::string id;
    double predictedGups = 0;
    std::string bottleneck;
    double measuredGups = 0;
    double error = -1;
    std::string state;  ///< candidateStateName()
    std::string note;
};

/// The stored sweep of one workload class.
struct CachedClass {
    std::string workloadClass;  ///< workloadClass(), e.g. "1.medium"
    int imageSize = 0, slices = 0;
    std::vector<CachedCandidate> table;
};

/// A stored sweep.
struct SelectionRecord {
    SelectionKey key;
    std::string created;  ///< UTC, ISO 8601
    double seconds = 0;
    std::map<std::string, std::string> choices;  ///< cacheChoiceKey() -> variant id
    std::vector<CachedClass> classes;
    /// The class's entry, or nullptr.
    const CachedClass* findClass(const std::string& workloadClass) const;
    /// The choice for a job of @p shape (its workloadClass()) and the kind (@p exact,
    /// @p interpolation), when the record holds one that @p registry has with exactly that
    /// interpolation and exactness: a linear request never gets a nearest variant (nor an
    /// approximate one for an exact request), whatever the file says.
    std::optional<std::string> choiceFor(const BackProjectorRegistry& registry,
                                         const JobShape& shape, Interpolation interpolation,
                                         bool exact) const;
};

/// The record of a finished sweep, stamped with the current UTC time.
SelectionRecord makeRecord(const SelectionKey& key, const SelectionResult& result);

class SelectionCache {
  public:
    /// Reads @p file. A missing file gives an empty cache; an unreadable or corrupt one an
    /// empty cache whose warning() says why.
    static SelectionCache load(const std::filesystem::path& file);

    const std::filesystem::path& path() const { return m_path; }
    const std::string& warning() const { return m_warning; }
    const std::vector<SelectionRecord>& records() const { return m_records; }

    /// The record whose whole key equals @p key, or nullptr.
    const SelectionRecord* find(const SelectionKey& key) const;
    /// The record of the same backend and device with any key (to explain a stale one).
    const SelectionRecord* findDevice(const std::string& backend, const std::string& device) const;
    /// Adds @p record: merged class by class into the record with the same whole key, else
    /// replacing the record of the same backend and device.
    void put(SelectionRecord record);
    /// Creates the directory and writes the file atomically. IoError naming the path.
    Status save() const;

    JsonValue toJson() const;
    /// Records from a parsed document; InvalidData naming the first malformed part.
    static Result<std::vector<SelectionRecord>> recordsFromJson(const JsonValue& doc);

  private:
    std::filesystem::path m_path;
    std::string m_warning;
    std::vector<SelectionRecord> m_records;
};

/// The cached record for @p key, or else the result of @p tune (stored in @p cache and saved;
/// a failed save sets nothing and is returned as the record's only problem via @p saveStatus
/// when given). Errors of @p tune are returned.
Result<SelectionRecord> cachedOrTune(SelectionCache& cache, const SelectionKey& key,
                                     const std::function<Result<SelectionResult>()>& tune,
                                     Status* saveStatus = nullptr);

}  // namespace tomo
