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

/// Runs the GUI (QApplication, Session, MainWindow) and returns the exit code.
int runGui(int argc, char** argv);

}  // namespace tomo::ui
