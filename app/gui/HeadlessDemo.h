#pragma once
/// @file HeadlessDemo.h
/// @brief What `tomostation` does without a display: the headless demo, in process.

namespace tomo::gui {

/// True when Qt can open a window: DISPLAY or WAYLAND_DISPLAY is set, or QT_QPA_PLATFORM names
/// a platform explicitly (offscreen, vnc, ...).
bool hasDisplay();

/// Runs `tomo demo --out out/demo ARGS` in this process (the CLI's demo command, linked in),
/// where ARGS are this command line's arguments minus the GUI-only ones (--demo,
/// --screenshot FILE, --view NAME, --screenshot-size WxH); `--out` is added only when ARGS has
/// none. Returns the command's exit code. `--help` prints tomostation's own help (what it does
/// with and without a display) and `--version` its version, both exiting 0; a PATH to open
/// (first argument) is refused with exit 2 and the `tomo recon` command that reconstructs it.
int runHeadlessDemo(int argc, char** argv);

}  // namespace tomo::gui
