#include "core/base/CacheDirectory.h"

#include <cstdlib>

namespace tomo {

std::filesystem::path cacheDirectory() {
    if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg)
        return std::filesystem::path(xdg) / "tomostation";
    if (const char* home = std::getenv("HOME"); home && *home)
        return std::filesystem::path(home) / ".cache" / "tomostation";
    return {};
}

}  // namespace tomo
