#pragma once
/// @file CacheDirectory.h
/// @brief Where TomoStation keeps what it can rebuild (the variant choice of `tomo tune`, MBIR
/// system matrices, ...): `$XDG_CACHE_HOME/tomostation`, else `~/.cache/tomostation`.

#include <filesystem>

namespace tomo {

/// The folder (not created); empty when neither XDG_CACHE_HOME nor HOME is set.
std::filesystem::path cacheDirectory();

}  // namespace tomo
