#pragma once
/// @file PreprocessJson.h
/// @brief A dataset's preprocessing (core/preprocess's PreprocessOptions) as a session stores
/// it: "data.preprocessing" for a dataset folder's sinogram stack, "data.file.preprocessing"
/// for a data file (SessionState.h). Every field is written, so what is read back is the same
/// options; absent fields keep PreprocessOptions' defaults (a session written before sessions
/// stored the preprocessing has none: nothing applied). Read back, the options are validated
/// (PreprocessOptions::validate) and errors name the field.
///
/// Threading: any thread (no shared state).

#include <string>

#include <QJsonObject>
#include <QJsonValue>

#include "core/base/Status.h"
#include "core/preprocess/Preprocess.h"

namespace tomo::ui {

QJsonObject preprocessingToJson(const PreprocessOptions& options);
/// @p value at @p field ("data.preprocessing"); null or absent = no preprocessing.
/// InvalidData naming the field for a malformed or invalid object.
Result<PreprocessOptions> preprocessingFromJson(const QJsonValue& value, const std::string& field);

}  // namespace tomo::ui
