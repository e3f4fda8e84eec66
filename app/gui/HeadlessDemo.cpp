// The headless `tomostation`: `tomo demo` run in this process (app/cli's demo command, the same
// code as the CLI's), with the GUI-only arguments removed. No Qt.
#include "app/gui/HeadlessDemo.h"

#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "app/cli/Commands.h"

namespace tomo::gui {

namespace {
bool envSet(const char* name) {
    const char* v = std::getenv(name);
    return v != nullptr && v[0] != '\0';
}
}  // namespace

bool hasDisplay() {
    return envSet("DISPLAY") || envSet("WAYLAND_DISPLAY") || envSet("QT_QPA_PLATFORM");
}

int runHeadlessDemo(int argc, char** argv) {
    std::vector<std::string> args{argc > 0 ? argv[0] : "tomostation", "demo"};
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
    return cli::runDemo(static_cast<int>(cargs.size()) - 1, cargs.data());
}

}  // namespace tomo::gui
