#pragma once
/// @file SelectionCache.h
/// @brief The per-device record of a selection sweep, kept in a JSON file between runs.
///
/// File: `$XDG_CACHE_HOME/tomostation/selection.json` (else `~/.cache/tomostation/...`; the
/// application chooses the path, see app/Selection.h). Layout (docs/selection.md):
///   {"format": "tomostation-selection-1",
///    "entries": [{"key": {"backend", "device", "driver", "compute_capability", "build"},
///                 "created": "2025-01-31T12:00:00Z", "image_size", "slices", "seconds",
///                 "choices": {"exact.linear": id, ...},
///                 "table": [{"id", "predicted_gups", "bottleneck", "measured_gups",
///                            "error", "state", "note"}, ...]}, ...]}
/// One entry per (backend, device): a new sweep replaces the entry of the same device whatever
/// its key. A record is used only when its whole key matches (device, driver, compute
/// capability and TomoStation build); a mismatch means "tune again".
/// A corrupt or unreadable file is ignored with a warning (never a failure); saving goes
/// through writeFileAtomic, so readers never see a partial file.
/// Threading: a SelectionCache is a value; concurrent processes may race to save, the last
/// complete file wins.

#include <filesystem>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "core/base/Status.h"
#include "core/selection/JsonValue.h"
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

/// A stored sweep.
struct SelectionRecord {
    SelectionKey key;
    std::string created;  ///< UTC, ISO 8601
    int imageSize = 0, slices = 0;
    double seconds = 0;
    std::map<std::string, std::string> choices;  ///< choiceKey() -> variant id
    std::vector<CachedCandidate> table;
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
    /// Adds @p record, replacing the record of the same backend and device.
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
