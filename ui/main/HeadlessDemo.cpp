// execHeadlessDemo (GuiApp.h): std::filesystem and execv only, no Qt, so that it runs before
// (and instead of) QApplication when there is no display.
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "ui/main/GuiApp.h"

namespace tomo::ui {

namespace {
bool envSet(const char* name) {
    const char* v = std::getenv(name);
    return v != nullptr && v[0] != '\0';
}
}  // namespace

bool hasDisplay() {
    return envSet("DISPLAY") || envSet("WAYLAND_DISPLAY") || envSet("QT_QPA_PLATFORM");
}

int execHeadlessDemo(int argc, char** argv) {
    namespace fs = std::filesystem;
    std::error_code ec;
    fs::path self = fs::read_symlink("/proc/self/exe", ec);
    if (ec) self = fs::absolute(argc > 0 ? fs::path(argv[0]) : fs::path("tomostation"), ec);
    const std::string tomo = (self.parent_path() / "tomo").string();

    std::vector<std::string> args{tomo, "demo"};
    bool hasOut = false;
    for (int i = 1; i < argc; ++i) {
        std::string_view a = argv[i];
        if (a == "--demo" || a.starts_with("--screenshot=") || a.starts_with("--view=") ||
            a.starts_with("--screenshot-size="))
            continue;
        if (a == "--screenshot" || a == "--view" || a == "--screenshot-size") {
            ++i;  // and its value
            continue;
        }
        hasOut = hasOut || a == "--out" || a.starts_with("--out=");
        args.emplace_back(a);
    }
    if (!hasOut) args.insert(args.begin() + 2, {"--out", "out/demo"});

    std::vector<char*> cargs;
    for (std::string& a : args)
        cargs.push_back(a.data());
    cargs.push_back(nullptr);
    ::execv(tomo.c_str(), cargs.data());
    std::fprintf(stderr, "tomostation: cannot run the headless demo %s: %s\n", tomo.c_str(),
                 std::strerror(errno));
    return 127;
}

}  // namespace tomo::ui
