#pragma once
/// @file GuiApp.h
/// @brief What `tomostation` does, so that its main() stays a few lines (app/gui/main.cpp).
///
/// Command line (`tomostation --help` prints it):
///   tomostation [--demo] [--data DIR] [--size N] [--threads N] [--screenshot FILE.png
///               [--view NAME] [--screenshot-size WxH]] [FOLDER]
///  - no FOLDER (or --demo): load the demo dataset from --data DIR (default
///    `<dir of the executable>/../share/tomostation/demo`, where the build puts the bundled
///    copy), or generate it with app::makeDemoDataset when that folder holds no dataset or when
///    --size N asks for an N x N demo; then reconstruct it at once;
///  - FOLDER: load that dataset folder (app::loadDataset) and reconstruct it;
///  - --screenshot FILE: after the first reconstruction finishes (and the state the view needs,
///    see ScreenshotMode.h), save the view NAME (default: the main window) at WxH as a PNG and
///    exit: 0 when the jobs succeeded and the file was written.
/// Settings (window layout, recent files) persist in QSettings ("TomoStation", "tomostation").
///
/// Without a display (DISPLAY, WAYLAND_DISPLAY and QT_QPA_PLATFORM all unset) no window can be
/// opened: main() then replaces itself by the headless demo, `tomo demo`, of the same directory.

namespace tomo::ui {

/// True when Qt can open a window: DISPLAY or WAYLAND_DISPLAY is set, or QT_QPA_PLATFORM names
/// a platform explicitly (offscreen, vnc, ...).
bool hasDisplay();

/// Replaces this process by `<dir of this executable>/tomo demo --out out/demo ARGS` (execv),
/// where ARGS are this command line's arguments minus the GUI-only ones (--demo,
/// --screenshot FILE, --view NAME, --screenshot-size WxH); `--out` is added only when ARGS has
/// none. Uses no Qt. Returns only when the exec failed: a message names the binary and the reason,
/// and the result is 127.
int execHeadlessDemo(int argc, char** argv);

/// Runs the GUI (QApplication, Session, MainWindow) and returns the exit code.
int runGui(int argc, char** argv);

}  // namespace tomo::ui
