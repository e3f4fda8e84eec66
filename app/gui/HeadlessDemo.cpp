// The headless `tomostation`: `tomo demo` run in this process (app/cli's demo command, the same
// code as the CLI's), with the GUI-only arguments removed. No Qt.
#include "app/gui/HeadlessDemo.h"

#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "app/cli/Commands.h"
#include "tomo/config.h"

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

namespace {

constexpr const char* kHelp =
    "Usage: tomostation [options] [PATH]\n"
    "TomoStation CT reconstruction workstation.\n"
    "\n"
    "With a display, opens the window on PATH (a data file: HDF5 / NXtomo / DXchange, TIFF,\n"
    "raw, MetaImage, NRRD; or a dataset folder) or on the bundled demo, and reconstructs it.\n"
    "Options of the window: --demo, --data DIR, --size N, --threads N, --screenshot FILE,\n"
    "--view NAME, --screenshot-size WxH, --help, --version.\n"
    "\n"
    "Without a display (DISPLAY, WAYLAND_DISPLAY and QT_QPA_PLATFORM unset) it runs the\n"
    "headless demo instead: `tomo demo` in this process, writing out/demo unless --out is\n"
    "given; the window's options are ignored and tomo demo's are accepted (tomo demo --help).\n"
    "To reconstruct a file without a display use `tomo recon` (tomo recon --help).\n";

}  // namespace

int runHeadlessDemo(int argc, char** argv) {
    for (int i = 1; i < argc; ++i) {
        const std::string_view a = argv[i];
        if (a == "--help" || a == "-h") {
            std::fputs(kHelp, stdout);
            return 0;
        }
        if (a == "--version" || a == "-v") {
            std::printf("tomostation %s\n", TOMO_VERSION);
            return 0;
        }
        if (!a.starts_with("-") && (i == 1 || std::string_view(argv[i - 1]).find('=') !=
                                                  std::string_view::npos)) {
            std::fprintf(stderr,
                         "tomostation: no display to open %s in; reconstruct it with `tomo "
                         "recon %s --out DIR` (tomo recon --help)\n",
                         argv[i], argv[i]);
            return 2;
        }
    }
    std::fprintf(stderr,
                 "tomostation: no display (DISPLAY, WAYLAND_DISPLAY and QT_QPA_PLATFORM are "
                 "unset); running the headless demo (`tomo demo`) instead\n");
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
