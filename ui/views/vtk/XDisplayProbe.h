#pragma once
/// @file XDisplayProbe.h
/// @brief Whether an X display accepts a connection (VTK 9.1's X render window aborts the
/// process when it cannot open its display, so the VTK views check first). Kept apart from
/// every Qt header: Xlib's macros (Status, Bool, CursorShape) clash with Qt's.

namespace tomo::ui {

/// Opens and closes a connection to the display named @p displayName (e.g. ":99").
/// Thread-safe (one short-lived connection per call).
bool canOpenXDisplay(const char* displayName);

}  // namespace tomo::ui
