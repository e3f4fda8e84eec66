#pragma once
/// @file SessionFile.h
/// @brief Sessions and parameter presets as JSON files (layout in SessionState.h), written
/// atomically (core/io/AtomicFile.h) and read back with every field checked: a wrong type or
/// an unknown format names the field and the file.
///
/// Data paths (the dataset folder, the data file): saving stores a path that lies under the
/// session file's folder relative to that folder (so that a folder holding a session and its
/// data can be moved or shared); loading resolves relative paths against the session file's
/// folder, so a loaded SessionState holds absolute paths (or the absolute ones it was saved
/// with). sessionToJson / sessionFromJson leave paths as they are.
///
/// Threading: any thread (no shared state).

#include <filesystem>
#include <map>
#include <string>

#include <QJsonObject>

#include "core/base/Status.h"
#include "ui/session/SessionState.h"

namespace tomo::ui {

QJsonObject sessionToJson(const SessionState& state);
/// InvalidData naming the field for a malformed object.
Result<SessionState> sessionFromJson(const QJsonObject& json);

/// "data.cone" of the layout (SessionState.h); also what Open recent keeps for a cone-beam
/// dataset. InvalidData naming the field for a malformed object.
QJsonObject coneToJson(const ConeSession& cone);
Result<ConeSession> coneFromJson(const QJsonValue& value);

Status saveSessionFile(const std::filesystem::path& file, const SessionState& state);
Result<SessionState> loadSessionFile(const std::filesystem::path& file);

/// One algorithm's parameters: { "format": "tomostation-preset", "algorithm": ID,
/// "parameters": { NAME: VALUE } }.
struct Preset {
    std::string algorithm;
    std::map<std::string, std::string> parameters;
};
Status savePresetFile(const std::filesystem::path& file, const Preset& preset);
Result<Preset> loadPresetFile(const std::filesystem::path& file);

}  // namespace tomo::ui
